import Compositor
import Foundation
import QuartzCore

/// Cycles a caller can try to make: each is refused at the mutation (the property or tree keeps
/// its value), and the tree still renders. Apple refuses sublayer cycles with an exception and
/// says a mask "must not have a superlayer" (behaviour undefined); RELIABILITY.md has the rules.
extension BadInputCase {
    static let cycleCases: [BadInputCase] = [
        // An emitter cell among its own sub-cells, directly or through another cell: refused at
        // the assignment (every cycle passes through the cell assigned last).
        BadInputCase("emitter-cell-cycles-refused", area: "cycles", expected: "refused 2 cycles, drew") {
            let (a, b) = (CAEmitterCell(), CAEmitterCell())
            for cell in [a, b] { (cell.birthRate, cell.lifetime) = (10, 1) }
            a.emitterCells = [a]   // refused
            let first = a.emitterCells == nil
            b.emitterCells = [a]   // b → a: accepted
            a.emitterCells = [b]   // a → b → a: refused
            let refused = (first ? 1 : 0) + (a.emitterCells == nil ? 1 : 0)
            let emitter = CAEmitterLayer()
            emitter.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
            emitter.emitterCells = [a, b]
            CATransaction.flush()
            _ = try CARenderer.image(of: emitter, size: CGSize(width: 50, height: 50), at: 1)
            return refused == 2 && b.emitterCells?.first === a ? "refused \(refused) cycles, drew" : "refused \(refused)"
        },
        BadInputCase("sublayer-is-itself", area: "cycles", expected: "refused, drew") {
            let l = square()
            l.addSublayer(l)
            return "\(l.sublayers == nil ? "refused" : "accepted"), \(try drawn(l))"
        },
        BadInputCase("sublayer-is-ancestor", area: "cycles", expected: "refused, drew") {
            let a = square(), b = square(), c = square()
            a.addSublayer(b); b.addSublayer(c)
            c.addSublayer(a)
            return "\(c.sublayers == nil && a.superlayer == nil ? "refused" : "accepted"), \(try drawn(a))"
        },
        BadInputCase("mask-is-itself", area: "cycles", expected: "refused, drew") {
            let l = square()
            l.mask = l
            return "\(l.mask == nil ? "refused" : "accepted"), \(try drawn(l))"
        },
        BadInputCase("mask-is-superlayer", area: "cycles", expected: "refused, drew") {
            let parent = square(), child = square()
            parent.addSublayer(child)
            child.mask = parent
            return "\(child.mask == nil ? "refused" : "accepted"), \(try drawn(parent))"
        },
        BadInputCase("masks-each-other", area: "cycles", expected: "refused, drew") {
            let a = square(), b = square()
            a.mask = b
            b.mask = a
            return "\(b.mask == nil && a.mask === b ? "refused" : "accepted"), \(try drawn(a))"
        },
        BadInputCase("mask-with-a-superlayer", area: "cycles", expected: "refused, drew") {
            let parent = square(), child = square(), other = square()
            parent.addSublayer(child)
            other.mask = child
            return "\(other.mask == nil ? "refused" : "accepted"), \(try drawn(parent))"
        },
        BadInputCase("mask-added-as-sublayer", area: "cycles", expected: "refused, drew") {
            let owner = square(), m = square(), other = square()
            owner.mask = m
            other.addSublayer(m)
            return "\(m.superlayer == nil && owner.mask === m ? "refused" : "accepted"), \(try drawn(owner))"
        },
        BadInputCase("mask-subtree-holds-its-owner", area: "cycles", expected: "refused, drew") {
            let owner = square(), m = square()
            owner.mask = m
            m.addSublayer(owner)
            return "\(m.sublayers == nil ? "refused" : "accepted"), \(try drawn(owner))"
        },
        BadInputCase("mask-of-a-mask-is-the-first-owner", area: "cycles", expected: "refused, drew") {
            let a = square(), b = square(), c = square()
            a.mask = b; b.mask = c
            c.mask = a
            return "\(c.mask == nil ? "refused" : "accepted"), \(try drawn(a))"
        },
        BadInputCase("group-contains-itself", area: "cycles", expected: "refused, presented") {
            let g = CAAnimationGroup()
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0; fade.toValue = 1
            g.animations = [fade]
            g.animations = [fade, g]
            let refused = g.animations?.count == 1
            return "\(refused ? "refused" : "accepted"), \(try presented(g))"
        },
        BadInputCase("groups-contain-each-other", area: "cycles", expected: "refused, presented") {
            let g1 = CAAnimationGroup(), g2 = CAAnimationGroup(), g3 = CAAnimationGroup()
            g1.animations = [g2]
            g2.animations = [g3]
            g3.animations = [g1]
            return "\(g3.animations == nil ? "refused" : "accepted"), \(try presented(g1))"
        },
    ]

    /// Adds `animation` to a square, commits and presents it at t = 0.5, then renders it.
    static func presented(_ animation: CAAnimation) throws -> String {
        CAMediaClock.setManualTime(0)
        let l = square()
        animation.duration = 1
        l.add(animation, forKey: "a")
        CATransaction.flush()
        CAMediaClock.setManualTime(0.5)
        guard l.presentation() != nil else { return "not presented" }
        _ = try CARenderer.image(of: l, size: CGSize(width: 32, height: 32), at: 0.5)
        return "presented"
    }
}
