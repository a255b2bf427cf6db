#define _GNU_SOURCE
#include <pthread.h>
#include "CThreadStack.h"

const void *citrine_thread_stack_low(void) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return NULL;
    void *base = NULL;
    size_t size = 0, guard = 0;
    int failed = pthread_attr_getstack(&attributes, &base, &size);
    pthread_attr_getguardsize(&attributes, &guard);
    pthread_attr_destroy(&attributes);
    if (failed || base == NULL) return NULL;
    // glibc reports the guard page inside the stack of a thread it made; never count on it.
    return (const char *)base + guard;
}

__attribute__((noinline)) const void *citrine_stack_position(void) {
    return __builtin_frame_address(0);
}
