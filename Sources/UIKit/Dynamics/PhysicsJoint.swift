import Foundation

// Joints: the constraints that attachments and snaps put between a body and a point of the
// world or another body, solved by sequential impulses beside the contacts. A joint with a
// frequency is soft (a damped spring, in the form of Catto's "Soft Constraints", GDC 2011:
// the spring's stiffness and damping become a bias and a softness in the impulse); one without
// is rigid and also corrected on positions after the step.

struct PhysicsJoint {
    enum Kind {
        /// Keeps the anchors `length` apart (a rod; a spring when `frequency` > 0).
        case distance(length: Double)
        /// Keeps the anchors at most `length` apart (a rope).
        case rope(length: Double)
        /// Keeps the anchors together (a pin; with a frequency, a spring to a point).
        case point
        /// Keeps the bodies' relative angle at `angle` (with `point`, a weld).
        case angle(Double)
        /// Resists relative rotation with at most `torque` (UIKit newton·points).
        case angularFriction(torque: Double)
        /// Keeps `a`'s anchor on the line through `b`'s anchor along `axis` (a unit vector in
        /// `b`'s frame, or in the world when `b` is nil): a slider (with `angle`, a prismatic
        /// joint, as Box2D's).
        case line(axis: Vec2)
        /// Keeps the translation of `a`'s anchor from `b`'s anchor along `axis` (as for
        /// `line`) within `lower`…`upper` points (a slider's limits).
        case lineLimit(axis: Vec2, lower: Double, upper: Double)
        /// Keeps `a`'s angle minus `b`'s (0 when `b` is nil) minus `start` within `lower`…`upper`
        /// radians (a pin's limits).
        case angleLimit(start: Double, lower: Double, upper: Double)
    }

    var kind: Kind
    /// Body indices; `b` nil: `localB` is a world point.
    var a: Int
    var b: Int?
    /// Anchor on `a` (its frame) and on `b` (its frame) or in the world.
    var localA: Vec2
    var localB: Vec2
    /// Spring frequency (Hz, 0 = rigid) and damping ratio (0 = none, 1 = critical).
    var frequency = 0.0
    var dampingRatio = 0.0

    // Per-step solver data.
    var rA = Vec2.zero
    var rB = Vec2.zero
    var axis = Vec2.zero
    var mass = 0.0
    var gamma = 0.0
    var bias = 0.0
    var impulse = 0.0
    var pointImpulse = Vec2.zero
    /// The inverse of the point constraint's 2 × 2 effective mass (column-major a b c d).
    var pointMass = SIMD4<Double>.zero
    var pointBias = Vec2.zero
    /// Which bound of a `lineLimit` or `angleLimit` acts this step: +1 the lower, −1 the upper, 0 neither.
    var limitSide = 0.0

    init(kind: Kind, a: Int, b: Int?, localA: Vec2, localB: Vec2, frequency: Double = 0, dampingRatio: Double = 0) {
        self.kind = kind
        self.a = a
        self.b = b
        self.localA = localA
        self.localB = localB
        self.frequency = frequency
        self.dampingRatio = dampingRatio
    }

    var isRigid: Bool { frequency <= 0 }
}

