import Foundation
import QuartzCore

/// How playback repeats (lottie-ios's `LottieLoopMode`).
public enum LottieLoopMode: Hashable, Sendable {
    /// Once, then stop.
    case playOnce
    /// From the start again, forever.
    case loop
    /// Forward then backward, forever.
    case autoReverse
    /// Forward this many times.
    case `repeat`(Float)
    /// Forward then backward, this many times.
    case repeatBackwards(Float)
}

/// Called when playback ends: true when it finished, false when `pause()`, `stop()` or another
/// `play` interrupted it (lottie-ios's `LottieCompletionBlock`).
public typealias LottieCompletionBlock = (_ completed: Bool) -> Void

/// A layer that shows a `LottieAnimation` (lottie-ios's `LottieAnimationLayer`): the animation's
/// layers and keyframe animations are built once, under a timeline layer; playing only moves
/// that layer's time (`speed` 0 and `timeOffset` = the current frame / frame rate, set by a
/// `CADisplayLink` at each display frame), and Core Animation evaluates every keyframe animation
/// at it — so frames are sampled at any rate, not only the file's.
///
/// Its bounds are the animation's size; `LottieAnimationView` scales it to the view.
open class LottieAnimationLayer: CALayer {
    /// The animation shown; setting it rebuilds the layer tree at its start frame.
    public var animation: LottieAnimation? {
        didSet { rebuild() }
    }

    /// How `play` repeats (default `.playOnce`).
    public var loopMode: LottieLoopMode = .playOnce
    /// Playback rate: 1 plays at the file's frame rate, 2 twice as fast, negative backwards (default 1).
    public var animationSpeed: CGFloat = 1

    private var timeline: CALayer?
    private var playback: Playback?
    private var link: CADisplayLink?

    private struct Playback {
        var from: AnimationFrameTime
        var to: AnimationFrameTime
        var loopMode: LottieLoopMode
        /// Media time at which the playback was at `from`.
        var start: CFTimeInterval
        var completion: LottieCompletionBlock?
    }

    public init(animation: LottieAnimation?) {
        self.animation = animation
        super.init()
        rebuild()
    }

