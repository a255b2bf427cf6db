// Counts the process's heap allocations, for benchmarks that report allocations per frame.
// Linking this target into an executable replaces glibc's malloc, calloc, realloc, memalign,
// aligned_alloc and posix_memalign with counting wrappers around glibc's own (__libc_*), so
// allocations made by the Swift runtime and every library in the process are counted too.
#pragma once
#include <stdint.h>

/// The number of allocation calls so far (relaxed atomic counter).
uint64_t citrine_allocation_count(void);

/// The largest size (bytes) asked of one allocation call since the last reset (or the start).
uint64_t citrine_largest_allocation(void);

/// Starts a new measurement of `citrine_largest_allocation`.
void citrine_reset_largest_allocation(void);