extension PhysicsWorld {
    /// Anchors and effective masses of joint `j` for a step of `h` seconds.
    func prepare(_ j: inout PhysicsJoint, h: Double) {
        let a = bodies[j.a]
        let b = j.b.map { bodies[$0] }
        j.rA = j.localA.rotated(a.cosAngle, a.sinAngle)
        let pA = a.position + j.rA
        let pB: Vec2
        if let b { j.rB = j.localB.rotated(b.cosAngle, b.sinAngle); pB = b.position + j.rB } else { j.rB = .zero; pB = j.localB }
        let mA = a.inverseMass, iA = a.inverseInertia, mB = b?.inverseMass ?? 0, iB = b?.inverseInertia ?? 0
        j.impulse = 0
        j.pointImpulse = .zero
        switch j.kind {
        case .distance(let length), .rope(let length):
            let d = pB - pA
            let current = d.length
            j.axis = current > 1e-9 ? d / current : Vec2(0, 1)
            let crA = j.rA.cross(j.axis), crB = j.rB.cross(j.axis)
            let k = mA + iA * crA * crA + mB + iB * crB * crB
            j.mass = k > 0 ? 1 / k : 0
            let c = current - length
            soften(&j, massInverse: k, error: c, h: h)
            if case .rope = j.kind, c < -linearSlop { j.mass = 0 }
        case .point:
            let (rA, rB) = (j.rA, j.rB)
            var k11 = mA + mB + iA * rA.y * rA.y + iB * rB.y * rB.y
            let k12 = -iA * rA.x * rA.y - iB * rB.x * rB.y
            var k22 = mA + mB + iA * rA.x * rA.x + iB * rB.x * rB.x
            let c = pB - pA
            if j.isRigid {
                j.gamma = 0; j.pointBias = .zero
            } else {
                // One spring per axis, of the effective mass of a free body (1 / (mA + mB)).
                let kMean = mA + mB
                soften(&j, massInverse: kMean, error: 0, h: h)
                j.pointBias = c * j.bias
                k11 += j.gamma; k22 += j.gamma
            }
            let det = k11 * k22 - k12 * k12
            j.pointMass = det != 0 ? SIMD4(k22 / det, -k12 / det, -k12 / det, k11 / det) : .zero
        case .angle(let target):
            let k = iA + iB
            j.mass = k > 0 ? 1 / k : 0
            let c = (b?.angle ?? 0) - a.angle - target
            soften(&j, massInverse: k, error: remainder(c, 2 * .pi), h: h)
        case .angularFriction:
            let k = iA + iB
            j.mass = k > 0 ? 1 / k : 0
            j.gamma = 0; j.bias = 0
        case .line(let axis):
            // The line's normal n and the mover's offset d from the line's anchor: C = n·d, with
            // Jacobian (n, rA × n) on a and (−n, −(rB + d) × n) on b.
            let worldAxis = b.map { axis.rotated($0.cosAngle, $0.sinAngle) } ?? axis
            j.axis = Vec2(-worldAxis.y, worldAxis.x)
            let d = pA - pB
            j.rB += d
            let crA = j.rA.cross(j.axis), crB = j.rB.cross(j.axis)
            let k = mA + iA * crA * crA + mB + iB * crB * crB
            j.mass = k > 0 ? 1 / k : 0
            j.gamma = 0; j.bias = 0
        case .lineLimit(let axis, let lower, let upper):
            // As `line`, along the axis itself: C = axis·d, held above `lower` and below `upper`.
            j.axis = b.map { axis.rotated($0.cosAngle, $0.sinAngle) } ?? axis
            let d = pA - pB
            j.rB += d
            let t = j.axis.dot(d)
            j.limitSide = t <= lower ? 1 : t >= upper ? -1 : 0
            let crA = j.rA.cross(j.axis), crB = j.rB.cross(j.axis)
            let k = mA + iA * crA * crA + mB + iB * crB * crB
            j.mass = k > 0 && j.limitSide != 0 ? 1 / k : 0
            j.gamma = 0; j.bias = 0
        case .angleLimit(let start, let lower, let upper):
            let t = remainder(a.angle - (b?.angle ?? 0) - start, 2 * .pi)
            j.limitSide = t <= lower ? 1 : t >= upper ? -1 : 0
            let k = iA + iB
            j.mass = k > 0 && j.limitSide != 0 ? 1 / k : 0
            j.gamma = 0; j.bias = 0
        }
    }

    /// Softness and bias of a spring of the joint's frequency and damping ratio, for a
    /// constraint of inverse effective mass `k` and current error `c` (Catto 2011: stiffness
    /// m ω², damping 2 m ζ ω; γ = 1 / (h (c + h k)), bias = C h k γ). Rigid joints get none.
    private func soften(_ j: inout PhysicsJoint, massInverse k: Double, error c: Double, h: Double) {
        guard !j.isRigid, k > 0 else { j.gamma = 0; j.bias = 0; return }
        let m = 1 / k
        let omega = 2 * Double.pi * j.frequency
        let stiffness = m * omega * omega, damping = 2 * m * j.dampingRatio * omega
        let gamma = h * (damping + h * stiffness)
        j.gamma = gamma > 0 ? 1 / gamma : 0
        // For the point joint the bias is per unit of error, applied to each axis by the caller.
        if case .point = j.kind { j.bias = h * stiffness * j.gamma } else { j.bias = c * h * stiffness * j.gamma }
        j.mass = 1 / (k + j.gamma)
    }

