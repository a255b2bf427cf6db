/// The edges of a rectangle (Apple's `UIRectEdge`, raw values Apple's).
public struct UIRectEdge: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let top = UIRectEdge(rawValue: 1 << 0)
    public static let left = UIRectEdge(rawValue: 1 << 1)
    public static let bottom = UIRectEdge(rawValue: 1 << 2)
    public static let right = UIRectEdge(rawValue: 1 << 3)
    public static let all: UIRectEdge = [.top, .left, .bottom, .right]
}

/// A pan that starts at an edge of the window (Apple's `UIScreenEdgePanGestureRecognizer`): like
/// `UIPanGestureRecognizer`, but it fails unless the touch goes down within `edgeMargin` (20
/// points; Apple documents no width) of one of `edges` of the window. Default `edges`: none (as
/// on iOS, set it before use).
open class UIScreenEdgePanGestureRecognizer: UIPanGestureRecognizer {
    /// How close to an edge (points, window coordinates) the touch must go down.
    public static let edgeMargin: CGFloat = 20

    /// The window edges the gesture may start from. Default `[]`.
    open var edges: UIRectEdge = []

    public required init() { super.init() }

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .possible, numberOfTouches == 1, let touch = touches.first {
            let p = touch.windowLocation, size = touch.window?.bounds.size ?? .zero, m = Self.edgeMargin
            let near = (edges.contains(.left) && p.x <= m) || (edges.contains(.right) && p.x >= size.width - m)
                || (edges.contains(.top) && p.y <= m) || (edges.contains(.bottom) && p.y >= size.height - m)
            if !near { state = .failed; return }
        }
        super.touchesBegan(touches, with: event)
    }
}
