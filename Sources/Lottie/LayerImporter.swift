import Foundation
import QuartzCore
import UIKit

// Lottie layers → CALayers (the structure lottie-ios's Core Animation engine builds):
//
//     composition container (bounds 0,0,w,h)
//     └── for each Lottie layer, bottom first (the file lists the top layer first):
//         [ancestor transform layers, outermost first: a copy of each parent's transform]
//         └── transform layer: position p, bounds.origin = anchor a, anchorPoint (0,0),
//             transform = scale then rotation (about the anchor), and the layer's own time
//             └── content layer: visible for [ip, op), opacity o; shapes, a solid or a precomp
//
// Parenting (`parent`) shares only the transform: a child is not hidden with its parent nor
// faded with its opacity (lottie-web, lottie-ios). So the child keeps its own place in the
// stacking order and gets copies of its ancestors' transform layers around its own, rather than
// being nested inside the parent's layer.
//
// Time: a Lottie layer's properties run in its own time, (comp frame − st) / sr. Each transform
// layer in a chain sets its CAMediaTiming so that its local time is that (Core Animation's
// local time = (parent − beginTime) × speed + timeOffset, composed down the chain). A precomp's
// layers then run in the precomp layer's time, as Bodymovin specifies.

/// Builds the CALayer tree of a composition. One use only: it counts the layers made against
/// `LottieLimits.builtLayers`.
final class LayerImporter {
    let composition: LottieComposition
    private var built = 0
    /// Boolean operations merge paths have run (`ShapeImporter+MergePaths.swift`).
    var mergeOperations = 0
    private var decoded: [String: CGImage] = [:]
    private let fps: Double

    init(_ composition: LottieComposition) {
        self.composition = composition
        fps = composition.frameRate
    }

    /// The composition's layers in a container of its size, in composition time (seconds from frame 0).
    func makeContainer() throws(LottieError) -> CALayer {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        let container = CALayer()
        container.name = composition.name ?? "Lottie"
        container.anchorPoint = .zero
        container.bounds = CGRect(x: 0, y: 0, width: composition.width, height: composition.height)
        // Each drawn layer makes at least two CALayers: refuse a file past the limit before building.
        var memo: [String: Int] = [:]
        if 2 * expandedCount(composition.layers, memo: &memo, open: []) > LottieLimits.builtLayers {
            throw LottieError("layers", "more than \(LottieLimits.builtLayers) layers once precomps are expanded")
        }
        try add(composition.layers, to: container, size: container.bounds.size, precomps: [], resampling: nil)
        return container
    }

    // MARK: - Layers of one composition

    /// Inside a time-remapped precomp: the frames sampled (in the CA local time of the remapped
    /// precomp's content) and the frame of the composition being built at each.
    struct Resampling {
        let frames: [Double]
        let compFrame: (Double) -> Double
    }

    /// How `layer`'s own animations are timed in a composition built under `resampling`.
    private func timing(_ layer: LottieLayer, _ resampling: Resampling?) -> AnimationTiming {
        guard let resampling else { return AnimationTiming(fps: fps) }
        let (start, stretch) = (layer.startTime, layer.stretch)
        return AnimationTiming(fps: fps, samples: resampling.frames) { (resampling.compFrame($0) - start) / stretch }
    }

    private func add(_ layers: [LottieLayer], to container: CALayer, size: CGSize, precomps: [String],
                     resampling: Resampling?) throws(LottieError) {
        var byIndex: [Int: LottieLayer] = [:]
        for layer in layers {
            if let i = layer.index, byIndex[i] == nil { byIndex[i] = layer }
        }
        for (i, layer) in layers.enumerated().reversed() where !layer.hidden {
            if case .null = layer.kind { continue }
            if case .unsupported = layer.kind { continue }
            let drawn = try chain(of: layer, byIndex: byIndex, size: size, precomps: precomps, resampling: resampling)
            let source = layer.matteParent.flatMap { byIndex[$0] } ?? (i > 0 ? layers[i - 1] : nil)
            guard let mode = layer.matte, let source else {
                container.addSublayer(drawn)
                continue
            }
            let matte = try chain(of: source, byIndex: byIndex, size: size, precomps: precomps, resampling: resampling)
            container.addSublayer(try matted(drawn, by: matte, mode, size: size, path: layer.path))
        }
    }

