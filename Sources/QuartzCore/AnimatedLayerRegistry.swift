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
///
/// Per thread: a layer belongs to the thread that first gave it an animation, and a flush on a
/// thread delivers the events of that thread's layers only (Apple commits each thread's
/// transaction on that thread). Layer trees built and animated on separate threads — the
/// exporter's workers — therefore never see each other's events.
enum AnimatedLayerRegistry {
    /// One thread's layers.
    private struct List {
        /// Registration order; nil where a layer was deallocated.
        var layers: [Unmanaged<CALayer>?] = []
        var vacancies = 0
    }

    private struct State {
        var lists: [UInt: List] = [:]
        /// Where each registered layer (by address) is: its thread's list and its slot there.
        var slots: [UnsafeMutableRawPointer: (thread: UInt, slot: Int)] = [:]
        /// Each thread's storage for `withLayersWithAnimations`, empty, while not lent out and
        /// while the thread has a list.
        var spare: [UInt: [CALayer]] = [:]
    }

    private static let mutex = NSLock()
    nonisolated(unsafe) private static var state = State()

    /// No layer is released inside `body` (the entries are unowned), so a `deinit` never runs
    /// while the lock is held.
    private static func withLock<T>(_ body: (inout State) -> T) -> T {
        mutex.lock(); defer { mutex.unlock() }
        return body(&state)
    }

    /// Adds `layer` to the calling thread's list, unless it is registered already.
    static func register(_ layer: CALayer) {
        let entry = Unmanaged.passUnretained(layer)
        let thread = ThreadKey.current
        withLock { s in
            guard s.slots[entry.toOpaque()] == nil else { return }
            s.slots[entry.toOpaque()] = (thread, s.lists[thread, default: List()].layers.count)
            s.lists[thread, default: List()].layers.append(entry)
        }
    }

    /// Removes `layer`; called from its `deinit`. A thread's list goes when its last layer does.
    static func unregister(_ layer: CALayer) {
        let address = Unmanaged.passUnretained(layer).toOpaque()
        withLock { s in
            guard let (thread, slot) = s.slots.removeValue(forKey: address) else { return }
            s.lists[thread]!.layers[slot] = nil
            s.lists[thread]!.vacancies += 1
            if s.lists[thread]!.vacancies == s.lists[thread]!.layers.count {
                s.lists[thread] = nil
                s.spare[thread] = nil
            }
        }
    }

    /// Calls `body` with the calling thread's registered layers still alive that have animations
    /// now, in registration order, retained. A layer whose animations are all gone has no event
    /// to deliver and none to wait for, and is passed over before it is retained (S8's layers,
    /// animated once and then at rest, were 1 000 retains and event checks per commit). The
    /// array's storage is kept for the thread's next call, so a flush allocates nothing; `body`
    /// may flush again (a delegate's callback), the inner call then using storage of its own.
    static func withLayersWithAnimations<T>(_ body: ([CALayer]) -> T) -> T {
        let thread = ThreadKey.current
        var layers: [CALayer] = withLock { s in
            var layers = s.spare.removeValue(forKey: thread) ?? []
            guard var list = s.lists[thread] else { return layers }
            if list.vacancies > 0 {
                list.layers.removeAll { $0 == nil }
                list.vacancies = 0
                for (slot, entry) in list.layers.enumerated() { s.slots[entry!.toOpaque()] = (thread, slot) }
                s.lists[thread] = list
            }
            for entry in list.layers where !entry!._withUnsafeGuaranteedRef({ $0.animationStore.isEmpty }) {
                layers.append(entry!.takeUnretainedValue())
            }
            return layers
        }
        defer {
            layers.removeAll(keepingCapacity: true)
            // Kept only while the thread has layers (a finished worker thread leaves nothing).
            withLock { s in if s.lists[thread] != nil { s.spare[thread] = layers } }
        }
        return body(layers)
    }
}
