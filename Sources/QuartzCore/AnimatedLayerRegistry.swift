import Foundation

/// The layers that have had animations, in the order they first got one. `CATransaction`
/// delivers their due delegate events at every flush and commit, layer by layer in this order
/// (so runs are deterministic), including layers nobody renders or asks for a presentation.
///
/// The references are unowned, not weak. A weak reference gives its target a side table, a
/// separate block that every later retain and release of the object must visit: reading two
/// properties of each of 100 000 animated layers took 19 ms with side tables against 2.4 ms
/// with the weak registration switched off (Benchmarks/LAYERS.md). Instead a layer leaves the registry in its `deinit`.
/// Threads: like the event delivery that reads it (which runs a layer's delegate callbacks and
/// edits its animation list), the registry assumes each layer is used by one thread at a time —
/// layers are not `Sendable` — so a layer is never deallocated during a flush that reaches it.
enum AnimatedLayerRegistry {
    private struct State {
        /// Registration order; nil where a layer was deallocated.
        var layers: [Unmanaged<CALayer>?] = []
        /// Where each registered layer (by address) is in `layers`.
        var slots: [UnsafeMutableRawPointer: Int] = [:]
        var vacancies = 0
    }

    private static let mutex = NSLock()
    nonisolated(unsafe) private static var state = State()

    /// No layer is released inside `body` (the entries are unowned), so a `deinit` never runs
    /// while the lock is held.
    private static func withLock<T>(_ body: (inout State) -> T) -> T {
        mutex.lock(); defer { mutex.unlock() }
        return body(&state)
    }

    /// Adds `layer`, unless it is registered already.
    static func register(_ layer: CALayer) {
        let entry = Unmanaged.passUnretained(layer)
        withLock { s in
            guard s.slots[entry.toOpaque()] == nil else { return }
            s.slots[entry.toOpaque()] = s.layers.count
            s.layers.append(entry)
        }
    }

    /// Removes `layer`; called from its `deinit`.
    static func unregister(_ layer: CALayer) {
        let address = Unmanaged.passUnretained(layer).toOpaque()
        withLock { s in
            guard let slot = s.slots.removeValue(forKey: address) else { return }
            s.layers[slot] = nil
            s.vacancies += 1
        }
    }

    /// The registered layers still alive, in registration order, retained.
    static func liveLayers() -> [CALayer] {
        withLock { s in
            if s.vacancies > 0 { compact(&s) }
            return s.layers.map { $0!.takeUnretainedValue() }
        }
    }

    private static func compact(_ s: inout State) {
        s.layers.removeAll { $0 == nil }
        for (slot, entry) in s.layers.enumerated() { s.slots[entry!.toOpaque()] = slot }
        s.vacancies = 0
    }
}
