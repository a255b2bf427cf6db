import QuartzCore

/// Told when a dynamic animator starts and stops moving its items (Apple's
/// `UIDynamicAnimatorDelegate`). Deviation (no Objective-C optional requirements): both methods
/// have empty defaults.
public protocol UIDynamicAnimatorDelegate: AnyObject {
    /// The animator is about to run again (a behavior was added or changed, or an item moved).
    func dynamicAnimatorWillResume(_ animator: UIDynamicAnimator)
    /// Every item came to rest (or the last behavior was removed): the animator stopped.
    func dynamicAnimatorDidPause(_ animator: UIDynamicAnimator)
}

extension UIDynamicAnimatorDelegate {
    public func dynamicAnimatorWillResume(_ animator: UIDynamicAnimator) {}
    public func dynamicAnimatorDidPause(_ animator: UIDynamicAnimator) {}
}

/// Runs physics on dynamic items — views — for the behaviors added to it (Apple's
/// `UIDynamicAnimator`).
///
/// **Time.** The animator is driven by a `CADisplayLink` on the run loop of the thread that made
/// it (the main thread in an app; Apple's animator is main-thread only), so it follows
/// the media clock like every other animation: a window, an export and a test that advance
/// time see the same motion (`UIApplication.advance(to:)` pumps the link). The solver takes
/// fixed steps of 1/`stepsPerSecond` seconds (1/120 s, two per display frame) counted from
/// the time the animator last started running; at each display frame it takes the steps due
/// by that frame's time, so what a frame shows depends only on its time, never on the frame
/// rate of whoever draws it. After a gap longer than a second (a stalled host) the steps of
/// the older time are dropped.
///
/// **Rest.** When no item has moved faster than 2 points/s or turned faster than 0.05 rad/s
/// for half a second (Box2D's rule for putting bodies to sleep, its time and tolerances scaled
/// to points), the animator stops: `isRunning` turns false and the delegate gets
/// `dynamicAnimatorDidPause(_:)`. Adding, removing or changing a behavior, adding a velocity or
/// `updateItem(usingCurrentState:)` starts it again (`dynamicAnimatorWillResume(_:)`).
///
/// **Writes.** After every step each moving item's `center` is set, and its `transform` to a
/// rotation when its angle changed; then the behaviors' `action` blocks run.
open class UIDynamicAnimator {
    /// Solver steps per second of media time (Citrine's fixed step; see the class note).
    public static let stepsPerSecond: Double = 120
    /// Seconds an animator's items must stay still before it pauses.
    public static let restDuration: Double = 0.5
    /// Speeds below which an item counts as still: points/s and radians/s.
    public static let restLinearSpeed: Double = 2
    public static let restAngularSpeed: Double = 0.05

    /// The view whose coordinates the items' centres and the boundaries are in.
    open private(set) weak var referenceView: UIView?
    /// The behaviors added, in order (not their children).
    open private(set) var behaviors: [UIDynamicBehavior] = []
    open weak var delegate: (any UIDynamicAnimatorDelegate)?
    /// Whether the animator is moving its items (false before the first behavior and after
    /// the items came to rest).
    open private(set) var isRunning = false
    private var elapsed: TimeInterval = 0

    let world = PhysicsWorld()
    /// The items, in the order they first appear in the behaviors, with their bodies (the
    /// first `itemStates.count` bodies of the world) and the angle last written to them.
    private var itemStates: [(item: any UIDynamicItem, writtenAngle: Double)] = []
    private var bodyIndex: [ObjectIdentifier: Int] = [:]
    /// The boundary bodies after the items': their behavior and identifier.
    private var boundaryOwners: [(behavior: UICollisionBehavior, identifier: (any NSCopying)?)] = []
    /// Every behavior and child, depth first.
    private var flattened: [UIDynamicBehavior] = []
    private var collisionMembers: [(behavior: UICollisionBehavior, items: Set<ObjectIdentifier>)] = []
    private var structureIsValid = false
    /// Items to read again at the next rebuild (`updateItem(usingCurrentState:)`).
    private var itemsToRead: Set<ObjectIdentifier> = []
    private lazy var step = DynamicsStep(animator: self)

