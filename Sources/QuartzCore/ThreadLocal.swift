#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Citrine extension: one object per thread, made on first use and released when its thread
/// ends — state that Core Animation and UIKit keep per thread (a hit test's walk, a recursion's
/// stack allowance, UIKit's animation blocks and graphics contexts). Held in a thread-specific
/// slot: one `pthread_getspecific` per lookup.
package final class _ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Value

    /// Per-thread values made by `make`.
    package init(_ make: @escaping @Sendable () -> Value) {
        var key = pthread_key_t()
        pthread_key_create(&key) { slot in
            if let slot { Unmanaged<AnyObject>.fromOpaque(slot).release() }
        }
        self.key = key
        self.make = make
    }

    /// The calling thread's value.
    package var current: Value {
        if let slot = pthread_getspecific(key) { return Unmanaged<Value>.fromOpaque(slot).takeUnretainedValue() }
        let value = make()
        pthread_setspecific(key, Unmanaged.passRetained(value).toOpaque())
        return value
    }
}
