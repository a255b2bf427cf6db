#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CThreadStack

/// Citrine extension: how much of the calling thread's stack is left, for the recursions that
/// must not overflow it — drawing (`LayerRenderer+Stack`) and hit testing
/// (`HitTestWalk`) measure it where they start instead of assuming the 8 MiB the main thread,
/// Dispatch's, Foundation's and Swift concurrency's threads have on Linux by default: a thread
/// made with a smaller `Thread.stackSize`, or a process under a smaller `ulimit -s`, has less.
package enum _ThreadStack {
    /// Bytes between the caller's frame and the lowest address the calling thread's stack may
    /// grow to, nil when the system does not say.
    static var bytesLeft: Int? {
        guard let low = lowestAddress else { return nil }
        return Int(bitPattern: citrine_stack_position()) - low
    }

    /// Levels of `bytesPerLevel` that fit in what is left of the calling thread's stack after
    /// `reserve` bytes, between 0 and `maximum` — `maximum` when the system does not say.
    package static func levels(of bytesPerLevel: Int, keeping reserve: Int, atMost maximum: Int) -> Int {
        guard let bytesLeft else { return maximum }
        return max(0, min(maximum, (bytesLeft - reserve) / bytesPerLevel))
    }

    /// The lowest address the calling thread's stack may grow to, asked of the system once per
    /// thread (for the main thread glibc reads `/proc/self/maps`, too slow for every frame).
    private static var lowestAddress: Int? {
        if let known = pthread_getspecific(slot) {
            let address = Int(bitPattern: known)
            return address == unknown ? nil : address
        }
        let low = citrine_thread_stack_low().map { Int(bitPattern: $0) } ?? unknown
        pthread_setspecific(slot, UnsafeRawPointer(bitPattern: low))
        return low == unknown ? nil : low
    }

    /// What the slot holds for a thread whose stack the system does not describe (no stack
    /// ends at address 1).
    private static let unknown = 1

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
