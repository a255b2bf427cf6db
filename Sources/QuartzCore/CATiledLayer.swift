/// A layer whose drawn content (`draw(in:)` or its delegate's `draw(_:in:)`) is made tile by
/// tile, at levels of detail, so a large drawn layer is never one bitmap (Apple's
/// `CATiledLayer`). Defaults are Apple's: one level of detail, no magnified levels, 256×256-pixel
/// tiles, `fadeDuration()` 0.25 s.
///
/// How the compositor uses it: for a frame it picks a level of detail — the scales
/// 2^bias, 2^(bias − 1), …, 2^(bias − levelsOfDetail + 1) times `contentsScale` (Apple: each
/// level half the resolution of the one before; `levelsOfDetailBias` adds the 2×, 4×, …
/// levels) — the smallest one at or above the layer's device pixels per point, else the
/// largest. It then draws only the tiles that can be seen: each `tileSize` pixels at that
/// level, with a context whose clip is the tile's rectangle in layer coordinates
/// (`ctx.boundingBoxOfClipPath`, Apple's idiom) and whose CTM maps layer points to the tile's
/// pixels. Tiles are kept until `setNeedsDisplay()` or a size change, and only those seen in
/// the layer's last drawn frame stay in memory.
///
/// Differences: tiles are drawn synchronously inside the frame (Apple draws them on
/// background threads and shows them as they arrive), so there is nothing to fade in and
/// `fadeDuration()` is answered but not animated.
open class CATiledLayer: CALayer {
    override class func makeCoreAnimationLayer(copying layer: CALayer?) -> CALayer { layer.map { CATiledLayer(layer: $0) } ?? CATiledLayer() }
    /// Number of levels of detail (at least 1 is used). Default 1.
    open var levelsOfDetail: Int = 1 { didSet { propertyChanged("levelsOfDetail", oldValue) } }
    /// Number of magnified levels (2×, 4×, …). Default 0.
    open var levelsOfDetailBias: Int = 0 { didSet { propertyChanged("levelsOfDetailBias", oldValue) } }
    /// Tile size in pixels of the level drawn. Default 256×256.
    open var tileSize = CGSize(width: 256, height: 256) { didSet { propertyChanged("tileSize", oldValue) } }

    /// Seconds over which Apple fades in a newly drawn tile. Default 0.25.
    open class func fadeDuration() -> CFTimeInterval { 0.25 }

    open override func copyProperties(from other: CALayer) {
        super.copyProperties(from: other)
        guard let o = other as? CATiledLayer else { return }
        levelsOfDetail = o.levelsOfDetail; levelsOfDetailBias = o.levelsOfDetailBias; tileSize = o.tileSize
    }

    open override class var propertyRegistry: [String: LayerProperty] { Self.tiledProperties }

    private static let tiledProperties = LayerProperty.base.merging([
        "levelsOfDetail": .init(\CATiledLayer.levelsOfDetail, .int, animatable: false),
        "levelsOfDetailBias": .init(\CATiledLayer.levelsOfDetailBias, .int, animatable: false),
        "tileSize": .init(\CATiledLayer.tileSize, .size, animatable: false),
    ]) { $1 }

    /// The level scale (pixels per point) drawn for `pixelsPerPoint` device pixels per point
    /// (Citrine extension for renderers; see the class comment).
    package func _levelScale(forPixelsPerPoint pixelsPerPoint: CGFloat) -> CGFloat {
        let base = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
        let bias = min(max(levelsOfDetailBias, 0), 16), levels = min(max(levelsOfDetail, 1), 32)
        var scale = base * CGFloat(1 << bias)   // the finest level
        for _ in 1..<levels where scale / 2 >= pixelsPerPoint { scale /= 2 }
        return scale
    }
}
