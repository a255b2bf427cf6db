import QuartzCore

/// A connection between an item and an anchor point or between two items (Apple's
/// `UIAttachmentBehavior`).
///
/// * `init(item:…attachedToAnchor:)`, `init(item:…attachedTo:…)`: the attachment points stay
///   `length` apart — their distance when the behavior was made. With `frequency` 0 (default)
///   the connection is a rigid rod; with a frequency (Hz) it is a spring of that frequency and
///   damping ratio `damping` (default 0).
/// * `limitAttachment`: a rope — at most `length` apart.
/// * `pinAttachment`: the items turn about a shared point; `frictionTorque` resists it.
/// * `fixedAttachment`: the items keep their relative position and angle (a weld).
/// * `slidingAttachment`: the item slides along an axis through the anchor (or, for two items,
///   along an axis fixed in the second item) without turning relative to it.
///
/// `attachmentRange` limits a sliding attachment's travel along its axis, in points from where
/// it was made (Apple: "the range of motion (measured in points) supported along the given axis
/// of translation … must always contain the value 0"), and a pin attachment's rotation, in
/// radians from the items' starting angles (Apple: "the amount of rotation (measured in
/// radians) supported in the counter-clockwise and clockwise directions"). Apple does not say
/// whose rotation or which sign: Citrine limits the first item's angle relative to the second's,
/// positive clockwise on screen as a `transform`'s rotation. A range without 0 is widened to
/// include it; NaN bounds are unlimited; a range of rotation wider than ±π does not limit.
open class UIAttachmentBehavior: UIDynamicBehavior {
    /// Apple's `UIAttachmentBehavior.AttachmentType`.
    public enum AttachmentType: Int, Sendable {
        case items = 0
        case anchor = 1
    }

    enum Form { case distance, limit, pin, fixed, sliding }

    /// The item, then the other item for an items attachment.
    public let items: [any UIDynamicItem]
    public let attachedBehaviorType: AttachmentType
    /// The anchor, reference view coordinates (for `.anchor`; for pin and fixed attachments the
    /// point they were made at).
    open var anchorPoint: CGPoint { didSet { parameterDidChange() } }
    /// Distance kept between the attachment points, points.
    open var length: CGFloat { didSet { parameterDidChange() } }
    /// Damping ratio of a spring attachment (0 = none, 1 = critical). Default 0.
    open var damping: CGFloat = 0 { didSet { parameterDidChange() } }
    /// Spring frequency, Hz; 0 (default) makes the attachment rigid.
    open var frequency: CGFloat = 0 { didSet { parameterDidChange() } }
    /// Resistance of a pin attachment to turning, UIKit newton·points. Default 0.
    open var frictionTorque: CGFloat = 0 { didSet { parameterDidChange() } }
    /// A sliding attachment's travel (points) or a pin's rotation (radians) limits (see the
    /// class note).
    /// Default `.infinite`.
    open var attachmentRange = UIFloatRange.infinite { didSet { parameterDidChange() } }

    let form: Form
    /// Attachment points in the items' own frames (from their centres, unrotated).
    let offsets: (CGPoint, CGPoint)
    /// The items' relative angle when a fixed, sliding or pin attachment was made (the second
    /// item's, or 0 for an anchor, minus the first's).
    let relativeAngle: CGFloat
    /// A sliding attachment's axis: unit length, in the second item's frame (or the reference
    /// view's for an anchor).
    let slidingAxis: CGVector

    init(items: [any UIDynamicItem], type: AttachmentType, form: Form, offsets: (CGPoint, CGPoint), anchor: CGPoint,
         length: CGFloat, relativeAngle: CGFloat = 0, slidingAxis: CGVector = CGVector(dx: 1, dy: 0)) {
        self.items = items
        attachedBehaviorType = type
        self.form = form
        self.offsets = offsets
        anchorPoint = anchor
        self.length = length
        self.relativeAngle = relativeAngle
        self.slidingAxis = slidingAxis
        super.init()
    }

    public convenience init(item: any UIDynamicItem, attachedToAnchor point: CGPoint) {
        self.init(item: item, offsetFromCenter: .zero, attachedToAnchor: point)
    }

    public convenience init(item: any UIDynamicItem, offsetFromCenter offset: UIOffset, attachedToAnchor point: CGPoint) {
        let attached = Self.point(of: item, offset)
        self.init(items: [item], type: .anchor, form: .distance, offsets: (CGPoint(x: offset.horizontal, y: offset.vertical), .zero),
                  anchor: point, length: hypot(point.x - attached.x, point.y - attached.y))
    }

