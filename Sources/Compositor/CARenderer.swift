import QuartzCore
import Raster

/// Renders a layer tree into a bitmap (Apple's `CARenderer`, targeting a `Pixmap` instead of a
/// Metal texture). A frame is `beginFrame(atTime:)` → `render()` → `endFrame()`; `layer` is drawn
/// as presented at the frame's media time. Deviation: Apple's `init(mtlTexture:options:)` becomes
/// `init(width:height:scale:)`, and the pixels are `pixmap` / `makeImage()`.
public final class CARenderer {
    /// The root layer.
    public var layer: CALayer?
    /// The area drawn, in the root layer's superlayer space (points). Default: the target size.
    public var bounds: CGRect
    /// Device pixels per point (1, 2 or 3 for @1x/@2x/@3x).
    public let scale: CGFloat
    /// Colour the frame is cleared to (nil: transparent).
    public var backgroundColor: CGColor?
    /// The frame buffer.
    public private(set) var pixmap: Pixmap
    private var frameTime: CFTimeInterval?
    private var updates: [CGRect] = []
    /// What the pixmap currently shows: the model tree's change count and the frame time, when
    /// those determine the picture completely.
    private var shown: (changes: Int, time: CFTimeInterval, animated: Bool, root: ObjectIdentifier?, background: CGColor?)?
    /// Per-layer footprints of the frame shown (nil when the tree is not damage-tracked, or the
    /// frame was drawn whole without them).
    private(set) var footprints: LayerRenderer.Footprints?
    /// `CALayer.timingChangeCount` when `footprints` were made: while it holds, the tree has the
    /// same shape, and the next frame updates them in place (`LayerRenderer.updateFootprints`).
    private var footprintsShape = -1
    /// Frames still to draw whole without working out the footprints (see `render`).
    private var untrackedFramesLeft = 0
    /// Frames to draw whole without footprints the next time running animations damage more than
    /// `maxPatchFraction` of the frame: `untrackedFrames`, doubled at each such frame in a row up
    /// to `maxUntrackedFrames`.
    private var untrackedRun = CARenderer.untrackedFrames
    /// Pixels redrawn by the last `render()` (Citrine extension, for tests and benchmarks):
    /// the whole frame, a damaged rectangle, or nothing for an idle frame.
    public private(set) var _lastRedrawnArea: CGRect = .zero
    /// Citrine extension: whether frames reuse what earlier frames drew — layer bitmaps
    /// rasterized once and composited at each frame's position, and damage patches (default
    /// true: the fast path for a window). A reused bitmap keeps the sub-pixel phase it was
    /// rasterized at, so a frame's pixels can depend on which frames came before it (within
    /// anti-aliasing). With false every frame is drawn from the tree alone, so the same tree at
    /// the same time always gives the same pixels whatever was drawn before — what an exporter
    /// rendering frames on several threads needs.
    package var _reusesBitmapsAcrossFrames = true
    /// Citrine extension: how many threads draw a full frame, each a horizontal band of its
    /// rows, all at once (`LayerRenderer+Bands`); the frame has the same bytes at any count.
    /// Default: the `CITRINE_RENDER_THREADS` environment variable (1…64), else the processors
    /// the process may use. An exporter that draws several frames at once sets 1. Values are
    /// clamped to 1…64; some trees, frames under 16 rows and damage patches are drawn on one.
    package var _renderThreads = LayerRenderer.defaultRenderThreads {
        didSet { _renderThreads = min(max(_renderThreads, 1), LayerRenderer.maxRenderThreads) }
    }
    /// Citrine extension, for tests: how many bands the last full frame was drawn in (1: on one
    /// thread, also for a frame not drawn whole).
    package private(set) var _lastFrameBands = 1
    /// Citrine extension, for tests: the rows of each band the next banded frame is drawn in
    /// (moved after every banded frame, `LayerRenderer+Bands`); empty before the first.
    package var _nextBandRows: [Range<Int>] { renderer.frameBands?.renderers.map(\.target.drawableRows) ?? [] }
    /// Citrine extension, for tests: how many of the root's sublayers the last banded frame's
    /// preparation evaluated, with their subtrees, on the bands' threads (`LayerRenderer+Bands`);
    /// 0 before the first.
    package var _lastConcurrentlyPreparedSublayers: Int { renderer.frameBands?.concurrentlyPrepared ?? 0 }
    /// Draws the frames and keeps the retained bitmaps (internal, not private: tests read its
    /// counters through `@testable import`).
    lazy var renderer = LayerRenderer(target: pixmap, scale: scale, offscreen: offscreen)
    /// Set by `image(of:)`, whose renderer draws one frame and is dropped: no footprints are
    /// made (they serve the next frame's damage) and no layer bitmap is kept (a
    /// million siblings kept a footprint and a bitmap each). The pixels are the same.
    var drawsOnce = false
    /// Most footprints a frame keeps (`LayerRenderer.maxFootprints`; internal, so that tests can
    /// force a tree past it).
    var footprintBudget = LayerRenderer.maxFootprints
    /// The offscreen surfaces of the frames drawn and their budget
    /// (`LayerRenderer.maxOffscreenBytes(frame:)`; internal, so that tests can lower it).
    let offscreen: LayerRenderer.OffscreenAccount