    /// One velocity iteration of joint `j`.
    func solveVelocity(_ j: inout PhysicsJoint, h: Double) {
        let a = bodies[j.a]
        let b = j.b.map { bodies[$0] }
        let vA = a.velocity(at: j.rA), vB = b?.velocity(at: j.rB) ?? .zero
        switch j.kind {
        case .distance, .rope:
            guard j.mass > 0 else { return }
            let cdot = j.axis.dot(vB - vA)
            var lambda = -j.mass * (cdot + j.bias + j.gamma * j.impulse)
            if case .rope = j.kind {
                let total = min(j.impulse + lambda, 0)
                lambda = total - j.impulse
            }
            j.impulse += lambda
            let p = lambda * j.axis
            a.applyImpulse(-p, at: j.rA)
            b?.applyImpulse(p, at: j.rB)
        case .point:
            let cdot = vB - vA + j.pointBias + j.gamma * j.pointImpulse
            let m = j.pointMass
            let lambda = -Vec2(m[0] * cdot.x + m[2] * cdot.y, m[1] * cdot.x + m[3] * cdot.y)
            j.pointImpulse += lambda
            a.applyImpulse(-lambda, at: j.rA)
            b?.applyImpulse(lambda, at: j.rB)
        case .angle:
            guard j.mass > 0 else { return }
            let cdot = (b?.angularVelocity ?? 0) - a.angularVelocity
            let lambda = -j.mass * (cdot + j.bias + j.gamma * j.impulse)
            j.impulse += lambda
            a.angularVelocity -= a.inverseInertia * lambda
            if let b { b.angularVelocity += b.inverseInertia * lambda }
        case .angularFriction(let torque):
            guard j.mass > 0 else { return }
            let cdot = (b?.angularVelocity ?? 0) - a.angularVelocity
            let limit = torque * h
            let total = min(max(j.impulse - j.mass * cdot, -limit), limit)
            let lambda = total - j.impulse
            j.impulse = total
            a.angularVelocity -= a.inverseInertia * lambda
            if let b { b.angularVelocity += b.inverseInertia * lambda }
        case .line:
            guard j.mass > 0 else { return }
            // rB here is the line's anchor plus d (see `prepare`): b's material at a's anchor.
            let cdot = j.axis.dot(a.velocity(at: j.rA) - (b?.velocity(at: j.rB) ?? .zero))
            let lambda = -j.mass * cdot
            a.applyImpulse(lambda * j.axis, at: j.rA)
            b?.applyImpulse(-lambda * j.axis, at: j.rB)
        case .lineLimit:
            guard j.mass > 0 else { return }
            let cdot = j.axis.dot(a.velocity(at: j.rA) - (b?.velocity(at: j.rB) ?? .zero))
            // The accumulated impulse only ever pushes away from the bound that acts.
            let total = j.limitSide * max(j.limitSide * (j.impulse - j.mass * cdot), 0)
            let lambda = total - j.impulse
            j.impulse = total
            a.applyImpulse(lambda * j.axis, at: j.rA)
            b?.applyImpulse(-lambda * j.axis, at: j.rB)
        case .angleLimit:
            guard j.mass > 0 else { return }
            let cdot = a.angularVelocity - (b?.angularVelocity ?? 0)
            let total = j.limitSide * max(j.limitSide * (j.impulse - j.mass * cdot), 0)
            let lambda = total - j.impulse
            j.impulse = total
            a.angularVelocity += a.inverseInertia * lambda
            if let b { b.angularVelocity -= b.inverseInertia * lambda }
        }
    }