    private var link: CADisplayLink?
    /// Media time the animator last started running, and the steps taken since.
    private var runStart: CFTimeInterval = 0
    private var stepsTaken = 0
    private var stillFor = 0.0
    /// Contacts of the last step, in order, for the collision delegates.
    private var contacts: [Contact] = []
    private var contactKeys: Set<Int> = []
    private var previousContacts: [Contact] = []
    private var previousContactKeys: Set<Int> = []

    /// An animator for views in `view`'s coordinate space.
    public init(referenceView view: UIView) {
        referenceView = view
        let link = CADisplayLink { [weak self] link in self?.frame(link) }
        link.isPaused = true
        link.add(to: .current, forMode: .common)
        self.link = link
    }

    deinit { link?.invalidate() }

    /// Seconds the animator has run in all (its paused time not counted).
    open func elapsedTime() -> TimeInterval { elapsed }

    open func addBehavior(_ behavior: UIDynamicBehavior) {
        guard !behaviors.contains(where: { $0 === behavior }) else { return }
        behavior.notifyMove(to: self)
        behaviors.append(behavior)
        behavior.animator = self
        invalidateStructure()
    }

    open func removeBehavior(_ behavior: UIDynamicBehavior) {
        guard let index = behaviors.firstIndex(where: { $0 === behavior }) else { return }
        behavior.notifyMove(to: nil)
        behaviors.remove(at: index)
        behavior.animator = nil
        invalidateStructure()
    }

    open func removeAllBehaviors() {
        for behavior in behaviors { behavior.notifyMove(to: nil); behavior.animator = nil }
        behaviors.removeAll()
        invalidateStructure()
    }

    /// The items whose (turned) frames intersect `rect`, reference view coordinates.
    open func items(in rect: CGRect) -> [any UIDynamicItem] {
        rebuildIfNeeded()
        return itemStates.indices.filter { world.bodies[$0].worldBounds.intersects(rect) }.map { itemStates[$0].item }
    }

    /// Reads `item`'s centre, transform and bounds again (after you changed them yourself); its
    /// velocity is kept.
    open func updateItem(usingCurrentState item: any UIDynamicItem) {
        guard bodyIndex[ObjectIdentifier(item)] != nil else { return }
        itemsToRead.insert(ObjectIdentifier(item))
        invalidateStructure()
    }

    // MARK: Running

    func invalidateStructure() {
        structureIsValid = false
        if behaviors.isEmpty { pause() } else { resume() }
    }

    /// Runs again if resting.
    func resume() {
        stillFor = 0
        guard !isRunning, !behaviors.isEmpty else { return }
        isRunning = true
        runStart = CACurrentMediaTime()
        stepsTaken = 0
        link?.isPaused = false
        delegate?.dynamicAnimatorWillResume(self)
    }

    private func pause() {
        guard isRunning else { return }
        isRunning = false
        link?.isPaused = true
        for body in world.bodies { body.velocity = .zero; body.angularVelocity = 0 }
        delegate?.dynamicAnimatorDidPause(self)
    }

    /// One display frame: the steps due by its time.
    private func frame(_ link: CADisplayLink) {
        let h = 1 / Self.stepsPerSecond
        let target = link.timestamp
        if target - (runStart + Double(stepsTaken) * h) > 1 {
            runStart = target - 1
            stepsTaken = 0
        }
        while isRunning, runStart + Double(stepsTaken + 1) * h <= target + 1e-9 {
            stepsTaken += 1
            advance(h)
            if stillFor >= Self.restDuration { pause() }
        }
    }

