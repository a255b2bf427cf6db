import Synchronization

/// Batches layer-tree changes into atomic updates (Apple's `CATransaction`).
///
/// * `begin()`/`commit()` nest; an inner transaction starts with its parent's settings and
///   restores them when it commits. Changes made outside any explicit transaction go into an
///   *implicit* one, committed by `flush()` (and by the renderer before each frame).
/// * Committing the outermost transaction gives every animation added with beginTime 0 its
///   layer's local time at that moment (DESIGN §3), marks new layers as committed (only committed
///   layers run implicit actions), delivers due delegate events and runs the completion block.
/// * Settings: `animationDuration` (default 0.25 s), `animationTimingFunction` (default nil: the
///   implicit action uses the default curve), `disableActions` (default false),
///   `completionBlock` (runs when the transaction's animations have finished — here, at commit
///   when it added no animation, else once media time passes the latest end of those animations,
///   observed at a later flush, commit or `presentation()`), and free `value(forKey:)` storage.
///
/// All state is guarded by one recursive lock (`lock()`/`unlock()` expose it, as Apple does), so
/// transactions may be used from any thread; each thread has its own nesting stack.
public final class CATransaction {
    private struct Frame {
        var values: [String: Any] = [:]
        var completion: (@Sendable () -> Void)?
        var animated: [CALayer] = []
    }

    private struct PendingCompletion {
        var end: CFTimeInterval
        var block: @Sendable () -> Void
    }

    private struct State {
        var stacks: [ObjectIdentifier: [Frame]] = [:]
        var implicit: Frame? {
            didSet { CATransaction.implicitPending.store(implicit != nil, ordering: .sequentiallyConsistent) }
        }
        var commitCount = 0
        var changeCount = 0
        var changed: [ObjectIdentifier: CALayer] = [:]
        var completions: [PendingCompletion] = []
    }

    private static let mutex = NSRecursiveLock()
    nonisolated(unsafe) private static var state = State()

    private static func locked<T>(_ body: (inout State) -> T) -> T {
        mutex.lock(); defer { mutex.unlock() }
        return body(&state)
    }

    private static var threadKey: ObjectIdentifier { ObjectIdentifier(Thread.current) }

    // MARK: - Nesting

    public static func begin() {
        locked { s in
            let key = threadKey
            var stack = s.stacks[key] ?? []
            var frame = Frame()
            frame.values = stack.last?.values ?? s.implicit?.values ?? [:]
            stack.append(frame)
            s.stacks[key] = stack
        }
    }

    public static func commit() {
        let outermost: Frame? = locked { s in
            let key = threadKey
            guard var stack = s.stacks[key], let top = stack.popLast() else { return nil }
            s.stacks[key] = stack.isEmpty ? nil : stack
            if !stack.isEmpty {
                // Inner commit: its animations and completion belong to the enclosing transaction.
                stack[stack.count - 1].animated += top.animated
                if let c = top.completion { s.completions.append(PendingCompletion(end: -.infinity, block: c)) }
                s.stacks[key] = stack
                return nil
            }
            return top
        }
        if let frame = outermost { finish(frame) }
    }

    /// Commits the implicit transaction, if any, and delivers due animation events.
    public static func flush() {
        commitImplicitIfNeeded()
        finish(Frame())
    }

    public static func lock() { mutex.lock() }
    public static func unlock() { mutex.unlock() }

    /// Whether an implicit transaction is open: `presentation()` asks once per layer, so the
    /// common answer (no) costs one atomic load instead of taking the lock.
    private static let implicitPending = Atomic<Bool>(false)

    static func commitImplicitIfNeeded() {
        guard implicitPending.load(ordering: .sequentiallyConsistent) else { return }
        let implicit: Frame? = locked { s in
            let f = s.implicit
            s.implicit = nil
            return f
        }
        if let implicit { finish(implicit) }
    }

    private static func finish(_ frame: Frame) {
        let now = CACurrentMediaTime()
        let changed: [CALayer] = locked { s in
            s.commitCount += 1
            let layers = Array(s.changed.values)
            s.changed = [:]
            return layers
        }
        for layer in changed { layer.assignBeginTimes(at: now) }
        if let completion = frame.completion {
            let end = frame.animated.flatMap { l in l.animationStore.entries.map { l.mediaTime(fromLocal: $0.animation.activeEnd) } }.max() ?? -.infinity
            locked { $0.completions.append(PendingCompletion(end: end, block: completion)) }
        }
        deliverEvents(at: now)
    }

    /// Delivers due delegate events of every animated layer and runs due completion blocks.
    static func deliverEvents(at now: CFTimeInterval) {
        for layer in AnimatedLayerRegistry.liveLayers() { layer.processAnimationEvents(until: now) }
        let due: [@Sendable () -> Void] = locked { s in
            let ready = s.completions.filter { $0.end <= now }
            s.completions.removeAll { $0.end <= now }
            return ready.map(\.block)
        }
        for block in due { block() }
    }

    // MARK: - Hooks from layers

    static var commitCount: Int { locked { $0.commitCount } }

    /// Citrine extension for renderers: increases whenever any layer property changes or an
    /// animation is added or removed, so an unchanged count means an unchanged model tree.
    public static var _changeCount: Int { locked { $0.changeCount } }

    static func layerDidChange(_ layer: CALayer) {
        locked { s in
            s.changeCount += 1
            s.changed[ObjectIdentifier(layer)] = layer
            if s.stacks[threadKey] == nil && s.implicit == nil { s.implicit = Frame() }
        }
    }

    /// `layer` got an animation: the current transaction's completion block waits for it.
    static func animationAdded(to layer: CALayer) {
        locked { s in
            if s.stacks[threadKey] != nil {
                s.stacks[threadKey]![s.stacks[threadKey]!.count - 1].animated.append(layer)
            } else {
                if s.implicit == nil { s.implicit = Frame() }
                s.implicit!.animated.append(layer)
            }
        }
    }

    // MARK: - Settings

    private static func currentValue(_ key: String) -> Any? {
        locked { s in (s.stacks[threadKey]?.last ?? s.implicit)?.values[key] }
    }

    private static func setCurrentValue(_ value: Any?, _ key: String) {
        locked { s in
            if var stack = s.stacks[threadKey], !stack.isEmpty {
                stack[stack.count - 1].values[key] = value
                s.stacks[threadKey] = stack
            } else {
                if s.implicit == nil { s.implicit = Frame() }
                s.implicit!.values[key] = value
            }
        }
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

    public static func completionBlock() -> (@Sendable () -> Void)? {
        locked { s in (s.stacks[threadKey]?.last ?? s.implicit)?.completion }
    }
    public static func setCompletionBlock(_ block: (@Sendable () -> Void)?) {
        locked { s in
            if var stack = s.stacks[threadKey], !stack.isEmpty {
                stack[stack.count - 1].completion = block
                s.stacks[threadKey] = stack
            } else {
                if s.implicit == nil { s.implicit = Frame() }
                s.implicit!.completion = block
            }
        }
    }
}

/// Keys of the transaction properties (Apple's constants).
public let kCATransactionAnimationDuration = "animationDuration"
public let kCATransactionDisableActions = "disableActions"
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
public let kCATransactionCompletionBlock = "completionBlock"