    /// Position correction of a rigid joint (non-linear Gauss–Seidel); returns its error.
    @discardableResult
    func solvePosition(_ j: PhysicsJoint) -> Double {
        guard j.isRigid else { return 0 }
        let a = bodies[j.a]
        let b = j.b.map { bodies[$0] }
        let rA = j.localA.rotated(a.cosAngle, a.sinAngle)
        let rB = b.map { j.localB.rotated($0.cosAngle, $0.sinAngle) } ?? .zero
        let pA = a.position + rA, pB = b.map { $0.position + rB } ?? j.localB
        let mA = a.inverseMass, iA = a.inverseInertia, mB = b?.inverseMass ?? 0, iB = b?.inverseInertia ?? 0
        /// Removes error `c` of A's anchor relative to B's along the unit direction `u` (arms
        /// `armA`, `armB` from the bodies' centres): one impulse pair, split by effective mass.
        func correct(_ c: Double, along u: Vec2, armA: Vec2, armB: Vec2) -> Double {
            let crA = armA.cross(u), crB = armB.cross(u)
            let k = mA + iA * crA * crA + mB + iB * crB * crB
            guard k > 0 else { return 0 }
            let p = (-c / k) * u
            move(a, by: p, at: armA)
            if let b { move(b, by: -p, at: armB) }
            return abs(c)
        }
        switch j.kind {
        case .distance(let length), .rope(let length):
            let d = pB - pA
            let current = d.length
            guard current > 1e-9 else { return 0 }
            let u = d / current
            var c = current - length
            if case .rope = j.kind { c = max(c, 0) }
            c = min(max(c, -maxCorrection), maxCorrection)
            // The error is B's distance from A along u, so A's relative to B along −u.
            return correct(c, along: -u, armA: rA, armB: rB)
        case .point:
            let c = pB - pA
            let k11 = mA + mB + iA * rA.y * rA.y + iB * rB.y * rB.y
            let k12 = -iA * rA.x * rA.y - iB * rB.x * rB.y
            let k22 = mA + mB + iA * rA.x * rA.x + iB * rB.x * rB.x
            let det = k11 * k22 - k12 * k12
            guard det != 0 else { return 0 }
            let p = -Vec2((k22 * c.x - k12 * c.y) / det, (k11 * c.y - k12 * c.x) / det)
            move(a, by: -p, at: rA)
            if let b { move(b, by: p, at: rB) }
            return c.length
        case .angle(let target):
            let k = iA + iB
            guard k > 0 else { return 0 }
            let c = remainder((b?.angle ?? 0) - a.angle - target, 2 * .pi)
            a.angle += iA * c / k
            if let b { b.angle -= iB * c / k }
            return abs(c)
        case .angularFriction:
            return 0
        case .line(let axis):
            let worldAxis = b.map { axis.rotated($0.cosAngle, $0.sinAngle) } ?? axis
            let n = Vec2(-worldAxis.y, worldAxis.x)
            let d = pA - pB
            let c = min(max(n.dot(d), -maxCorrection), maxCorrection)
            return correct(c, along: n, armA: rA, armB: rB + d)
        case .lineLimit(let axis, let lower, let upper):
            let u = b.map { axis.rotated($0.cosAngle, $0.sinAngle) } ?? axis
            let d = pA - pB
            let t = u.dot(d)
            let c = min(max(t < lower ? t - lower : t > upper ? t - upper : 0, -maxCorrection), maxCorrection)
            guard c != 0 else { return 0 }
            return correct(c, along: u, armA: rA, armB: rB + d)
        case .angleLimit(let start, let lower, let upper):
            let t = remainder(a.angle - (b?.angle ?? 0) - start, 2 * .pi)
            let c = t < lower ? t - lower : t > upper ? t - upper : 0
            let k = iA + iB
            guard c != 0, k > 0 else { return 0 }
            a.angle -= iA * c / k
            if let b { b.angle += iB * c / k }
            return abs(c)
        }
    }

    /// Moves `body` as a position impulse `p` at offset `r` would.
    func move(_ body: PhysicsBody, by p: Vec2, at r: Vec2) {
        body.position += body.inverseMass * p
        let turn = body.inverseInertia * r.cross(p)
        if turn != 0 { body.angle += turn }
    }
}