    /// One solver step of `h` seconds, the items written, the delegates and actions called.
    private func advance(_ h: Double) {
        rebuildIfNeeded()
        for index in itemStates.indices {
            let body = world.bodies[index]
            body.elasticity = 0; body.friction = 0; body.linearDamping = 0; body.angularDamping = 0; body.charge = 0
            body.setMass(density: 1, rotates: true)
        }
        for case let behavior as UIDynamicItemBehavior in flattened { behavior.configure(step) }
        world.joints.removeAll(keepingCapacity: true)
        for behavior in flattened { behavior.contribute(to: step) }
        world.step(h)
        elapsed += h
        for index in itemStates.indices where !world.bodies[index].isStatic {
            let body = world.bodies[index]
            let item = itemStates[index].item
            item.center = CGPoint(x: body.position.x, y: body.position.y)
            if body.angle != itemStates[index].writtenAngle {
                item.transform = CGAffineTransform(rotationAngle: body.angle)
                itemStates[index].writtenAngle = body.angle
            }
        }
        let motion = world.fastestMotion
        stillFor = motion.linear < Self.restLinearSpeed && motion.angular < Self.restAngularSpeed ? stillFor + h : 0
        reportContacts()
        for behavior in flattened { behavior.action?() }
    }

    // MARK: Bodies

    /// The body of `item`, if a behavior of this animator holds it.
    func body(for item: any UIDynamicItem) -> PhysicsBody? {
        rebuildIfNeeded()
        return bodyIndex[ObjectIdentifier(item)].map { world.bodies[$0] }
    }

    func index(of item: any UIDynamicItem) -> Int? { bodyIndex[ObjectIdentifier(item)] }

    /// Bodies for the items and boundaries of the behaviors now, keeping the state of items
    /// that were there before.
    private func rebuildIfNeeded() {
        guard !structureIsValid else { return }
        structureIsValid = true
        flattened.removeAll()
        func visit(_ b: UIDynamicBehavior) { flattened.append(b); b.childBehaviors.forEach(visit) }
        behaviors.forEach(visit)

        let oldBodies = world.bodies, oldIndex = bodyIndex, oldItems = itemStates
        itemStates.removeAll()
        bodyIndex.removeAll()
        var bodies: [PhysicsBody] = []
        for behavior in flattened {
            for item in behavior.involvedItems where bodyIndex[ObjectIdentifier(item)] == nil {
                let id = ObjectIdentifier(item)
                if let old = oldIndex[id], !itemsToRead.contains(id) {
                    bodies.append(oldBodies[old])
                    itemStates.append(oldItems[old])
                } else {
                    let angle = UIAttachmentBehavior.angle(of: item)
                    let center = item.center
                    let body = PhysicsBody(vertices: DynamicsShapes.polygon(of: item),
                                           position: Vec2(center.x.isFinite ? center.x : 0, center.y.isFinite ? center.y : 0),
                                           angle: angle.isFinite ? angle : 0)
                    if let old = oldIndex[id] {
                        body.velocity = oldBodies[old].velocity
                        body.angularVelocity = oldBodies[old].angularVelocity
                    }
                    body.setMass(density: 1, rotates: true)
                    bodies.append(body)
                    itemStates.append((item, body.angle))
                }
                bodyIndex[id] = bodies.count - 1
            }
        }
        itemsToRead.removeAll()

        collisionMembers.removeAll()
        boundaryOwners.removeAll()
        let referenceBounds = referenceView?.bounds ?? .zero
        for case let collision as UICollisionBehavior in flattened {
            collisionMembers.append((collision, Set(collision.items.map(ObjectIdentifier.init))))
            for shape in collision.boundaryShapes(referenceBounds: referenceBounds) {
                let centre = shape.vertices.reduce(Vec2.zero, +) / Double(shape.vertices.count)
                let body = PhysicsBody(vertices: shape.vertices.map { $0 - centre }, position: centre, angle: 0)
                body.isBoundary = true
                bodies.append(body)
                boundaryOwners.append((collision, shape.identifier))
            }
        }
        world.bodies = bodies

        var pairs: [(Int, Int)] = []
        for i in itemStates.indices {
            let idI = ObjectIdentifier(itemStates[i].item)
            for j in (i + 1)..<max(itemStates.count, i + 1) {
                let idJ = ObjectIdentifier(itemStates[j].item)
                if collisionMembers.contains(where: { $0.behavior.collisionMode.contains(.items) && $0.items.contains(idI) && $0.items.contains(idJ) }) {
                    pairs.append((i, j))
                }
            }
            for (k, owner) in boundaryOwners.enumerated() where owner.behavior.collisionMode.contains(.boundaries) {
                if collisionMembers.contains(where: { $0.behavior === owner.behavior && $0.items.contains(idI) }) {
                    pairs.append((i, itemStates.count + k))
                }
            }
        }
        world.pairs = pairs
    }