    /// `layer` placed by copies of its ancestors' transform layers, outermost first, with its
    /// own transform layer and content inside: the outermost layer.
    private func chain(of layer: LottieLayer, byIndex: [Int: LottieLayer], size: CGSize, precomps: [String],
                       resampling: Resampling?) throws(LottieError) -> CALayer {
        // The chain of ancestors, nearest first.
        var chain: [LottieLayer] = []
        var next = layer.parent
        while let index = next {
            guard let parent = byIndex[index] else {
                throw LottieError("\(layer.path).parent", "no layer has ind \(index)")
            }
            guard chain.count < LottieLimits.depth, parent.index != layer.index,
                  !chain.contains(where: { $0.index == parent.index }) else {
                throw LottieError("\(layer.path).parent", "the parent chain "
                                  + ([layer] + chain + [parent]).map { "\($0.index ?? -1)" }.joined(separator: " → ")
                                  + (chain.count < LottieLimits.depth ? " is a cycle" : " is longer than \(LottieLimits.depth)"))
            }
            chain.append(parent)
            next = parent.parent
        }
        var outermost: CALayer?
        var outer: CALayer?
        var time = (start: 0.0, stretch: 1.0)
        for lottie in chain.reversed() + [layer] {
            let (t, inside) = try transformLayer(lottie.transform, for: lottie, timing: timing(lottie, resampling))
            // Under resampling the samples carry each layer's time; Core Animation's stays the container's.
            if resampling == nil {
                setTime(of: t, from: time, to: (lottie.startTime, lottie.stretch))
                time = (lottie.startTime, lottie.stretch)
            }
            outer?.addSublayer(t)
            outer = inside
            if outermost == nil { outermost = t }
        }
        outer?.addSublayer(try content(of: layer, compositionSize: size, precomps: precomps, timing: timing(layer, resampling)))
        return outermost!
    }

    /// Local time (frames) = (comp frame − start) / stretch inside a layer whose superlayer runs
    /// at (comp frame − outer.start) / outer.stretch.
    private func setTime(of layer: CALayer, from outer: (start: Double, stretch: Double), to own: (start: Double, stretch: Double)) {
        guard outer != own else { return }
        layer.speed = Float(outer.stretch / own.stretch)
        layer.timeOffset = (outer.start - own.start) / own.stretch / fps
    }