    public convenience init(item item1: any UIDynamicItem, attachedTo item2: any UIDynamicItem) {
        self.init(item: item1, offsetFromCenter: .zero, attachedTo: item2, offsetFromCenter: .zero)
    }

    public convenience init(item item1: any UIDynamicItem, offsetFromCenter offset1: UIOffset,
                            attachedTo item2: any UIDynamicItem, offsetFromCenter offset2: UIOffset) {
        let p1 = Self.point(of: item1, offset1), p2 = Self.point(of: item2, offset2)
        self.init(items: [item1, item2], type: .items, form: .distance,
                  offsets: (CGPoint(x: offset1.horizontal, y: offset1.vertical), CGPoint(x: offset2.horizontal, y: offset2.vertical)),
                  anchor: .zero, length: hypot(p2.x - p1.x, p2.y - p1.y))
    }

    /// Two items joined at `point` (reference view coordinates) that keep their relative
    /// position and angle.
    open class func fixedAttachment(with item1: any UIDynamicItem, attachedTo item2: any UIDynamicItem,
                                    attachmentAnchor point: CGPoint) -> UIAttachmentBehavior {
        UIAttachmentBehavior(items: [item1, item2], type: .items, form: .fixed,
                             offsets: (localOffset(of: point, in: item1), localOffset(of: point, in: item2)), anchor: point, length: 0,
                             relativeAngle: angle(of: item2) - angle(of: item1))
    }

    /// Two items that turn about a shared point `point` (reference view coordinates).
    open class func pinAttachment(with item1: any UIDynamicItem, attachedTo item2: any UIDynamicItem,
                                  attachmentAnchor point: CGPoint) -> UIAttachmentBehavior {
        UIAttachmentBehavior(items: [item1, item2], type: .items, form: .pin,
                             offsets: (localOffset(of: point, in: item1), localOffset(of: point, in: item2)), anchor: point, length: 0,
                             relativeAngle: angle(of: item2) - angle(of: item1))
    }

    /// `item1` slides along `axis` (fixed in `item2`'s frame) through `point`, without turning
    /// relative to `item2`.
    open class func slidingAttachment(with item1: any UIDynamicItem, attachedTo item2: any UIDynamicItem,
                                      attachmentAnchor point: CGPoint, axisOfTranslation axis: CGVector) -> UIAttachmentBehavior {
        let a2 = angle(of: item2)
        let unit = unitAxis(axis)
        return UIAttachmentBehavior(items: [item1, item2], type: .items, form: .sliding,
                                    offsets: (localOffset(of: point, in: item1), localOffset(of: point, in: item2)), anchor: point,
                                    length: 0, relativeAngle: a2 - angle(of: item1),
                                    slidingAxis: CGVector(dx: unit.dx * cos(a2) + unit.dy * sin(a2), dy: -unit.dx * sin(a2) + unit.dy * cos(a2)))
    }

    /// `item` slides along `axis` through the anchor `point` (reference view coordinates)
    /// without turning.
    open class func slidingAttachment(with item: any UIDynamicItem, attachmentAnchor point: CGPoint,
                                      axisOfTranslation axis: CGVector) -> UIAttachmentBehavior {
        UIAttachmentBehavior(items: [item], type: .anchor, form: .sliding, offsets: (localOffset(of: point, in: item), .zero),
                             anchor: point, length: 0, relativeAngle: -angle(of: item), slidingAxis: unitAxis(axis))
    }

    /// `axis` at unit length; a zero or non-finite axis is horizontal.
    private static func unitAxis(_ axis: CGVector) -> CGVector {
        let l = (axis.dx * axis.dx + axis.dy * axis.dy).squareRoot()
        guard l > 0, l.isFinite else { return CGVector(dx: 1, dy: 0) }
        return CGVector(dx: axis.dx / l, dy: axis.dy / l)
    }

    /// Two items whose attachment points stay at most their present distance apart (a rope).
    open class func limitAttachment(with item1: any UIDynamicItem, offsetFromCenter offset1: UIOffset,
                                    attachedTo item2: any UIDynamicItem, offsetFromCenter offset2: UIOffset) -> UIAttachmentBehavior {
        let p1 = point(of: item1, offset1), p2 = point(of: item2, offset2)
        return UIAttachmentBehavior(items: [item1, item2], type: .items, form: .limit,
                                    offsets: (CGPoint(x: offset1.horizontal, y: offset1.vertical),
                                              CGPoint(x: offset2.horizontal, y: offset2.vertical)),
                                    anchor: .zero, length: hypot(p2.x - p1.x, p2.y - p1.y))
    }

