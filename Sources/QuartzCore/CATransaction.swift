import Foundation
import Synchronization

/// Batches layer-tree changes into atomic updates (Apple's `CATransaction`).
///
/// * `begin()`/`commit()` nest; an inner transaction starts with its parent's settings and
///   restores them when it commits. Changes made outside any explicit transaction go into an
///   *implicit* one, committed by `flush()` (and by the renderer before each frame).
/// * Committing the outermost transaction gives every animation added with beginTime 0 its
///   layer's local time at that moment (DESIGN §3), marks new layers as committed (only committed
///   layers run implicit actions), delivers due delegate events and runs the completion block.
///   An animation's `animationDidStart` comes after the commit that starts it, at the next
///   delivery (a later flush or commit, a frame, a turn of the main run loop; see `deliveryTurn`).
/// * Settings: `animationDuration` (default 0.25 s), `animationTimingFunction` (default nil: the
///   implicit action uses the default curve), `disableActions` (default false),
///   `completionBlock` (runs when the transaction's animations have finished — here, at commit
///   when it added no animation, else once media time passes the latest end of those animations,
///   observed at a later flush, commit or `presentation()`), and free `value(forKey:)` storage.
///
/// All state is guarded by one recursive lock (`lock()`/`unlock()` expose it, as Apple does), so
/// transactions may be used from any thread. As on Apple, each thread has its own transactions:
/// its nesting stack, its implicit transaction, the layers it changed and its completion blocks;
/// `flush()` and `commit()` commit the calling thread's changes and deliver the events of the
/// layers that thread animated (`AnimatedLayerRegistry`). Layer trees built on separate threads
/// (the exporter's workers) thus never commit or observe each other.
public final class CATransaction {
    private struct Frame {
        var values: [String: Any] = [:]
        var completion: (() -> Void)?
        var animated: [CALayer] = []
    }

    private struct PendingCompletion {
        var end: CFTimeInterval
        var block: () -> Void
    }

    /// One thread's transactions: its explicit stack, its implicit transaction, the layers it
    /// changed since its last commit and its completion blocks waiting for their animations.
    private struct ThreadState {
        var stack: [Frame] = []
        var implicit: Frame?
        var changed: [ObjectIdentifier: CALayer] = [:]
        var completions: [PendingCompletion] = []
        /// The sublayers that presented layers had at this thread's last commit, for those whose
        /// sublayers changed since (kept alive until the next commit).
        var committedSublayers: [ObjectIdentifier: (layer: CALayer, sublayers: [CALayer])] = [:]
        /// The commit serial of this thread's latest outermost commit. (A thread's state is
        /// kept after the thread ends: a few empty collections.)
        var lastCommit = 0
        /// How many times this thread has delivered its animation events (`deliverEvents`).
        var deliveries = 0
    }

    private struct State {
        var threads: [UInt: ThreadState] = [:]
        /// Threads with an implicit transaction open.
        var implicitCount = 0 {
            didSet { CATransaction.implicitPending.store(implicitCount > 0, ordering: .sequentiallyConsistent) }
        }
        /// Outermost commits so far, on all threads.
        var commitSerial = 0
        var changeCount = 0

        /// The calling thread's state (created on first use), modified in place: a get-and-set
        /// would copy the thread's whole transaction stack at every `begin()` (30 000
        /// nested transactions took 27 s).
        subscript(thread: UInt) -> ThreadState {
            get { threads[thread] ?? ThreadState() }
            _modify { yield &threads[thread, default: ThreadState()] }
        }

        mutating func openImplicit(on thread: UInt) {
            guard threads[thread]?.implicit == nil else { return }
            self[thread].implicit = Frame()
            implicitCount += 1
        }

        mutating func takeImplicit(on thread: UInt) -> Frame? {
            guard let frame = threads[thread]?.implicit else { return nil }
            threads[thread]!.implicit = nil
            implicitCount -= 1
            return frame
        }
    }

    private static let mutex = NSRecursiveLock()
    nonisolated(unsafe) private static var state = State()

    private static func locked<T>(_ body: (inout State) -> T) -> T {
        mutex.lock(); defer { mutex.unlock() }
        return body(&state)
    }

    private static var threadKey: UInt { ThreadKey.current }

    // MARK: - Nesting

    public static func begin() {
        locked { s in
            let key = threadKey
            var frame = Frame()
            frame.values = s[key].stack.last?.values ?? s.threads[key]?.implicit?.values ?? [:]
            s[key].stack.append(frame)
        }
    }

    public static func commit() {
        let outermost: Frame? = locked { s in
            let key = threadKey
            guard s.threads[key]?.stack.isEmpty == false, let top = s.threads[key]!.stack.popLast() else { return nil }
            if !s.threads[key]!.stack.isEmpty {
                // Inner commit: its animations and completion belong to the enclosing transaction.
                let last = s.threads[key]!.stack.count - 1
                s.threads[key]!.stack[last].animated += top.animated
                if let c = top.completion { s.threads[key]!.completions.append(PendingCompletion(end: -.infinity, block: c)) }
                return nil
            }
            return top
        }
        if let frame = outermost {
            finish(frame)
            endTurn()
        }
    }

