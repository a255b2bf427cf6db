#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The identity of the calling thread, for the per-thread state of `CATransaction` and
/// `AnimatedLayerRegistry` (Apple keeps transactions per thread: "implicit transactions are
/// created automatically when the layer tree is modified by a thread without an active
/// transaction", and each thread commits its own). `pthread_self()` costs no allocation,
/// unlike `Thread.current` on threads Foundation did not start.
enum ThreadKey {
    static var current: UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self())))) }
}
