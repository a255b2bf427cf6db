/// Inset distances for a rectangle's four edges, in points (Apple's `UIEdgeInsets`). Positive
/// values move an edge inwards (toward the centre), negative values outwards.
public struct UIEdgeInsets: Equatable, Hashable, Sendable {
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat

    /// All four insets 0.
    public init() { top = 0; left = 0; bottom = 0; right = 0 }
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// All four insets 0 (Apple's `UIEdgeInsets.zero`).
    public static let zero = UIEdgeInsets()
}

/// Inset distances for a rectangle's edges named by layout direction, in points (Apple's
/// `NSDirectionalEdgeInsets`, iOS 11): `leading` is the left edge and `trailing` the right
/// edge in a left-to-right layout, the only direction Citrine lays out.
public struct NSDirectionalEdgeInsets: Equatable, Hashable, Sendable {
    public var top: CGFloat
    public var leading: CGFloat
    public var bottom: CGFloat
    public var trailing: CGFloat

    /// All four insets 0.
    public init() { top = 0; leading = 0; bottom = 0; trailing = 0 }
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
    /// All four insets 0.
    public static let zero = NSDirectionalEdgeInsets()
}

extension CGRect {
    /// The rectangle adjusted by `insets` (Apple's `inset(by:)`, `UIEdgeInsetsInsetRect`): the
    /// origin moves by (left, top) and the size shrinks by (left + right, top + bottom), in
    /// UIKit's y-down space where `top` is the edge at `minY`.
    public func inset(by insets: UIEdgeInsets) -> CGRect {
        CGRect(x: origin.x + insets.left, y: origin.y + insets.top,
               width: size.width - insets.left - insets.right, height: size.height - insets.top - insets.bottom)
    }
}