    /// A layer placing its sublayers with `transform` (a layer's `ks` or a group's `tr`), opacity
    /// left out (the caller puts it where Lottie applies it); and the layer to put them in — the
    /// same, or with a skew or auto-orient, the innermost of two more: Bodymovin's matrix is
    /// position · rotation · skew · scale about the anchor, and Core Animation's `transform.scale`
    /// and `transform.rotation.z` recompose a transform without its skew, so the outer layer
    /// rotates, a middle one skews (about the anchor; an animated skew sampled once per frame,
    /// since interpolating two shear matrices is not shearing by the interpolated angle) and the
    /// inner one scales.
    ///
    /// Auto-orient (`ao` of `owner`) with a keyframed position: the position animation follows a
    /// keyframe `path` (straight lines where the file has no spatial tangents) with
    /// `rotationMode` `.rotateAuto`, which turns the layer to the path's tangent on top of its
    /// rotation, as lottie-web adds the tangent's angle to `r` (its TransformProperty); before
    /// the first keyframe and after the last, the tangent at that end (lottie-web samples 0.01
    /// frame inside the keyframes). The scale is on the inner layer then, so that a non-uniform
    /// scale is not turned by the tangent. Inside a time-remapped precomp (sampled values, no
    /// path) the rotation is sampled with the tangent's angle added (`tangentDegrees`).
    func transformLayer(_ transform: LottieTransform, for owner: LottieLayer?,
                        timing: AnimationTiming) throws(LottieError) -> (outer: CALayer, inner: CALayer) {
        try count(owner?.path ?? "")
        let layer = CALayer()
        layer.name = owner?.name
        layer.anchorPoint = .zero
        let size = CGSize(width: composition.width, height: composition.height)
        transform.anchor.apply(to: layer, "bounds", timing: timing,
                               convert: { CGRect(origin: $0, size: size) }, set: { layer.bounds = CGRect(origin: $0, size: size) })
        // Auto-orient along a keyframed combined position (lottie-web orients by nothing else).
        var orientPath: KeyframedValue<CGPoint>?
        if owner?.autoOrient == true, case let .combined(p) = transform.position, p.isAnimated { orientPath = p }
        let autoOrient = orientPath != nil && timing.samples == nil
        var positionAnimation: CAKeyframeAnimation?
        switch transform.position {
        case let .combined(p):
            if timing.samples != nil {
                p.apply(to: layer, "position", timing: timing, convert: { $0 }, set: { layer.position = $0 })
            } else {
                if case let .keyframed(frames) = p {
                    positionAnimation = KeyframedValue.animation("position", frames, frameRate: fps, convert: { $0 }, path: { $0 },
                                                                 alwaysPath: autoOrient)
                    if autoOrient { positionAnimation?.rotationMode = .rotateAuto }
                }
                layer.position = p.initial
            }
        case let .split(x, y):
            x.apply(to: layer, "position.x", timing: timing, convert: { CGFloat($0) }, set: { layer.position.x = $0 })
            y.apply(to: layer, "position.y", timing: timing, convert: { CGFloat($0) }, set: { layer.position.y = $0 })
        }
        var scale = transform.scale.initial, rotation = transform.rotation.initial
        var inner = layer
        if transform.skew.isAnimated || transform.skew.initial != 0 || orientPath != nil {
            let a = transform.anchor.initial
            var layers: [CALayer] = []
            for _ in 0..<2 {
                try count(owner?.path ?? "")
                let l = CALayer()
                l.anchorPoint = .zero
                l.bounds = CGRect(origin: a, size: size)
                l.position = a
                inner.addSublayer(l)
                layers.append(l)
                inner = l
            }
            let skew = KeyframedValue<[Double]>.sampled([transform.skew.map { [$0] }, transform.skewAxis.map { [$0] }]) { $0.map(\.[0]) }
            skew.apply(to: layers[0], "transform", timing: timing, convert: { Self.skewMatrix($0[0], axis: $0[1]) },
                       set: { layers[0].transform = Self.skewMatrix($0[0], axis: $0[1]) })
        }
        transform.scale.map(\.x).apply(to: inner, "transform.scale.x", timing: timing, convert: { CGFloat($0 / 100) }, set: { scale.x = $0 })
        transform.scale.map(\.y).apply(to: inner, "transform.scale.y", timing: timing, convert: { CGFloat($0 / 100) }, set: { scale.y = $0 })
        if let orientPath, let samples = timing.samples {
            // Sampled: the tangent's angle added to the rotation at each sample.
            let angle = { (frame: Double) in transform.rotation.value(at: frame) + Self.tangentDegrees(orientPath, at: frame) }
            rotation = angle(timing.local(samples.first ?? 0))
            let radians = { (frame: Double) in CGFloat(angle(timing.local(frame)) * .pi / 180) }
            if let turn = KeyframedValue<Double>.sampled("transform.rotation.z", samples, fps: fps, radians) {
                layer.add(turn, forKey: "transform.rotation.z")
            }
        } else {
            transform.rotation.apply(to: layer, "transform.rotation.z", timing: timing, convert: { CGFloat($0 * .pi / 180) },
                                     set: { rotation = $0 })
        }
        if inner === layer {
            layer.transform = Self.matrix(scale: scale, rotation: rotation)
        } else {
            layer.transform = Self.matrix(scale: CGPoint(x: 100, y: 100), rotation: rotation)
            inner.transform = Self.matrix(scale: scale, rotation: 0)
        }
        // Added after the rotation's animation, whose value the tangent's angle is added to.
        if let positionAnimation { layer.add(positionAnimation, forKey: "position") }
        return (layer, inner)
    }

