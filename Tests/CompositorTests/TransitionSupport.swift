@testable import Compositor
import QuartzCore
import Raster

/// A small scene for transition tests: a 120×80 layer at (40, 20) in a 200×120 frame changes
/// from "before" (red, a blue square sublayer at its top left) to "after" (green, a yellow square
/// sublayer at its bottom right) in the transaction that adds the transition — after adding it,
/// or (`changesFirst`) before: Core Animation starts from the tree as last committed either way.
final class TransitionScene {
    static let size = CGSize(width: 200, height: 120)
    static let layerFrame = CGRect(x: 40, y: 20, width: 120, height: 80)
    let root = CALayer()
    let layer = CALayer()
    let before = CALayer()
    let after = CALayer()
    /// The frame before the change and the frame after it (no transition), for comparisons.
    private(set) var beforeImage: Pixmap!
    private(set) var afterImage: Pixmap!
    let transition = CATransition()

    init(_ type: CATransitionType, _ subtype: CATransitionSubtype? = nil, masksToBounds: Bool = false,
         start: Float = 0, end: Float = 1, scale: CGFloat = 1, changesFirst: Bool = false) throws {
        CAMediaClock.setManualTime(0)
        root.frame = CGRect(origin: .zero, size: Self.size)
        layer.frame = Self.layerFrame
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.masksToBounds = masksToBounds
        before.frame = CGRect(x: 10, y: 10, width: 40, height: 30)
        before.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        after.frame = CGRect(x: 70, y: 40, width: 40, height: 30)
        after.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        layer.addSublayer(before)
        root.addSublayer(layer)
        beforeImage = try render(at: 0, scale: scale)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        transition.type = type
        transition.subtype = subtype
        transition.duration = 1
        transition.startProgress = start
        transition.endProgress = end
        transition.fillMode = .forwards
        transition.isRemovedOnCompletion = false
        if !changesFirst { layer.add(transition, forKey: nil) }
        layer.backgroundColor = CGColor(red: 0, green: 0.6, blue: 0, alpha: 1)
        before.removeFromSuperlayer()
        layer.addSublayer(after)
        if changesFirst { layer.add(transition, forKey: nil) }
        CATransaction.commit()
    }

    func render(at t: CFTimeInterval, scale: CGFloat = 1) throws -> Pixmap {
        CAMediaClock.setManualTime(t)
        return try CARenderer.image(of: root, size: Self.size, at: t, scale: scale).pixmap
    }

    /// The frame with the transition removed (the "after" rendering). Ends the transition: call
    /// it last.
    func renderAfter(scale: CGFloat = 1) throws -> Pixmap {
        layer.removeAnimation(forKey: kCATransition)
        return try render(at: 0.5, scale: scale)
    }

    /// The stored (running) transition.
    var running: CATransition? { layer.animation(forKey: kCATransition) as? CATransition }
}

/// Largest channel difference between `a` and `b` over the pixels of `region` (all when nil).
func maxDifference(_ a: Pixmap, _ b: Pixmap, in region: CGRect? = nil) -> Int {
    precondition(a.width == b.width && a.height == b.height)
    let r = region ?? CGRect(x: 0, y: 0, width: a.width, height: a.height)
    var worst = 0
    for y in Int(r.minY)..<Int(r.maxY) {
        for x in Int(r.minX)..<Int(r.maxX) {
            let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
            worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
        }
    }
    return worst
}

extension PremultipliedColor {
    /// Within `tolerance` per channel of (r, g, b, a).
    func near(_ r: Int, _ g: Int, _ b: Int, _ a: Int = 255, tolerance: Int = 2) -> Bool {
        abs(Int(self.r) - r) <= tolerance && abs(Int(self.g) - g) <= tolerance && abs(Int(self.b) - b) <= tolerance
            && abs(Int(self.a) - a) <= tolerance
    }
}

extension CATransitionType {
    /// The private type names, for the tests (iOS has no constants for them).
    static let cube = CATransitionType(rawValue: "cube")
    static let pageCurl = CATransitionType(rawValue: "pageCurl")
}
