import Foundation

/// Derived geometry (frame, transforms to the superlayer and the root), and point and rectangle
/// conversion between layers.
extension CALayer {
    // MARK: - Derived geometry

    /// `frame`'s value and its setter's effect (`frame` itself is declared in the class, where
    /// a subclass can override it).
    var frameInSuperlayer: CGRect {
        get {
            let corners = [CGPoint(x: bounds.minX, y: bounds.minY), CGPoint(x: bounds.maxX, y: bounds.minY),
                           CGPoint(x: bounds.minX, y: bounds.maxY), CGPoint(x: bounds.maxX, y: bounds.maxY)]
            let m = geometryTransform
            return boundingBox(corners.map { p -> CGPoint in
                let q = m._project(x: p.x, y: p.y)
                return CGPoint(x: q.x, y: q.y)
            })
        }
        set {
            guard newValue.origin.x.isFinite, newValue.origin.y.isFinite,
                  newValue.width.isFinite, newValue.height.isFinite else { return }
            if let size = boundsSize(forFrameSize: newValue.size) { bounds.size = size }
            let current = frameInSuperlayer
            position = CGPoint(x: position.x + newValue.minX - current.minX,
                               y: position.y + newValue.minY - current.minY)
        }
    }

    /// The transform as an affine transform (Apple's `affineTransform()`; drops the 3D terms).
    public func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(transform) }

    /// Sets `transform` from an affine transform (Apple's `setAffineTransform(_:)`).
    public func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    /// The bounds size whose transformed bounding box has `size` (Apple: setting `frame` with a
    /// transform that is not a scale or a multiple-of-90° rotation is undefined; here the size is
    /// kept and only the origin moves). With the linear part (a b; c d) of `transform`, a w × h
    /// rectangle's box is (w|a| + h|c|) × (w|b| + h|d|); solve that 2×2 system.
    func boundsSize(forFrameSize size: CGSize) -> CGSize? {
        let a = abs(transform.m11), b = abs(transform.m12), c = abs(transform.m21), d = abs(transform.m22)
        let det = a * d - c * b
        guard abs(det) > 1e-12 else { return nil }
        let w = (size.width * d - c * size.height) / det
        let h = (a * size.height - b * size.width) / det
        guard w >= -1e-9, h >= -1e-9 else { return nil }
        return CGSize(width: max(w, 0), height: max(h, 0))
    }

    /// The frame's mapping (no superlayer sublayerTransform): translate(−anchor) · transform ·
    /// translate(position.x, position.y, zPosition), with the anchor at (bounds.origin +
    /// anchorPoint · bounds.size, anchorPointZ). So `transform` acts about the anchor in all three
    /// axes and the anchor lands on (position, zPosition), as anchorPoint does in x and y (Apple:
    /// anchorPointZ is "the anchor point for the layer's position along the z axis"): with an
    /// identity transform the layer's plane sits at z = zPosition − anchorPointZ.
    var geometryTransform: CATransform3D {
        let ax = bounds.minX + anchorPoint.x * bounds.width, ay = bounds.minY + anchorPoint.y * bounds.height
        var m = CATransform3DMakeTranslation(-ax, -ay, -anchorPointZ)
        m = CATransform3DConcat(m, transform)
        return CATransform3DConcat(m, CATransform3DMakeTranslation(position.x, position.y, zPosition))
    }

    /// Maps this layer's coordinates to its superlayer's as drawn: the frame's mapping followed by
    /// the superlayer's `sublayerTransform` about the superlayer's anchor point.
    public var transformToSuperlayer: CATransform3D { _transform(toParent: superlayer) }

    /// Citrine extension for renderers (which work on presentation copies, whose `superlayer` is
    /// nil): this layer's coordinates → `parent`'s, as `transformToSuperlayer` computes them.
    /// A parent with `isGeometryFlipped` (CALayer.h: "Whether the geometry of the layer and its
    /// sublayers is flipped vertically") interprets its sublayers' geometry with y growing the
    /// other way: their mapping is followed by the mirror y → minY + maxY − y of the parent's
    /// bounds, before its `sublayerTransform`. The parent's own content is not flipped (Apple:
    /// the property "does not affect the rendering of the layer's content").
    package func _transform(toParent parent: CALayer?) -> CATransform3D {
        // Read through optional chaining, not from a bound copy of the parent: the copy made Swift
        // retain and release the parent around the `sublayerTransform` call, and the renderer asks
        // this of every layer of every frame — with the frame drawn in bands on two threads, both
        // wrote the shared root's reference count about 2 000 times a frame in S8 (band-bench).
        let flipped = parent?._renderingOptions.contains(.geometryFlipped) ?? false
        let sublayerTransform = parent?.sublayerTransform ?? CATransform3DIdentity
        guard flipped || !CATransform3DIsIdentity(sublayerTransform), let parent else { return geometryTransform }
        var m = geometryTransform
        if flipped {
            let b = parent.bounds
            m = CATransform3DConcat(m, CATransform3DMakeAffineTransform(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0,
                                                                                          ty: b.minY + b.maxY)))
        }
        guard !CATransform3DIsIdentity(sublayerTransform) else { return m }
        return CATransform3DConcat(m, parent._aboutAnchorPoint(sublayerTransform))
    }

    /// Citrine extension: `t` acting about this layer's anchor point (anchorPoint · bounds.size,
    /// anchorPointZ) — the pivot `transform` uses — as `sublayerTransform` and a replicator's
    /// `instanceTransform` do.
    package func _aboutAnchorPoint(_ t: CATransform3D) -> CATransform3D {
        let ax = bounds.minX + anchorPoint.x * bounds.width, ay = bounds.minY + anchorPoint.y * bounds.height
        return CATransform3DConcat(CATransform3DConcat(CATransform3DMakeTranslation(-ax, -ay, -anchorPointZ), t),
                                   CATransform3DMakeTranslation(ax, ay, anchorPointZ))
    }

    /// This layer's coordinates → the root's (or nil's: the root layer's superlayer space).
    var transformToRoot: CATransform3D {
        var m = transformToSuperlayer
        var l = superlayer
        while let s = l {
            m = CATransform3DConcat(m, s.transformToSuperlayer)
            l = s.superlayer
        }
        return m
    }

    /// Converts a point from `layer`'s coordinates (nil: the root's superlayer space) to this one's.
    /// Between a layer and its superlayer the one map between them is used, O(1) at any depth
    /// (a view tree's hit test converts at every level); otherwise through the root, O(depth).
    public func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint {
        if let layer, layer === superlayer { return pointFromSuperlayer(p) }
        if let layer, layer.superlayer === self {
            let q = layer.transformToSuperlayer._project(x: p.x, y: p.y)
            return CGPoint(x: q.x, y: q.y)
        }
        let toRoot = layer?.transformToRoot ?? CATransform3DIdentity
        let q = toRoot._project(x: p.x, y: p.y)
        return rootPointToLocal(CGPoint(x: q.x, y: q.y))
    }

    public func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint {
        if let layer { return layer.convert(p, from: self) }
        let q = transformToRoot._project(x: p.x, y: p.y)
        return CGPoint(x: q.x, y: q.y)
    }

    public func convert(_ r: CGRect, from layer: CALayer?) -> CGRect {
        boundingBox([CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                     CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { convert($0, from: layer) })
    }

    public func convert(_ r: CGRect, to layer: CALayer?) -> CGRect {
        boundingBox([CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                     CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { convert($0, to: layer) })
    }

    func boundingBox(_ pts: [CGPoint]) -> CGRect {
        let xs = pts.map(\.x), ys = pts.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// A point of the superlayer's space (the root's superlayer space for a root) in this layer:
    /// `convert(p, from: superlayer)` through this layer's own mapping alone, O(1) per level.
    func pointFromSuperlayer(_ p: CGPoint) -> CGPoint { pointToLocal(p, through: transformToSuperlayer) }

    /// Inverse-maps a point of root space into this layer, intersecting the line of sight with the
    /// layer's z = 0 plane (so 3D-rotated layers convert correctly).
    func rootPointToLocal(_ p: CGPoint) -> CGPoint { pointToLocal(p, through: transformToRoot) }

    /// Inverse-maps `p` through layer → space `m`, on the layer's z = 0 plane.
    private func pointToLocal(_ p: CGPoint, through m: CATransform3D) -> CGPoint {
        // Solve for (x, y) with z = 0: [x y 0 1]·M projects to p.
        let a11 = m.m11 - p.x * m.m14, a12 = m.m21 - p.x * m.m24, b1 = p.x * m.m44 - m.m41
        let a21 = m.m12 - p.y * m.m14, a22 = m.m22 - p.y * m.m24, b2 = p.y * m.m44 - m.m42
        let det = a11 * a22 - a12 * a21
        guard det != 0 else { return CGPoint(x: CGFloat.nan, y: CGFloat.nan) }
        return CGPoint(x: (b1 * a22 - a12 * b2) / det, y: (a11 * b2 - b1 * a21) / det)
    }
}