    /// A renderer for a `width`×`height` point area at `scale` pixels per point. Throws
    /// `RasterError.invalidSize` for a scale that is not a positive finite number, or a pixel
    /// size beyond `Pixmap`'s limits (checked in floating point, before any conversion).
    public init(width: Int, height: Int, scale: CGFloat = 1) throws {
        let w = (CGFloat(width) * scale).rounded(), h = (CGFloat(height) * scale).rounded()
        let side = CGFloat(Pixmap.maxDimension)
        guard scale.isFinite, scale > 0, w >= 0, h >= 0, w <= side, h <= side else {
            throw RasterError.invalidSize(width: width, height: height,
                                          reason: "at scale \(scale) the frame would be \(w)×\(h) pixels; a scale must be positive and finite, and a side at most \(Pixmap.maxDimension) pixels")
        }
        pixmap = try Pixmap(width: Int(w), height: Int(h))
        scratchKeeper = try Pixmap(width: 0, height: 0)
        offscreen = LayerRenderer.OffscreenAccount(budget: LayerRenderer.maxOffscreenBytes(frame: pixmap))
        self.scale = scale
        bounds = CGRect(x: 0, y: 0, width: width, height: height)
    }

    /// Draws the following frames into `target`, which becomes `pixmap` (an exporter hands each
    /// frame its own buffer, so a frame is drawn where it is encoded, without a copy). `target`
    /// has `pixmap`'s size; retained bitmaps and damage tracking start afresh, the drawing
    /// buffers (scan-conversion cells, paint rows) move with the renderer.
    /// After `releaseTarget()`, the buffers come from the renderer's keeping, and the released
    /// target (which may be another renderer's by now) is not read or written.
    package func retarget(_ target: Pixmap) {
        precondition(target.width == pixmap.width && target.height == pixmap.height, "a target of the frame's size")
        if targetReleased {
            target.takeDrawingScratch(from: scratchKeeper)
            targetReleased = false
        } else {
            target.takeDrawingScratch(from: pixmap)
        }
        guard target !== pixmap else { return }
        pixmap = target
        renderer = LayerRenderer(target: pixmap, scale: scale, offscreen: offscreen)
        shown = nil
        footprints = nil
    }

    /// Hands the target back after a frame (an exporter's frame buffer, which its pipeline then
    /// gives to another worker's renderer): the drawing buffers move into the renderer's keeping,
    /// and nothing of the renderer touches the target again until the next `retarget`, which
    /// must come before the next frame.
    package func releaseTarget() {
        guard !targetReleased else { return }
        scratchKeeper.takeDrawingScratch(from: pixmap)
        targetReleased = true
    }
    /// Holds the drawing buffers while the target is released (a 0×0 pixmap: 4 bytes of pixels).
    private let scratchKeeper: Pixmap
    /// The bytes damaged patches are drawn into (`patch(width:height:)`; nil before the first).
    private var patchStorage: Pixmap?
    /// Whether `releaseTarget()` was called since the last `retarget`.
    private var targetReleased = false