    /// Commits the implicit transaction, if any, and delivers due animation events.
    public static func flush() {
        commitImplicit()
        finish(Frame())
        endTurn()
    }

    /// The current delivery turn: it advances when an outermost `commit()`, a `flush()` or the
    /// implicit commit of `presentation()` returns. An animation's `animationDidStart` is
    /// reported in a turn after the one in which it was added — never inside the commit that
    /// starts it: Core Animation sends its delegate callbacks after the commit, from the main
    /// run loop (its `run_animation_callbacks`, dispatched to the main queue), and CAAnimation.h
    /// says the start is sent "when the animation begins its active duration". (One counter for
    /// all threads: another thread's commit can only make a report come a turn earlier.)
    static var deliveryTurn: Int { turnCounter.load(ordering: .relaxed) }
    private static let turnCounter = Atomic<Int>(0)
    private static func endTurn() { turnCounter.add(1, ordering: .relaxed) }

    public static func lock() { mutex.lock() }
    public static func unlock() { mutex.unlock() }

    /// Whether an implicit transaction is open: `presentation()` asks once per layer, so the
    /// common answer (no) costs one atomic load instead of taking the lock.
    private static let implicitPending = Atomic<Bool>(false)

    static func commitImplicitIfNeeded() {
        if commitImplicit() { endTurn() }
    }

    /// Commits the calling thread's implicit transaction; returns whether there was one.
    @discardableResult
    private static func commitImplicit() -> Bool {
        guard implicitPending.load(ordering: .sequentiallyConsistent),
              let implicit = locked({ $0.takeImplicit(on: threadKey) }) else { return false }
        finish(implicit)
        return true
    }

    /// Commits the calling thread's changes: animations added with beginTime 0 to the layers it
    /// changed get their local time now.
    private static func finish(_ frame: Frame) {
        let now = CACurrentMediaTime()
        let key = threadKey
        // The recorded sublayer lists end with the commit; they are released out here, not
        // under the lock (a layer's deinit may take it).
        let (changed, _): ([CALayer], [ObjectIdentifier: (layer: CALayer, sublayers: [CALayer])]) = locked { s in
            s.commitSerial += 1
            s[key].lastCommit = s.commitSerial
            let layers = Array(s.threads[key]!.changed.values)
            s.threads[key]!.changed = [:]
            defer { s.threads[key]!.committedSublayers = [:] }
            return (layers, s.threads[key]!.committedSublayers)
        }
        for layer in changed { layer.assignBeginTimes(at: now) }
        if let completion = frame.completion {
            let end = frame.animated.flatMap { l in l.animationStore.entries.map { l.mediaTime(fromLocal: $0.animation.activeEnd) } }.max() ?? -.infinity
            locked { $0[key].completions.append(PendingCompletion(end: end, block: completion)) }
        }
        deliverEvents(at: now)
    }

    /// Delivers due delegate events of the calling thread's animated layers and runs its due
    /// completion blocks.
    static func deliverEvents(at now: CFTimeInterval) {
        AnimatedLayerRegistry.withLayersWithAnimations { layers in
            for layer in layers { layer.processAnimationEvents(until: now) }
        }
        let key = threadKey
        let due: [() -> Void] = locked { s in
            s[key].deliveries += 1
            guard !s.threads[key]!.completions.isEmpty else { return [] }
            let ready = s.threads[key]!.completions.filter { $0.end <= now }
            s.threads[key]!.completions.removeAll { $0.end <= now }
            return ready.map(\.block)
        }
        for block in due { block() }
    }

    // MARK: - Hooks from layers

    /// The serial of the calling thread's latest outermost commit. A layer created when the
    /// serial counter stood at n has been committed by this thread once this exceeds n (only
    /// committed layers run implicit actions; see `CALayer.runAction`).
    static var commitCount: Int { locked { $0.threads[threadKey]?.lastCommit ?? 0 } }

    /// Citrine plumbing for scene drivers: how many times the calling thread has delivered its
    /// animation events (at every commit and flush). Unchanged across a scene's turn, the turn
    /// delivered none: an event due then waits for a commit the scene does not make.
    package static var eventDeliveryCount: Int { locked { $0.threads[threadKey]?.deliveries ?? 0 } }

    /// The serial of the latest outermost commit on any thread (a new layer's birth mark).
    static var commitSerial: Int { locked { $0.commitSerial } }

    /// Citrine extension for renderers: increases whenever any layer property changes or an
    /// animation is added or removed, so an unchanged count means an unchanged model tree.
    package static var _changeCount: Int { locked { $0.changeCount } }

    static func layerDidChange(_ layer: CALayer) {
        locked { s in
            let key = threadKey
            s.changeCount += 1
            s[key].changed[ObjectIdentifier(layer)] = layer
            if s.threads[key]!.stack.isEmpty { s.openImplicit(on: key) }
        }
    }