    /// The direction (degrees, y down) a keyframed position moves in at `frame`: from its value
    /// there to its value 0.01 frame later, within the keyframes (lottie-web's auto-orient takes
    /// the same difference, at the first or last keyframe outside them); 0 where it stands still.
    static func tangentDegrees(_ position: KeyframedValue<CGPoint>, at frame: Double) -> Double {
        let times = position.keyTimes
        guard let first = times.first, let last = times.last, last > first else { return 0 }
        let a = min(max(frame, first), last - 0.01)
        let (p, q) = (position.value(at: a), position.value(at: a + 0.01))
        return p == q ? 0 : atan2(q.y - p.y, q.x - p.x) * 180 / .pi
    }

    /// Bodymovin's skew: `degrees` of shear along the axis at `axis` degrees (the axis turned to
    /// x, x sheared by −tan(skew) of y, turned back), as lottie-web composes it.
    static func skewMatrix(_ degrees: Double, axis: Double) -> CATransform3D {
        let turn = axis * .pi / 180
        var shear = CATransform3DIdentity
        shear.m21 = CGFloat(tan(-degrees * .pi / 180))
        return CATransform3DConcat(CATransform3DConcat(CATransform3DMakeRotation(turn, 0, 0, 1), shear),
                                   CATransform3DMakeRotation(-turn, 0, 0, 1))
    }

    /// After Effects' drop shadow softness per Core Animation `shadowRadius` point: fitted to
    /// ThorVG's frames (scripts/lottie-compare on Tests/LottieTests/Files/shadow.json, mean
    /// difference 0.88 of 255 at softness 30, against 1.46 at 6 and 2.08 at 3); After Effects
    /// does not publish its definition. Direction is clockwise from up, as ThorVG draws it.
    static let softnessPerShadowRadius = 5.0

    /// Scale (percent), then rotation (degrees, clockwise on screen in y-down coordinates), about
    /// the anchor: Bodymovin's order, and the order Core Animation composes `transform.scale` and
    /// `transform.rotation.z`.
    static func matrix(scale: CGPoint, rotation: Double) -> CATransform3D {
        CATransform3DConcat(CATransform3DMakeScale(scale.x / 100, scale.y / 100, 1),
                            CATransform3DMakeRotation(rotation * .pi / 180, 0, 0, 1))
    }

    // MARK: - Content