    /// Starts a frame at media time `t` (default: now). Commits the implicit transaction first,
    /// as Core Animation does before each frame.
    public func beginFrame(atTime t: CFTimeInterval = CACurrentMediaTime(), timeStamp ts: UnsafeMutableRawPointer? = nil) {
        CATransaction.flush()
        frameTime = t
    }

    /// Recomputes the area to redraw from the layer tree (here: the whole bounds).
    public func updateBounds() -> CGRect { bounds }

    /// Marks a rectangle (points, in the root layer's superlayer space) as needing redraw in the
    /// next `render()`, even when the layer tree itself did not change.
    public func addUpdate(_ r: CGRect) { updates.append(r) }

    /// The pending `addUpdate` rectangles in device pixels.
    private var requestedArea: LayerGeometry.IntBox {
        updates.reduce(LayerGeometry.IntBox(x0: 0, y0: 0, x1: 0, y1: 0)) { area, r in
            guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return area }
            let box = LayerGeometry.IntBox(x0: Int(max(-1e9, (r.minX * scale).rounded(.down))),
                                           y0: Int(max(-1e9, (r.minY * scale).rounded(.down))),
                                           x1: Int(min(1e9, (r.maxX * scale).rounded(.up))),
                                           y1: Int(min(1e9, (r.maxY * scale).rounded(.up))))
            return area.union(box)
        }.clamped(width: pixmap.width, height: pixmap.height)
    }

    /// Citrine extension, for tests: replicator instances this renderer has visited (box-tested
    /// or drawn) since it was made — a count that follows what reaches the target, not
    /// `instanceCount` (`LayerRenderer+Replicator`).
    package var _replicatorInstancesVisited: Int { renderer.replicatorInstancesVisited }
    /// Citrine extension, for tests: the most bytes of offscreen surfaces (groups, clips, masks,
    /// …) alive at once in any frame this renderer has drawn, as counted against its budget
    /// (`LayerRenderer+Offscreen`: 8 bytes a surface pixel, 1 a clip-mask pixel).
    package var _offscreenBytesHighWater: Int { offscreen.highWater }
    /// Citrine extension (diagnostics): how many layer bitmaps the renderer retains — drawn
    /// contents and rasterized leaf layers of the layers on screen.
    package var _retainedBitmapCount: Int { renderer.leaves.byLayer.count + renderer.backingStores.count }

    /// The media time at which the next frame is needed (Apple: "the time at which the next
    /// update should happen; if infinite, no update needs to be scheduled"): the frame time while
    /// an animation runs, the start of the next animation to begin, ∞ when nothing will change.
    /// A replicator's sublayers are asked at each instance's shifted time (t − i·instanceDelay).
    public func nextFrameTime() -> CFTimeInterval {
        guard let layer else { return .infinity }
        let now = frameTime ?? CACurrentMediaTime()
        return Self.nextChange(in: layer, at: now, shifts: [0])
    }

    /// Beyond this many replicated instance times the answer is simply `now`.
    private static let maxInstanceShifts = 4096

    /// The earliest change of the tree under `root` (an iterative walk: a tree may be 100 000
    /// deep), each layer asked at every time shift its replicators give it.
    private static func nextChange(in root: CALayer, at now: CFTimeInterval, shifts: [CFTimeInterval]) -> CFTimeInterval {
        var next = CFTimeInterval.infinity
        var pending = [(root, shifts)]
        while let (l, shifts) = pending.popLast() {
            next = min(next, shifts.map { l._nextChangeTime(afterMediaTime: now - $0) + $0 }.min() ?? .infinity)
            guard next > now else { return now }
            var childShifts = shifts
            if let r = l as? CAReplicatorLayer, r.instanceCount > 1, r.instanceDelay != 0 {
                guard shifts.count <= maxInstanceShifts / r.instanceCount else { return now }
                childShifts = shifts.flatMap { s in (0..<r.instanceCount).map { s + CFTimeInterval($0) * r.instanceDelay } }
            }
            for child in (l.sublayers ?? []).reversed() { pending.append((child, childShifts)) }
            if let m = l.mask { pending.append((m, childShifts)) }
        }
        return max(next, now)
    }

    /// Whether any layer of the tree (sublayers and masks) passes `test`: an iterative walk.
    private func anyLayer(_ test: (CALayer) -> Bool) -> Bool { layer?._anyLayerInTree(test) ?? false }

    /// Whether any layer of the tree has an animation (running or not, keyed or not) or changes
    /// with time by itself (an emitter with cells).
    private func treeHasAnimations() -> Bool { anyLayer { $0._hasAnimations } }

    /// Draws the frame. An idle frame — no property changed, no animation added or removed since
    /// the last frame, and either no animation in the tree or the same media time — keeps the
    /// pixels already drawn and costs next to nothing (layers drawn with `draw(in:)` must call
    /// `setNeedsDisplay()` to change, as on Apple). Otherwise, when the tree is damage-tracked
    /// (`LayerRenderer.footprints`), at rest or while animations run, only the damaged area is
    /// redrawn, unless it covers more than `maxPatchFraction` of the frame. When running
    /// animations damage more than that, the next `untrackedFrames` frames of them (whatever was
    /// committed meanwhile) are drawn whole straight away, without the footprint pass that could
    /// only conclude the same; then damage is measured again (two frames: one to record the
    /// footprints, one to compare), and while it stays that large the run of untracked frames
    /// doubles, up to `maxUntrackedFrames`.
    public func render() {
        _lastFrameBands = 1
        if !_reusesBitmapsAcrossFrames {
            renderer = LayerRenderer(target: pixmap, scale: scale, offscreen: offscreen)
            shown = nil
            footprints = nil
        }
        let t = frameTime ?? CACurrentMediaTime()
        let changes = CATransaction._changeCount
        let animated = treeHasAnimations()
        let root = layer.map(ObjectIdentifier.init)
        let background = backgroundColor.map { $0.rasterColor.premultiplied } ?? .transparent
        var fresh: LayerRenderer.Footprints?
        if let s = shown, s.root == root, s.background == backgroundColor, !treeNeedsDisplay() {
            // (Finished animations removed since the last frame change the picture without a change.)
            if s.changes == changes && s.animated == animated && (!animated || s.time == t) {
                _lastRedrawnArea = .zero
                if let layer { redraw(requestedArea, layer: layer, at: t, background: background) }
                return
            }
            // Animations ran in both frames, whatever else was committed (a Lottie layer's
            // timeline moves by a commit at every frame).
            let stillAnimated = animated && s.animated
            if !stillAnimated { untrackedRun = Self.untrackedFrames }
            if stillAnimated && untrackedFramesLeft > 0 {
                untrackedFramesLeft -= 1
            } else {
                untrackedFramesLeft = 0
                let limit = Int(Self.maxPatchFraction * Double(pixmap.width * pixmap.height))
                if let layer {
                    let (new, damage) = footprintsAndDamage(of: layer, at: t, limit: limit)
                    fresh = new
                    switch damage {
                    case .area(let damaged, let removedLayers):
                        let area = LayerRenderer.drawnWhole(damaged.union(requestedArea), renderer.wholeReaches,
                                                            frame: (pixmap.width, pixmap.height))
                        if area.pixelCount <= limit, let new {
                            redraw(area, layer: layer, at: t, background: background, footprints: new)
                            untrackedRun = Self.untrackedFrames
                            if removedLayers { renderer.leaves.keepOnly(new) }
                            footprints = new
                            shown = (changes, t, animated, root, backgroundColor)
                            return
                        }
                    case .tooLarge where stillAnimated:
                        untrackedFramesLeft = untrackedRun
                        untrackedRun = min(2 * untrackedRun, Self.maxUntrackedFrames)
                    default: break
                    }
                }
            }
        } else if !drawsOnce, let layer {
            footprintsShape = CALayer.timingChangeCount
            fresh = renderer.footprints(of: layer, at: t, reusing: nil, budget: footprintBudget)
        }
        renderer.leaves.retains = !drawsOnce
        if let layer {
            _lastFrameBands = renderer.renderFullFrame(layer, at: t, footprints: fresh, background: background, threads: _renderThreads)
        } else {
            pixmap.fill(with: background)
        }
        footprints = fresh
        shown = (changes, t, animated, root, backgroundColor)
        _lastRedrawnArea = CGRect(x: 0, y: 0, width: pixmap.width, height: pixmap.height)
    }

    /// What changed since the last frame's footprints (`footprintsAndDamage`).
    private enum Damage {
        /// No footprints to compare with (the tree was not tracked, in this frame or the last).
        case unknown
        /// More than the limit.
        case tooLarge
        /// The damaged area, and whether layers left the footprints (their bitmaps are dropped;
        /// assumed of footprints worked out afresh, which are not followed layer by layer).
        case area(LayerGeometry.IntBox, removedLayers: Bool)
    }

    /// The footprints of `layer`'s tree at `t` (nil: not tracked) and the damage since the last
    /// frame's (limited to `limit` pixels). While the tree has the shape it had
    /// (`footprintsShape`), last frame's footprints are brought up to date in place, and only the
    /// layers whose presentations may have changed are placed again
    /// (`LayerRenderer.updateFootprints`); otherwise they are worked out afresh and compared.
    private func footprintsAndDamage(of layer: CALayer, at t: CFTimeInterval,
                                     limit: Int) -> (LayerRenderer.Footprints?, Damage) {
        let frame = (width: pixmap.width, height: pixmap.height)
        let shape = CALayer.timingChangeCount
        defer { footprintsShape = shape }
        if var table = footprints, shape == footprintsShape {
            footprints = nil   // the table's one reference: updated in place, not copied
            guard let update = renderer.updateFootprints(&table, of: layer, at: t, frame: frame, limit: limit,
                                                         budget: footprintBudget) else { return (nil, .unknown) }
            return (table, update.damage.map { .area($0, removedLayers: update.removedLayers) } ?? .tooLarge)
        }
        let new = renderer.footprints(of: layer, at: t, reusing: footprints, budget: footprintBudget)
        guard let old = footprints, let new else { return (new, .unknown) }
        return (new, LayerRenderer.damage(from: old, to: new, frame: frame, limit: limit).map { .area($0, removedLayers: true) } ?? .tooLarge)
    }

    /// Largest damaged area, as a fraction of the frame, redrawn as a patch; beyond it the whole
    /// frame is redrawn (a patch costs a walk of the whole tree plus a copy of its pixels).
    static let maxPatchFraction = 0.5

    /// Frames drawn whole without footprints after running animations first damaged more than
    /// `maxPatchFraction` of a frame, whatever was committed in between. The footprint pass is
    /// ≈ 10 % of such a frame (S8 as a layer tree), and ≈ 40 % of a 512 × 512 Lottie frame
    /// (trim.json, callgrind: it evaluates every layer's animations, as the drawing does again).
    static let untrackedFrames = 6
    /// Most frames drawn whole without footprints in a row: patches resume at most this many
    /// frames, plus the two that measure damage, after the damage shrinks (0.4 s at 60 frames
    /// a second), and a frame whose animations keep damaging most of it pays for the footprint
    /// pass in 2 frames of 26.
    static let maxUntrackedFrames = 24

    /// Redraws the tree inside `area` only, with the same arithmetic as a full frame: a patch
    /// filled with the background (unless the first drawing covers it, `firstDrawCoversTarget`)
    /// receives the tree drawn with its origin at the area's corner,
    /// and its pixels are copied into the frame. `footprints`: the frame's, to skip the subtrees
    /// that miss the area.
    private func redraw(_ area: LayerGeometry.IntBox, layer: CALayer, at t: CFTimeInterval, background: PremultipliedColor,
                        footprints: LayerRenderer.Footprints? = nil) {
        _lastRedrawnArea = area.isEmpty ? .zero
            : CGRect(x: area.x0, y: area.y0, width: area.x1 - area.x0, height: area.y1 - area.y0)
        guard !area.isEmpty, let patch = patch(width: area.x1 - area.x0, height: area.y1 - area.y0) else { return }
        patch.takeDrawingScratch(from: pixmap)
        defer { pixmap.takeDrawingScratch(from: patch) }
        renderer.leaves.beginFrame()
        let patchRenderer = LayerRenderer(target: patch, scale: scale, origin: (area.x0, area.y0), sharingCachesWith: renderer,
                                          footprints: footprints)
        if !patchRenderer.firstDrawCoversTarget(layer, at: t, footprints: footprints) { patch.fill(with: background) }
        patchRenderer.render(layer, at: t)
        let rowBytes = patch.width * 4
        for row in 0..<patch.height {
            (pixmap.pixels + ((area.y0 + row) * pixmap.width + area.x0) * 4).update(from: patch.pixels + row * rowBytes,
                                                                                  count: rowBytes)
        }
    }

    /// A `width`×`height` pixmap (at most the frame's size) for a damaged patch, over
    /// `patchStorage`: one frame-sized buffer made at the first patch and kept, not an
    /// allocation and clearing per frame (nor one each time a patch is larger than any before).
    /// nil when it cannot be made.
    private func patch(width: Int, height: Int) -> Pixmap? {
        if patchStorage == nil { patchStorage = try? Pixmap(width: pixmap.width, height: pixmap.height) }
        return patchStorage.map { Pixmap(width: width, height: height, reusing: $0) }
    }

    private func treeNeedsDisplay() -> Bool { CALayer.anyLayerNeedsDisplay && anyLayer { $0.needsDisplay() } }

    public func endFrame() {
        frameTime = nil
        updates = []
    }

    /// The frame as an image (a copy of the pixels).
    public func makeImage() -> CGImage {
        let copy = (try? Pixmap(width: pixmap.width, height: pixmap.height)) ?? pixmap
        copy.pixels.update(from: pixmap.pixels, count: pixmap.width * pixmap.height * 4)
        return CGImage(pixmap: copy)
    }

    /// One call: `layer`'s tree as presented at media time `time`, in a `size`-point image at
    /// `scale`, over `background` (nil: transparent).
    public static func image(of layer: CALayer, size: CGSize, at time: CFTimeInterval, scale: CGFloat = 1,
                             background: CGColor? = nil) throws -> CGImage {
        let limit = CGFloat(Pixmap.maxDimension)
        guard size.width.isFinite, size.height.isFinite, abs(size.width) <= limit, abs(size.height) <= limit else {
            throw RasterError.invalidSize(width: 0, height: 0, reason: "size \(size.width)×\(size.height) points is not finite or exceeds \(Pixmap.maxDimension)")
        }
        let r = try CARenderer(width: Int(size.width.rounded()), height: Int(size.height.rounded()), scale: scale)
        r.layer = layer
        r.backgroundColor = background
        r.drawsOnce = true
        r.beginFrame(atTime: time)
        r.render()
        r.endFrame()
        return r.makeImage()
    }
}

extension CALayer {
    /// Draws the layer and its sublayers into `ctx` as Apple documents `render(in:)`: "directly
    /// from the layer tree, ignoring any animations added to the render tree", and "in the
    /// coordinate space of the layer" — layer point (x, y) is user point (x, y) under the
    /// context's current transform (so, as on iOS, a bitmap context with Core Graphics' default
    /// bottom-left origin shows the layer upside down unless its CTM is flipped first). The
    /// layer's own position, anchor point and transform are not applied; its opacity is. The
    /// context's clip, alpha and blend mode are not (Citrine).
    public func render(in ctx: CGContext) {
        let matrix = CATransform3DMakeAffineTransform(ctx._userSpaceToPixels)
        let scale = LayerGeometry.affine(matrix).flatMap(LayerRenderer.pixelsPerPoint) ?? 1
        ctx._withTargetPixels { pixels in
            LayerRenderer(target: pixels, scale: scale, usesModelValues: true).renderInOwnSpace(self, matrix: matrix)
        }
    }
}
