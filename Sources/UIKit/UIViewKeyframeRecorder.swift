/// The changes of one keyframe block (`UIView.animateKeyframes`): per animated property, its
/// value before the block and the keyframes that changed it, turned into `CAKeyframeAnimation`s
/// when the block returns (see `UIView+Keyframes.swift`).
final class UIViewKeyframeRecorder {
    private struct Frame { var start: Double; var end: Double; var value: Any }
    private struct Track {
        let layer: CALayer
        weak var view: UIView?
        let key: String
        let initial: Any
        var frames: [Frame]
    }

    /// In the order the properties first changed (so animations are added in that order).
    private var tracks: [Track] = []
    /// The block's duration, seconds (`UIView.inheritedAnimationDuration` inside it).
    let duration: TimeInterval

    init(duration: TimeInterval) { self.duration = duration }

    /// A change of `key` on `layer` (now holding its new model value) in a keyframe from relative
    /// time `start` lasting `duration`; `initial` is the property's presentation value before it.
    func record(layer: CALayer, view: UIView, key: String, initial: Any, start: Double, duration: Double) {
        guard let value = layer.value(forKey: key) else { return }
        let frame = Frame(start: start, end: start + duration, value: value)
        if let i = tracks.firstIndex(where: { $0.layer === layer && $0.key == key }) {
            tracks[i].frames.append(frame)
        } else {
            tracks.append(Track(layer: layer, view: view, key: key, initial: initial, frames: [frame]))
        }
    }

    /// Adds one keyframe animation per changed property. Frames are sorted by their end times
    /// (a stable sort: two changes arriving at the same time keep their order, the later wins).
    func addAnimations(delay: TimeInterval, options: UIView.KeyframeAnimationOptions, tracker: UIViewAnimationTracker) {
        for track in tracks {
            guard let view = track.view else { continue }
            var values: [Any] = [track.initial]
            var times: [Double] = [0]
            let frames = track.frames.enumerated().sorted { ($0.element.end, $0.offset) < ($1.element.end, $1.offset) }
            for (_, frame) in frames {
                if frame.start > times[times.count - 1] {
                    values.append(values[values.count - 1])
                    times.append(frame.start)
                }
                values.append(frame.value)
                times.append(max(frame.end, times[times.count - 1]))
            }
            if times[times.count - 1] < 1 {
                values.append(values[values.count - 1])
                times.append(1)
            }
            let animation = CAKeyframeAnimation(keyPath: track.key)
            animation.values = values
            animation.keyTimes = times.map { NSNumber(value: $0) }
            animation.calculationMode = options.calculationMode
            let shared = options.animationOptions
            animation.timingFunction = shared.timingFunction
            animation.duration = duration
            if delay > 0 {
                animation.beginTime = track.layer.convertTime(CACurrentMediaTime(), from: nil) + delay
                animation.fillMode = .backwards
            }
            if shared.contains(.repeat) { animation.repeatCount = .infinity }
            if shared.contains(.autoreverse) { animation.autoreverses = true }
            animation.delegate = tracker.token(view: view, key: track.key,
                                               blocksInteraction: !shared.contains(.allowUserInteraction))
            track.layer.add(animation, forKey: track.key)
        }
    }
}

/// The action a view answers inside a keyframe block: it remembers the property's presentation
/// value before the change and records the change with the keyframe's times when the layer runs
/// it.
final class UIViewKeyframeAction: CAAction {
    private let recorder: UIViewKeyframeRecorder
    private weak var view: UIView?
    private let initial: Any
    private let start: Double
    private let duration: Double

    init(recorder: UIViewKeyframeRecorder, view: UIView, initial: Any, start: Double, duration: Double) {
        self.recorder = recorder
        self.view = view
        self.initial = initial
        self.start = start
        self.duration = duration
    }

    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        guard let layer = anObject as? CALayer, let view else { return }
        recorder.record(layer: layer, view: view, key: event, initial: initial, start: start, duration: duration)
    }
}
