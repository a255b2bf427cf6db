/// Directions a scroll layer may scroll in (Apple's `CAScrollLayerScrollMode`, Apple's strings).
public struct CAScrollLayerScrollMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = CAScrollLayerScrollMode(rawValue: "none")
    public static let vertically = CAScrollLayerScrollMode(rawValue: "vertically")
    public static let horizontally = CAScrollLayerScrollMode(rawValue: "horizontally")
    public static let both = CAScrollLayerScrollMode(rawValue: "both")
}

/// A layer that shows a scrolled portion of its sublayers (Apple's `CAScrollLayer`): scrolling
/// moves `bounds.origin`, which shifts every sublayer; it draws no scroll bars.
open class CAScrollLayer: CALayer {
    override class func makeCoreAnimationLayer(copying layer: CALayer?) -> CALayer { layer.map { CAScrollLayer(layer: $0) } ?? CAScrollLayer() }
    /// Allowed directions. Default `.both` (Apple).
    open var scrollMode: CAScrollLayerScrollMode = .both { didSet { propertyChanged("scrollMode", oldValue) } }

    open override func copyProperties(from other: CALayer) {
        super.copyProperties(from: other)
        if let o = other as? CAScrollLayer { scrollMode = o.scrollMode }
    }

    open override class var propertyRegistry: [String: LayerProperty] { Self.scrollProperties }

    private static let scrollProperties = LayerProperty.base.merging([
        "scrollMode": .init(\CAScrollLayer.scrollMode, .rawString, animatable: false),
    ]) { $1 }

    private var scrollsHorizontally: Bool { scrollMode == .both || scrollMode == .horizontally }
    private var scrollsVertically: Bool { scrollMode == .both || scrollMode == .vertically }

    /// Moves the bounds origin to `p` (only along the axes `scrollMode` allows).
    public func scroll(to p: CGPoint) {
        guard p.x.isFinite, p.y.isFinite else { return }
        var origin = bounds.origin
        if scrollsHorizontally { origin.x = p.x }
        if scrollsVertically { origin.y = p.y }
        bounds.origin = origin
    }

    /// Scrolls by the least amount that makes `r` (this layer's coordinates) visible; when `r` is
    /// larger than the bounds its minimum edge is shown.
    public func scroll(to r: CGRect) {
        guard !r.isNull, r.origin.x.isFinite, r.origin.y.isFinite else { return }
        scroll(to: CGPoint(x: Self.visibleOrigin(bounds.minX, bounds.width, r.minX, r.maxX),
                           y: Self.visibleOrigin(bounds.minY, bounds.height, r.minY, r.maxY)))
    }

    private static func visibleOrigin(_ origin: CGFloat, _ length: CGFloat, _ lo: CGFloat, _ hi: CGFloat) -> CGFloat {
        if lo < origin || hi - lo > length { return lo }
        if hi > origin + length { return hi - length }
        return origin
    }
}

extension CALayer {
    /// The nearest ancestor scroll layer (not self).
    private var enclosingScrollLayer: CAScrollLayer? {
        var l = superlayer
        while let s = l {
            if let scroll = s as? CAScrollLayer { return scroll }
            l = s.superlayer
        }
        return nil
    }

    /// Scrolls the nearest ancestor `CAScrollLayer` so that `p` (this layer's coordinates) lies at
    /// its origin (Apple's `scroll(_:)`). Nothing happens without such an ancestor.
    public func scroll(_ p: CGPoint) {
        guard let s = enclosingScrollLayer else { return }
        s.scroll(to: s.convert(p, from: self))
    }

    /// Scrolls the nearest ancestor `CAScrollLayer` so that `r` (this layer's coordinates) is
    /// visible (Apple's `scrollRectToVisible(_:)`).
    public func scrollRectToVisible(_ r: CGRect) {
        guard let s = enclosingScrollLayer else { return }
        s.scroll(to: s.convert(r, from: self))
    }

    /// The part of the bounds visible through the nearest ancestor scroll layer, in this layer's
    /// coordinates (Apple's `visibleRect`); the bounds when there is none.
    public var visibleRect: CGRect {
        guard let s = enclosingScrollLayer else { return bounds }
        return bounds.intersection(convert(s.bounds, from: s))
    }
}