    public override init() {
        super.init()
    }

    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? LottieAnimationLayer {
            animation = other.animation
            loopMode = other.loopMode
            animationSpeed = other.animationSpeed
        }
    }

    public required init?(coder: NSCoder) { nil }

    /// A display link still running stops with the layer.
    deinit { link?.invalidate() }

    private func rebuild() {
        stopLink(completed: false)
        timeline?.removeFromSuperlayer()
        timeline = nil
        guard let animation else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        bounds = CGRect(origin: .zero, size: animation.size)
        let container = animation.makeContainer()
        container.position = .zero
        container.speed = 0
        container.timeOffset = animation.startFrame / animation.framerate
        addSublayer(container)
        timeline = container
        CATransaction.commit()
    }

    // MARK: - Position

    /// The frame shown; setting it stops playback there (lottie-ios).
    public var currentFrame: AnimationFrameTime {
        get {
            guard let animation, let timeline else { return 0 }
            return timeline.timeOffset * animation.framerate
        }
        set {
            stopLink(completed: false)
            show(frame: newValue)
        }
    }

    /// The position between `startFrame` (0) and `endFrame` (1).
    public var currentProgress: AnimationProgressTime {
        get {
            guard let animation else { return 0 }
            return (currentFrame - animation.startFrame) / (animation.endFrame - animation.startFrame)
        }
        set { currentFrame = frame(atProgress: newValue) }
    }

    /// Seconds from the start frame to the current frame.
    public var currentTime: TimeInterval {
        get { animation.map { (currentFrame - $0.startFrame) / $0.framerate } ?? 0 }
        set { if let animation { currentFrame = animation.startFrame + newValue * animation.framerate } }
    }

    public var isAnimationPlaying: Bool { playback != nil }

    private func show(frame: AnimationFrameTime) {
        guard let animation, let timeline else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        timeline.timeOffset = frame / animation.framerate
        CATransaction.commit()
    }

    private func frame(atProgress progress: AnimationProgressTime) -> AnimationFrameTime {
        guard let animation else { return 0 }
        return animation.startFrame + progress * (animation.endFrame - animation.startFrame)
    }

    // MARK: - Playing

    /// Plays from the current frame to the end with `loopMode` (from the start when already at the end).
    public func play(completion: LottieCompletionBlock? = nil) {
        guard let animation else { return }
        let at = currentFrame >= animation.endFrame ? animation.startFrame : currentFrame
        start(from: animation.startFrame, to: animation.endFrame, at: at, loopMode: loopMode, completion: completion)
    }

    /// Plays from `fromProgress` (default: the current progress) to `toProgress`.
    public func play(fromProgress: AnimationProgressTime? = nil, toProgress: AnimationProgressTime,
                     loopMode: LottieLoopMode? = nil, completion: LottieCompletionBlock? = nil) {
        let from = fromProgress.map(frame(atProgress:)) ?? currentFrame
        start(from: from, to: frame(atProgress: toProgress), at: from, loopMode: loopMode ?? self.loopMode, completion: completion)
    }

    /// Plays from `fromFrame` (default: the current frame) to `toFrame`.
    public func play(fromFrame: AnimationFrameTime? = nil, toFrame: AnimationFrameTime,
                     loopMode: LottieLoopMode? = nil, completion: LottieCompletionBlock? = nil) {
        let from = fromFrame ?? currentFrame
        start(from: from, to: toFrame, at: from, loopMode: loopMode ?? self.loopMode, completion: completion)
    }

    /// Stops where it is; the completion is called with false.
    public func pause() {
        stopLink(completed: false)
    }

    /// Stops and goes back to the start frame; the completion is called with false.
    public func stop() {
        stopLink(completed: false)
        if let animation { show(frame: animation.startFrame) }
    }

    private func start(from: AnimationFrameTime, to: AnimationFrameTime, at frame: AnimationFrameTime,
                       loopMode: LottieLoopMode, completion: LottieCompletionBlock?) {
        stopLink(completed: false)
        guard let animation, from != to, animationSpeed != 0 else {
            show(frame: to)
            completion?(true)
            return
        }
        let rate = animation.framerate * animationSpeed
        let (a, b) = animationSpeed < 0 ? (to, from) : (from, to)
        let elapsed = abs(frame - a) / abs(rate)
        playback = Playback(from: a, to: b, loopMode: loopMode, start: CACurrentMediaTime() - elapsed, completion: completion)
        show(frame: frame)
        let link = CADisplayLink { [weak self] link in self?.tick(link.timestamp) }
        link.add(to: .main, forMode: .common)
        self.link = link
    }

    private func tick(_ now: CFTimeInterval) {
        guard let animation, let playback else { return }
        let span = playback.to - playback.from
        let cycles = (now - playback.start) * animation.framerate * abs(animationSpeed) / abs(span)
        let (position, finished) = Self.position(cycles: cycles, loopMode: playback.loopMode)
        show(frame: playback.from + span * position)
        if finished { stopLink(completed: true) }
    }

    /// Where in one pass (0 = from, 1 = to) playback is after `cycles` passes' worth of time, and
    /// whether it has ended.
    static func position(cycles: Double, loopMode: LottieLoopMode) -> (CGFloat, Bool) {
        let c = max(cycles, 0)
        func reversing(_ c: Double) -> Double { let r = c.truncatingRemainder(dividingBy: 2); return r <= 1 ? r : 2 - r }
        switch loopMode {
        case .playOnce: return (min(c, 1), c >= 1)
        case .loop: return (c.truncatingRemainder(dividingBy: 1), false)
        case .autoReverse: return (reversing(c), false)
        case let .repeat(n):
            let total = Double(max(n, 1))
            return c >= total ? (1, true) : (c.truncatingRemainder(dividingBy: 1), false)
        case let .repeatBackwards(n):
            let total = 2 * Double(max(n, 1))
            return c >= total ? (0, true) : (reversing(c), false)
        }
    }

    private func stopLink(completed: Bool) {
        link?.invalidate()
        link = nil
        let finished = playback
        playback = nil
        finished?.completion?(completed)
    }

    /// Citrine's export: the timeline runs with media time from `time` (frame `startFrame` then),
    /// at the file's rate, without a display link — what `citrine render anim.json` draws.
    package func runFreely(from time: CFTimeInterval) {
        stopLink(completed: false)
        guard let animation, let timeline else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        timeline.speed = 1
        timeline.beginTime = time
        timeline.timeOffset = animation.startFrame / animation.framerate
        CATransaction.commit()
    }
}
