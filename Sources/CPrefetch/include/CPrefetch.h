// Software prefetch for Swift code, which has no prefetch intrinsic. Static inline: the Swift
// compiler imports the body and inlines it to one `prefetcht0` instruction. A prefetch never
// faults, whatever the address.
#pragma once

/// Asks the CPU to bring the cache line holding `address` into all cache levels (a hint: it may
/// be ignored, and it does not hold back the instructions after it as a load that misses would).
static inline void citrine_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