    /// The item's rotation angle, from its transform.
    static func angle(of item: any UIDynamicItem) -> CGFloat { atan2(item.transform.b, item.transform.a) }

    /// The point at `offset` from `item`'s centre (turned with the item), reference coordinates.
    static func point(of item: any UIDynamicItem, _ offset: UIOffset) -> CGPoint {
        let a = angle(of: item), c = item.center
        return CGPoint(x: c.x + offset.horizontal * cos(a) - offset.vertical * sin(a),
                       y: c.y + offset.horizontal * sin(a) + offset.vertical * cos(a))
    }

    /// `point` (reference coordinates) from `item`'s centre in its own unrotated frame.
    static func localOffset(of point: CGPoint, in item: any UIDynamicItem) -> CGPoint {
        let a = angle(of: item), dx = point.x - item.center.x, dy = point.y - item.center.y
        return CGPoint(x: dx * cos(a) + dy * sin(a), y: -dx * sin(a) + dy * cos(a))
    }

    /// `attachmentRange` widened to contain 0, NaN ends unlimited (see the class note).
    private var rangeLimits: (Double, Double) {
        (attachmentRange.minimum.isNaN ? -.infinity : min(Double(attachmentRange.minimum), 0),
         attachmentRange.maximum.isNaN ? .infinity : max(Double(attachmentRange.maximum), 0))
    }

    override var involvedItems: [any UIDynamicItem] { items }

    override func contribute(to step: DynamicsStep) {
        guard let a = step.index(of: items[0]) else { return }
        let b = items.count > 1 ? step.index(of: items[1]) : nil
        if items.count > 1 && b == nil { return }
        let localA = Vec2(offsets.0.x, offsets.0.y)
        let localB = b == nil ? Vec2(anchorPoint.x, anchorPoint.y) : Vec2(offsets.1.x, offsets.1.y)
        guard localB.x.isFinite, localB.y.isFinite, length.isFinite else { return }
        let f = frequency.parameter(in: 0...1e6), zeta = damping.parameter(in: 0...1e6)
        switch form {
        case .distance where length <= 0 && f == 0:
            // A rod of no length has no direction: keep the points together instead.
            step.add(PhysicsJoint(kind: .point, a: a, b: b, localA: localA, localB: localB))
        case .distance:
            step.add(PhysicsJoint(kind: .distance(length: length.parameter(in: 0...1e12)), a: a, b: b, localA: localA, localB: localB,
                                  frequency: f, dampingRatio: zeta))
        case .limit:
            step.add(PhysicsJoint(kind: .rope(length: length.parameter(in: 0...1e12)), a: a, b: b, localA: localA, localB: localB))
        case .pin:
            step.add(PhysicsJoint(kind: .point, a: a, b: b, localA: localA, localB: localB))
            if frictionTorque > 0 {
                step.add(PhysicsJoint(kind: .angularFriction(torque: frictionTorque.parameter(in: 0...1e12)), a: a, b: b, localA: .zero, localB: .zero))
            }
            let (lower, upper) = rangeLimits
            if lower > -.pi || upper < .pi {
                step.add(PhysicsJoint(kind: .angleLimit(start: -Double(relativeAngle), lower: lower, upper: upper),
                                      a: a, b: b, localA: .zero, localB: .zero))
            }
        case .fixed:
            step.add(PhysicsJoint(kind: .point, a: a, b: b, localA: localA, localB: localB))
            step.add(PhysicsJoint(kind: .angle(Double(relativeAngle)), a: a, b: b, localA: .zero, localB: .zero))
        case .sliding:
            step.add(PhysicsJoint(kind: .line(axis: Vec2(slidingAxis.dx, slidingAxis.dy)), a: a, b: b, localA: localA, localB: localB))
            step.add(PhysicsJoint(kind: .angle(Double(relativeAngle)), a: a, b: b, localA: .zero, localB: .zero))
            let (lower, upper) = rangeLimits
            if lower.isFinite || upper.isFinite {
                step.add(PhysicsJoint(kind: .lineLimit(axis: Vec2(slidingAxis.dx, slidingAxis.dy), lower: lower, upper: upper),
                                      a: a, b: b, localA: localA, localB: localB))
            }
        }
    }
}
