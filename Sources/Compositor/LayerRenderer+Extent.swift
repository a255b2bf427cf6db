import QuartzCore
import Raster

/// Conservative bounds of what a layer and its subtree can draw, for culling what cannot reach
/// the target (a replicator's instances, `LayerRenderer+Replicator`).
///
/// A bound is a rectangle in the layer's space (points) and a margin in device pixels around
/// its image: content (`LayerContent.rect`), the shadow's offset shape, and — unless
/// masksToBounds clips them — the sublayers' bounds mapped into the layer's plane, recursively.
/// Effects drawn in device space (a shadow's blur, a filter's blur, `shadowReach` and
/// `blurSpread`) add to the margin; a layer drawn under perspective blurs its shadow in its own
/// plane instead, so the rectangle is grown by the same reach in points (margin / scale) too —
/// the bound holds under either map. A rasterized layer adds its bitmap's texel of margin.
/// Layers that face away are counted (another map may turn them round). It may be loose, never too small; where a subtree's extent
/// is not bounded by its layers (an emitter's particles, a CATransformLayer's 3D space, a
/// running transition's mesh, a replicator whose instances cannot be bounded cheaply, a corner
/// behind the eye) there is none (nil), and nothing is culled.
extension LayerRenderer {
    struct DrawnExtent {
        /// Layer space, points.
        var rect: CGRect
        /// Device pixels around the image of `rect`.
        var margin: CGFloat
    }

    /// Nested replicators of at most this many instances with a step other than a translation
    /// are bounded instance by instance; larger ones have no extent.
    static let maxBoundedNestedInstances = 64

    /// The extent of `model` (presented as `p`) and its subtree at `time`, in `p`'s space:
    /// `.some(nil)` when it draws nothing, nil when unbounded or not finite (see above).
    /// `levelsLeft`: how many levels below `p` may still be looked at (from
    /// `analysisLevels`); a deeper subtree is unbounded.
    func drawnExtent(_ model: CALayer, _ p: CALayer, time: CFTimeInterval, levelsLeft: Int) -> DrawnExtent?? {
        guard levelsLeft > 0, !(p is CAEmitterLayer), !(p is CATransformLayer),
              !evaluatesPresentations || model._transition(atMediaTime: time) == nil,
              let content = LayerContent.rect(p) else { return nil }
        // A clipping layer's sublayers stay within its bounds, which its content rectangle holds.
        var rect: CGRect? = !p.masksToBounds && Self.drawsNothingOfItsOwn(model, p) ? nil : content
        var margin: CGFloat = 0
        if !p.masksToBounds {
            guard var subs = sublayersExtent(model, p, time: time, levelsLeft: levelsLeft) else { return nil }
            if let replicator = p as? CAReplicatorLayer {
                guard let all = instancesExtent(of: subs, replicator, model: model) else { return nil }
                subs = all
            }
            if let subs {
                rect = rect.map { $0.union(subs.rect) } ?? subs.rect
                margin = subs.margin
            }
        }
        var own: CGFloat = 0
        if let effects = p._effects { own += CGFloat(blurSpread(effects.filters)) }
        // Cast from shadowPath, else from the group's alpha (at most everything drawn).
        if p.shadowOpacity > 0, p.shadowColor != nil, let shape = p.shadowPath?.boundingBoxOfPath ?? rect {
            let cast = shape.offsetBy(dx: p.shadowOffset.width, dy: p.shadowOffset.height)
            rect = rect.map { $0.union(cast) } ?? cast
            own += Self.shadowReach(p, pixelsPerPoint: scale)
        }
        guard var rect else { return .some(nil) }
        rect = rect.insetBy(dx: -own / scale, dy: -own / scale)
        if p.shouldRasterize, p.rasterizationScale > 0 {
            // Its bitmap has a texel of margin, which bilinear sampling blends in.
            rect = rect.insetBy(dx: -1 / p.rasterizationScale, dy: -1 / p.rasterizationScale)
        }
        guard LayerGeometry.isFinite(rect) else { return nil }
        return DrawnExtent(rect: rect, margin: margin + own)
    }

    /// Whether a layer draws nothing of its own — a plain container: exactly a CALayer or a
    /// CAReplicatorLayer (a subclass may draw), without contents or a delegate that draws, its
    /// background and border absent or transparent. Its shadow and sublayers are counted apart.
    static func drawsNothingOfItsOwn(_ model: CALayer, _ p: CALayer) -> Bool {
        let kind = type(of: model)
        guard kind == CALayer.self || kind == CAReplicatorLayer.self, p.contents == nil,
              !LayerContent.drawnByDelegate(model) else { return false }
        return (p.backgroundColor?.alpha ?? 0) <= 0 && (p.borderWidth <= 0 || (p.borderColor?.alpha ?? 0) <= 0)
    }