    private func content(of layer: LottieLayer, compositionSize: CGSize, precomps: [String],
                         timing: AnimationTiming) throws(LottieError) -> CALayer {
        try count(layer.path)
        let content = CALayer()
        content.anchorPoint = .zero
        content.bounds = CGRect(origin: .zero, size: compositionSize)
        layer.transform.opacity.apply(to: content, "opacity", timing: timing, convert: { Float($0 / 100) },
                                      set: { content.opacity = Float($0 / 100) })
        addVisibility(to: content, layer, timing: timing)
        if let shadow = layer.dropShadow {
            // The layer's content and sublayers cast it, as Core Animation's shadow is cast; each
            // value animates its shadow property (the offset sampled per frame: it is a sine and
            // cosine of the direction).
            shadow.color.apply(to: content, "shadowColor", timing: timing, convert: ShapeImporter.cgColor,
                               set: { content.shadowColor = ShapeImporter.cgColor($0) })
            let opacity = { (o: Double) in Float(min(max(o / 255, 0), 1)) }
            shadow.opacity.apply(to: content, "shadowOpacity", timing: timing, convert: opacity, set: { content.shadowOpacity = opacity($0) })
            let offset = KeyframedValue<[Double]>.sampled([shadow.direction.map { [$0] }, shadow.distance.map { [$0] }]) { v in
                [sin(v[0][0] * .pi / 180) * v[1][0], -cos(v[0][0] * .pi / 180) * v[1][0]]
            }
            offset.apply(to: content, "shadowOffset", timing: timing, convert: { CGSize(width: $0[0], height: $0[1]) },
                         set: { content.shadowOffset = CGSize(width: $0[0], height: $0[1]) })
            let radius = { (softness: Double) in CGFloat(max(softness, 0) / Self.softnessPerShadowRadius) }
            shadow.softness.apply(to: content, "shadowRadius", timing: timing, convert: radius, set: { content.shadowRadius = radius($0) })
        }
        addEffects(layer.effects, to: content, timing: timing)
        switch layer.kind {
        case let .solid(color, size):
            let solid = CALayer()
            solid.anchorPoint = .zero
            solid.bounds = CGRect(origin: .zero, size: size)
            solid.backgroundColor = CGColor(red: color[0], green: color[1], blue: color[2], alpha: 1)
            content.addSublayer(solid)
        case let .shape(items):
            try ShapeImporter(importer: self, owner: layer, timing: timing).add(items, to: content, trims: [])
        case let .precomp(refId, size):
            guard let layers = composition.precomps[refId] else {
                throw LottieError("\(layer.path).refId", "no precomp asset has id '\(refId)'")
            }
            if precomps.contains(refId) {
                throw LottieError("\(layer.path).refId", "precomps refer to each other in a cycle: "
                                  + (precomps + [refId]).joined(separator: " → "))
            }
            guard precomps.count < LottieLimits.depth else {
                throw LottieError("\(layer.path).refId", "precomps are nested more than \(LottieLimits.depth) deep")
            }
            let inner = size.width > 0 && size.height > 0 ? size : compositionSize
            content.bounds.size = inner
            content.masksToBounds = size.width > 0 && size.height > 0
            try add(layers, to: content, size: inner, precomps: precomps + [refId], resampling: resampling(layer, timing))
        case let .image(refId):
            guard let asset = composition.images[refId] else {
                throw LottieError("\(layer.path).refId", "no image asset has id '\(refId)'")
            }
            try count(layer.path)
            let picture = CALayer()
            picture.anchorPoint = .zero
            picture.bounds = CGRect(origin: .zero, size: asset.size)
            picture.contents = try image(asset)
            content.addSublayer(picture)
        case let .text(documents):
            try addText(documents, to: content, owner: layer, timing: timing)
        case .null, .unsupported:
            break
        }
        if try !addStrokeEffects(of: layer, to: content, timing: timing),
           let mask = try maskLayer(layer.masks, size: content.bounds.size, timing: timing, path: layer.path) {
            content.mask = mask
        }
        return content
    }