    /// `layer`'s sublayers are about to change: a change of the model tree (`_changeCount`: a
    /// sublayer added, removed or moved, and nothing else, changes the picture too), and
    /// remembers, once per commit, those it had at the
    /// calling thread's last commit — the render tree a transition added in this transaction
    /// starts from (Apple snapshots the tree as the last commit left it). Only layers that have
    /// been presented are recorded (the others have no picture to start from).
    static func sublayersWillChange(_ layer: CALayer) {
        locked { $0.changeCount += 1 }
        guard layer.presentationLayer != nil else { return }
        locked { s in
            let key = threadKey, id = ObjectIdentifier(layer)
            if s.threads[key] == nil { s.threads[key] = ThreadState() }
            guard s.threads[key]!.committedSublayers[id] == nil else { return }
            s.threads[key]!.committedSublayers[id] = (layer, layer.sublayerStorage)
        }
    }

    /// The sublayers `layer` had at the calling thread's last commit, if they changed since.
    static func committedSublayers(of layer: CALayer) -> [CALayer]? {
        locked { $0.threads[threadKey]?.committedSublayers[ObjectIdentifier(layer)]?.sublayers }
    }

    /// Whether the calling (main) thread has animation events or completion blocks still to
    /// deliver (`MainRunLoopEvents`).
    static var mainThreadHasPendingEvents: Bool {
        if locked({ s in s.threads[threadKey].map { !$0.completions.isEmpty || $0.implicit != nil } ?? false }) { return true }
        return AnimatedLayerRegistry.withLayersWithAnimations { $0.contains { $0.animationStore.hasUnreportedEvents } }
    }

    /// `layer` got an animation: the current transaction's completion block waits for it.
    static func animationAdded(to layer: CALayer) {
        if ThreadKey.current == ThreadKey.main { MainRunLoopEvents.arm() }
        locked { s in
            let key = threadKey
            if !s[key].stack.isEmpty {
                s.threads[key]!.stack[s.threads[key]!.stack.count - 1].animated.append(layer)
            } else {
                s.openImplicit(on: key)
                s.threads[key]!.implicit!.animated.append(layer)
            }
        }
    }

    // MARK: - Settings

    private static func currentValue(_ key: String) -> Any? {
        locked { s in (s.threads[threadKey]?.stack.last ?? s.threads[threadKey]?.implicit)?.values[key] }
    }

    /// Edits the calling thread's innermost transaction, opening an implicit one if none is open.
    private static func editCurrentFrame(_ edit: (inout Frame) -> Void) {
        locked { s in
            let key = threadKey
            if !s[key].stack.isEmpty {
                edit(&s.threads[key]!.stack[s.threads[key]!.stack.count - 1])
            } else {
                s.openImplicit(on: key)
                edit(&s.threads[key]!.implicit!)
            }
        }
    }

    private static func setCurrentValue(_ value: Any?, _ key: String) {
        editCurrentFrame { $0.values[key] = value }
    }

    public static func value(forKey key: String) -> Any? { currentValue(key) }
    public static func setValue(_ anObject: Any?, forKey key: String) { setCurrentValue(anObject, key) }

    /// Seconds; default 0.25.
    public static func animationDuration() -> CFTimeInterval {
        (currentValue(kCATransactionAnimationDuration) as? CFTimeInterval) ?? 0.25
    }
    public static func setAnimationDuration(_ dur: CFTimeInterval) { setCurrentValue(dur, kCATransactionAnimationDuration) }

    public static func animationTimingFunction() -> CAMediaTimingFunction? {
        currentValue(kCATransactionAnimationTimingFunction) as? CAMediaTimingFunction
    }
    public static func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        setCurrentValue(function, kCATransactionAnimationTimingFunction)
    }

    public static func disableActions() -> Bool { (currentValue(kCATransactionDisableActions) as? Bool) ?? false }
    public static func setDisableActions(_ flag: Bool) { setCurrentValue(flag, kCATransactionDisableActions) }

    public static func completionBlock() -> (() -> Void)? {
        locked { s in (s.threads[threadKey]?.stack.last ?? s.threads[threadKey]?.implicit)?.completion }
    }
    /// The block to run once every animation added in this transaction has finished (or at
    /// its commit when it added none). An ordinary closure, as Apple's signature takes: it runs
    /// on the thread whose transaction it belongs to — for the main thread, at the latest on the
    /// next turn of the main run loop after the animations' end (see `CADisplayLink`), else at
    /// that thread's next flush, commit or `presentation()` after it.
    public static func setCompletionBlock(_ block: (() -> Void)?) {
        if block != nil && ThreadKey.current == ThreadKey.main { MainRunLoopEvents.arm() }
        editCurrentFrame { $0.completion = block }
    }
}

/// Keys of the transaction properties (Apple's constants).
public let kCATransactionAnimationDuration = "animationDuration"
public let kCATransactionDisableActions = "disableActions"
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
public let kCATransactionCompletionBlock = "completionBlock"