    /// The union of the extents of `model`'s sublayers in `p`'s space (after its
    /// sublayerTransform; a replicator's first instance): `.some(nil)` when none draws, nil when
    /// one is unbounded. `levelsLeft`: as `drawnExtent`'s, for `p`.
    func sublayersExtent(_ model: CALayer, _ p: CALayer, time: CFTimeInterval,
                         levelsLeft: Int = LayerRenderer.analysisLevels) -> DrawnExtent?? {
        var union: DrawnExtent?
        for child in model.sublayers ?? [] {
            // Back faces are kept: an instance's transform may turn the layer to face the viewer.
            guard let (cp, toParent) = placement(child, parentMatrix: CATransform3DIdentity, parentPresentation: p, time: time,
                                                 cullingBackFaces: false) else { continue }
            guard let drawn = drawnExtent(child, cp, time: time, levelsLeft: levelsLeft - 1) else { return nil }
            guard let sub = drawn else { continue }
            guard let mapped = Self.image(of: sub.rect, under: toParent) else { return nil }
            union = DrawnExtent(rect: union.map { $0.rect.union(mapped) } ?? mapped,
                                margin: max(union?.margin ?? 0, sub.margin))
        }
        return .some(union)
    }

    /// The bounding box of `r` mapped by `m`; nil when a corner is behind the eye or not finite.
    static func image(of r: CGRect, under m: CATransform3D) -> CGRect? {
        var x0 = CGFloat.infinity, y0 = CGFloat.infinity, x1 = -CGFloat.infinity, y1 = -CGFloat.infinity
        for i in 0 ..< 4 {
            let c = corner(i, of: r)
            let q = m._project(x: c.x, y: c.y)
            guard q.w > 0, q.x.isFinite, q.y.isFinite else { return nil }
            x0 = min(x0, q.x); y0 = min(y0, q.y); x1 = max(x1, q.x); y1 = max(y1, q.y)
        }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// What every instance of a nested `replicator` draws of its sublayers (`subs`, the first
    /// instance's): `.some(nil)` when nothing; nil when unbounded — a step that is not a
    /// translation with more than `maxBoundedNestedInstances` instances, a corner behind the eye,
    /// or sublayers that change with time under an `instanceDelay` (each instance at its own time).
    private func instancesExtent(of subs: DrawnExtent?, _ replicator: CAReplicatorLayer, model: CALayer) -> DrawnExtent?? {
        let count = replicator.instanceCount
        guard let subs, count > 0 else { return .some(nil) }
        if replicator.instanceDelay != 0 && count > 1 && Self.sublayersChangeSpan(model) != nil { return nil }
        let step = replicator._aboutAnchorPoint(replicator.instanceTransform)
        if let t = Self.translation(step) {
            // A translated box's instances lie between the first and the last.
            let last = subs.rect.offsetBy(dx: CGFloat(count - 1) * t.x, dy: CGFloat(count - 1) * t.y)
            let all = subs.rect.union(last)
            return LayerGeometry.isFinite(all) ? DrawnExtent(rect: all, margin: subs.margin) : nil
        }
        guard count <= Self.maxBoundedNestedInstances else { return nil }
        var rect = subs.rect, instance = CATransform3DIdentity
        for _ in 1 ..< count {
            instance = CATransform3DConcat(instance, step)
            guard let mapped = Self.image(of: subs.rect, under: instance) else { return nil }
            rect = rect.union(mapped)
        }
        return DrawnExtent(rect: rect, margin: subs.margin)
    }

    /// The step's (x, y) when it is a translation in the layer's plane (its linear part the
    /// identity, no z or perspective); else nil.
    static func translation(_ m: CATransform3D) -> (x: CGFloat, y: CGFloat)? {
        guard m.m11 == 1, m.m12 == 0, m.m13 == 0, m.m14 == 0, m.m21 == 0, m.m22 == 1, m.m23 == 0, m.m24 == 0,
              m.m31 == 0, m.m32 == 0, m.m33 == 1, m.m34 == 0, m.m43 == 0, m.m44 == 1,
              m.m41.isFinite, m.m42.isFinite else { return nil }
        return (m.m41, m.m42)
    }

    /// The media times over which what `model`'s sublayers' subtrees draw — their extent, and
    /// so whether an instance of a replicator `model` reaches the target — can change: the
    /// union of their layers' `_changeSpan`s (not `model`'s own, nor any mask's: a mask only
    /// clips, and an extent does not count it). nil when nothing below changes with time;
    /// unbounded (−∞, ∞) when a layer below changes by itself (an emitter), or one changes under
    /// a nested replicator that shifts its instances' times (an instanceDelay, or animations of
    /// its own, which may set one). An iterative walk.
    static func sublayersChangeSpan(_ model: CALayer) -> (from: CFTimeInterval, to: CFTimeInterval)? {
        var span: (from: CFTimeInterval, to: CFTimeInterval)?
        var pending = (model.sublayers ?? []).map { ($0, shifted: false) }
        while let (l, shifted) = pending.popLast() {
            if let own = l._changeSpan {
                if shifted { return (-.infinity, .infinity) }
                span = (min(own.from, span?.from ?? .infinity), max(own.to, span?.to ?? -.infinity))
            }
            let shifts = shifted || (l as? CAReplicatorLayer).map { $0.instanceCount > 1 && ($0.instanceDelay != 0 || $0._hasAnimations) } ?? false
            pending += (l.sublayers ?? []).map { ($0, shifts) }
        }
        return span
    }
}