    /// Hidden outside [ip, op) of the composition's time: hidden in the model, and shown by an
    /// animation active over [ip, op) in the layer's own time (an animation with the default fill
    /// mode has no effect outside its active interval, CAMediaTiming.h). The interval is moved
    /// 10⁻⁷ s earlier so that rounding in the sum begin + duration cannot show the layer at op
    /// itself or hide it at ip, and so that a layer shown from time 0 gets no begin time of 0
    /// ("now" when added).
    private func addVisibility(to content: CALayer, _ layer: LottieLayer, timing: AnimationTiming) {
        content.isHidden = true
        let a = (layer.inPoint - layer.startTime) / layer.stretch, b = (layer.outPoint - layer.startTime) / layer.stretch
        if let samples = timing.samples {
            let shown = KeyframedValue<Double>.sampled("hidden", samples, fps: fps, discrete: true) { frame -> Any in
                let t = timing.local(frame)
                return !(t >= min(a, b) && t < max(a, b))
            }
            if let shown { content.add(shown, forKey: "lottie.visibility") }
            return
        }
        let (from, to) = (min(a, b) / fps, max(a, b) / fps)
        guard to > from else { return }
        let early = 1e-7
        let shown = CAKeyframeAnimation(keyPath: "hidden")
        shown.values = [false, false]
        shown.keyTimes = [0, 1]
        shown.calculationMode = .discrete
        shown.beginTime = from - early == 0 ? beginTimeAtZero : from - early
        shown.duration = to - from
        shown.isRemovedOnCompletion = false
        content.add(shown, forKey: "lottie.visibility")
    }

    /// The drawn layers of `layers` with every precomp use expanded, saturating past the limit
    /// (a cycle counts nothing here; building reports it).
    private func expandedCount(_ layers: [LottieLayer], memo: inout [String: Int], open: Set<String>) -> Int {
        var total = 0
        for layer in layers where !layer.hidden {
            total += 1
            if case let .precomp(refId, _) = layer.kind, !open.contains(refId), let inner = composition.precomps[refId] {
                if memo[refId] == nil { memo[refId] = expandedCount(inner, memo: &memo, open: open.union([refId])) }
                total += memo[refId]!
            }
            if total > LottieLimits.builtLayers { return total }
        }
        return total
    }

    /// The time of a precomp's layers: the precomp layer's own (Core Animation's, or the samples'
    /// when already resampled), or with time remapping (`tm`, seconds of the precomp at each
    /// frame of the layer) the layer's frames sampled — one sample per frame over its in–out
    /// span, at most `LottieLimits.samples` — each mapped through `tm`.
    private func resampling(_ layer: LottieLayer, _ timing: AnimationTiming) -> Resampling? {
        guard let remap = layer.timeRemap else {
            return timing.samples.map { Resampling(frames: $0, compFrame: timing.local) }
        }
        let local = timing.local, fps = fps
        let frames: [Double]
        if let samples = timing.samples {
            frames = samples
        } else {
            let a = (layer.inPoint - layer.startTime) / layer.stretch, b = (layer.outPoint - layer.startTime) / layer.stretch
            let (from, to) = (min(a, b), max(a, b))
            let count = min(Int((to - from).rounded(.up)), LottieLimits.samples)
            frames = count < 1 ? [from] : (0...count).map { from + (to - from) * Double($0) / Double(count) }
        }
        return Resampling(frames: frames) { remap.value(at: local($0)) * fps }
    }

    /// An image asset decoded (PNG or JPEG, within ImageCodecs' limits), once per import.
    private func image(_ asset: LottieImage) throws(LottieError) -> CGImage {
        if let done = decoded[asset.path] { return done }
        let data: Data
        switch asset.source {
        case let .embedded(bytes):
            data = bytes
        case let .file(name):
            let url = URL(fileURLWithPath: name, relativeTo: composition.directory.map { URL(fileURLWithPath: $0, isDirectory: true) })
            guard let bytes = FileManager.default.contents(atPath: url.path) else {
                throw LottieError("\(asset.path).p", "no image file at '\(url.path)'")
            }
            data = bytes
        }
        guard let image = UIImage(data: data)?.cgImage else {
            throw LottieError("\(asset.path).p", "not a PNG or JPEG image that can be decoded")
        }
        decoded[asset.path] = image
        return image
    }

    /// Counts one more layer made.
    func count(_ path: String) throws(LottieError) {
        built += 1
        guard built <= LottieLimits.builtLayers else {
            throw LottieError(path, "more than \(LottieLimits.builtLayers) layers once precomps are expanded")
        }
    }
}
