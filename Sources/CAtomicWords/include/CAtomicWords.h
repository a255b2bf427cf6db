// Atomic operations on 64-bit words in raw memory, for Swift code: the Synchronization
// module's `Atomic` is a stored value and cannot live in a raw or tail-allocated buffer (a
// compiled animation program keeps its shared memo there). Static inline: the Swift compiler
// imports the bodies, and on x86-64 every load and store is one plain `mov` (the fences only
// stop the compiler from reordering); the compare-exchange is one `lock cmpxchg`.
#pragma once
#include <stdbool.h>
#include <stdint.h>

/// The 8-byte-aligned word at `p`, read with acquire ordering (later reads are not moved before it).
static inline uint64_t citrine_word_load_acquire(const void *p) {
    return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
}

/// The 8-byte-aligned word at `p`, read atomically with no ordering.
static inline uint64_t citrine_word_load(const void *p) {
    return __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
}

/// Writes `value` to the 8-byte-aligned word at `p` atomically with no ordering.
static inline void citrine_word_store(void *p, uint64_t value) {
    __atomic_store_n((uint64_t *)p, value, __ATOMIC_RELAXED);
}

/// Writes `value` to the word at `p` with release ordering (earlier writes are visible first).
static inline void citrine_word_store_release(void *p, uint64_t value) {
    __atomic_store_n((uint64_t *)p, value, __ATOMIC_RELEASE);
}

/// Replaces the word at `p` by `desired` if it holds `expected`; whether it did.
static inline bool citrine_word_exchange(void *p, uint64_t expected, uint64_t desired) {
    return __atomic_compare_exchange_n((uint64_t *)p, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/// Reads before the fence are not moved after later reads.
static inline void citrine_fence_acquire(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }

/// Writes after the fence are not moved before earlier writes.
static inline void citrine_fence_release(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