    // MARK: Contacts

    /// A contact between an item and another item or a boundary, as the delegates see it.
    struct Contact {
        /// Identifies the contact across steps (and rebuilds of the bodies).
        var key: Int
        var item: any UIDynamicItem
        var other: (any UIDynamicItem)?
        var boundary: (behavior: UICollisionBehavior, identifier: (any NSCopying)?)?
        var point: CGPoint
    }

    /// Calls the collision delegates for contacts that began or ended in the last step. An
    /// item touching several segments of one boundary is one contact with it.
    private func reportContacts() {
        guard collisionMembers.contains(where: { $0.behavior.collisionDelegate != nil }) else {
            contacts.removeAll(keepingCapacity: true)
            contactKeys.removeAll(keepingCapacity: true)
            return
        }
        swap(&contacts, &previousContacts)
        swap(&contactKeys, &previousContactKeys)
        contacts.removeAll(keepingCapacity: true)
        contactKeys.removeAll(keepingCapacity: true)
        for m in world.manifolds {
            let (a, b) = (min(m.reference, m.incident), max(m.reference, m.incident))
            guard a < itemStates.count else { continue }
            let item = itemStates[a].item
            var hasher = Hasher()
            hasher.combine(ObjectIdentifier(item))
            var contact = Contact(key: 0, item: item, other: nil, boundary: nil, point: .zero)
            if b < itemStates.count {
                contact.other = itemStates[b].item
                hasher.combine(ObjectIdentifier(itemStates[b].item))
            } else {
                let owner = boundaryOwners[b - itemStates.count]
                contact.boundary = owner
                hasher.combine(ObjectIdentifier(owner.behavior))
                hasher.combine((owner.identifier as? NSObject)?.hash ?? 0)
            }
            contact.key = hasher.finalize()
            guard contactKeys.insert(contact.key).inserted else { continue }
            let p = world.bodies[m.incident].worldPoint(m.first.localIncidentPoint)
            contact.point = CGPoint(x: p.x, y: p.y)
            contacts.append(contact)
        }
        for c in previousContacts where !contactKeys.contains(c.key) { report(c, began: false) }
        for c in contacts where !previousContactKeys.contains(c.key) { report(c, began: true) }
    }

    private func report(_ c: Contact, began: Bool) {
        if let other = c.other {
            let (idA, idB) = (ObjectIdentifier(c.item), ObjectIdentifier(other))
            for member in collisionMembers where member.behavior.collisionMode.contains(.items)
                && member.items.contains(idA) && member.items.contains(idB) {
                guard let delegate = member.behavior.collisionDelegate else { continue }
                if began {
                    delegate.collisionBehavior(member.behavior, beganContactFor: c.item, with: other, at: c.point)
                } else {
                    delegate.collisionBehavior(member.behavior, endedContactFor: c.item, with: other)
                }
            }
        } else if let (behavior, identifier) = c.boundary, let delegate = behavior.collisionDelegate {
            if began {
                delegate.collisionBehavior(behavior, beganContactFor: c.item, withBoundaryIdentifier: identifier, at: c.point)
            } else {
                delegate.collisionBehavior(behavior, endedContactFor: c.item, withBoundaryIdentifier: identifier)
            }
        }
    }
}

/// What a behavior sees of the animator while it adds its forces and joints for a step.
final class DynamicsStep {
    unowned let animator: UIDynamicAnimator
    init(animator: UIDynamicAnimator) { self.animator = animator }
    /// Seconds the step advances (1/`UIDynamicAnimator.stepsPerSecond`).
    let stepLength = 1 / UIDynamicAnimator.stepsPerSecond
    /// The body of `item` (nil when no behavior of the animator holds it).
    func body(for item: any UIDynamicItem) -> PhysicsBody? { animator.index(of: item).map { animator.world.bodies[$0] } }
    /// `item`'s body index.
    func index(of item: any UIDynamicItem) -> Int? { animator.index(of: item) }
    func add(_ joint: PhysicsJoint) { animator.world.joints.append(joint) }
}
