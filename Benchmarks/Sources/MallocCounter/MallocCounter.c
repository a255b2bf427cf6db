// See include/MallocCounter.h. glibc only: its __libc_* entry points are the real allocator.
#define _GNU_SOURCE
#include "MallocCounter.h"
#include <stddef.h>
#include <errno.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t allocations;
static uint64_t largest;

static void counted(uint64_t size) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    uint64_t seen = __atomic_load_n(&largest, __ATOMIC_RELAXED);
    while (size > seen && !__atomic_compare_exchange_n(&largest, &seen, size, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

uint64_t citrine_allocation_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }
uint64_t citrine_largest_allocation(void) { return __atomic_load_n(&largest, __ATOMIC_RELAXED); }
void citrine_reset_largest_allocation(void) { __atomic_store_n(&largest, 0, __ATOMIC_RELAXED); }

void *malloc(size_t size) { counted(size); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { counted((uint64_t)count * size); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { counted(size); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { counted(size); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { counted(size); return __libc_memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    counted(size);
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}
