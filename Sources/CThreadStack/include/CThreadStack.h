// The calling thread's stack, which Swift cannot ask for: glibc's `pthread_getattr_np` is a GNU
// extension its Glibc module does not import.
#pragma once
#include <stddef.h>

/// The lowest usable address of the calling thread's stack (the stack grows down to it), or
/// NULL when the system does not say. For the main thread glibc derives it from the stack
/// limit (`ulimit -s`) in force now; for another thread it is the stack it was made with.
const void *citrine_thread_stack_low(void);

/// Where the calling thread's stack has grown to: the frame of this function, called from the
/// caller's. A Swift local's address says less: under AddressSanitizer's use-after-return
/// checks (on by default on Linux) locals live in "fake stack" frames on the heap.
const void *citrine_stack_position(void);
