// UIKit Dynamics as iOS tutorials write it: a view controller that drops a square under
// gravity onto a barrier boundary and the screen's edges, with elasticity, a collision
// delegate that flashes the square and, at the first contact, attaches a second square to it,
// and a composite behavior (a UIDynamicBehavior subclass with child behaviors).
import UIKit

final class DynamicsDropController: UIViewController, UICollisionBehaviorDelegate {
    var animator: UIDynamicAnimator!
    var gravity: UIGravityBehavior!
    var collision: UICollisionBehavior!
    var square: UIView!
    var firstContact = false
    var boundaryContacts: [String] = []
    var actionCalls = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        square = UIView(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        square.backgroundColor = UIColor.gray
        view.addSubview(square)

        let barrier = UIView(frame: CGRect(x: 0, y: 300, width: 130, height: 20))
        barrier.backgroundColor = UIColor.red
        view.addSubview(barrier)

        animator = UIDynamicAnimator(referenceView: view)
        gravity = UIGravityBehavior(items: [square])
        animator.addBehavior(gravity)

        collision = UICollisionBehavior(items: [square])
        collision.collisionDelegate = self
        collision.addBoundary(withIdentifier: "barrier" as NSCopying, for: UIBezierPath(rect: barrier.frame))
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)

        let itemBehaviour = UIDynamicItemBehavior(items: [square])
        itemBehaviour.elasticity = 0.6
        animator.addBehavior(itemBehaviour)

        collision.action = { [unowned self] in
            self.actionCalls += 1
        }
    }

    func collisionBehavior(_ behavior: UICollisionBehavior, beganContactFor item: UIDynamicItem,
                           withBoundaryIdentifier identifier: NSCopying?, at p: CGPoint) {
        boundaryContacts.append(identifier.map { "\($0)" } ?? "edge")
        let collidingView = item as! UIView
        collidingView.backgroundColor = UIColor.yellow
        UIView.animate(withDuration: 0.3) {
            collidingView.backgroundColor = UIColor.gray
        }
        if !firstContact {
            firstContact = true
            let square = UIView(frame: CGRect(x: 30, y: 0, width: 100, height: 100))
            square.backgroundColor = UIColor.gray
            view.addSubview(square)
            collision.addItem(square)
            gravity.addItem(square)
            let attach = UIAttachmentBehavior(item: collidingView, attachedTo: square)
            animator.addBehavior(attach)
        }
    }
}

/// A composite behavior: gravity and the reference bounds for its items, as one behavior.
final class FallAndLandBehavior: UIDynamicBehavior {
    private(set) var moves: [Bool] = []

    init(items: [UIDynamicItem]) {
        super.init()
        addChildBehavior(UIGravityBehavior(items: items))
        let collision = UICollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        addChildBehavior(collision)
    }

    override func willMove(to dynamicAnimator: UIDynamicAnimator?) {
        super.willMove(to: dynamicAnimator)
        moves.append(dynamicAnimator != nil)
    }
}
