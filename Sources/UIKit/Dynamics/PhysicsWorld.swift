import Foundation

/// A world of bodies, the joints between them and which pairs collide, advanced in fixed steps
/// (see the design note in PhysicsBody.swift).
final class PhysicsWorld {
    var bodies: [PhysicsBody] = []
    /// Rebuilt by the animator before each step from its behaviors.
    var joints: [PhysicsJoint] = []
    /// Which body pairs may touch, `i < j` (set by the animator when the behaviors change).
    var pairs: [(Int, Int)] = []
    /// The manifolds of the last step, in `pairs` order.
    private(set) var manifolds: [ContactManifold] = []
    /// Last step's impulses by pair and feature, for warm starting.
    private var previousImpulses: [Int: (normal: Double, tangent: Double)] = [:]

    /// Velocity iterations per step (Box2D's default is 8).
    var velocityIterations = 8
    /// Position iterations per step (Box2D's default is 3).
    var positionIterations = 3
    /// Penetration allowed before position correction pushes bodies apart, points (Box2D's
    /// 0.005 m at its customary 100 points per metre, rounded up).
    let linearSlop = 0.5
    /// The largest position correction per iteration, points.
    let maxCorrection = 8.0
    /// Fraction of the remaining overlap corrected per position iteration (Box2D's 0.2).
    let baumgarte = 0.2
    /// Closing speeds below this do not bounce, points/s: a body resting on the floor gathers
    /// 1000 · h ≈ 8.3 pt/s per 1/120 s step of standard gravity, which must not bounce it.
    let restitutionThreshold = 40.0
    /// Rolling resistance coefficient of contacts with friction (Box2D 3's rolling resistance,
    /// "usually in [0, 0.1]"): a torque of at most this × friction × the normal force × the
    /// smaller body's radius resists the bodies' relative turning, so that a ball with friction
    /// comes to rest instead of rocking for ever. Apple documents nothing either way.
    let rollingResistance = 0.02

    /// Advances the world by `h` seconds.
    func step(_ h: Double) {
        integrateVelocities(h)
        collide()
        prepareContacts(h)
        for k in joints.indices { prepare(&joints[k], h: h) }
        warmStart()
        for _ in 0..<velocityIterations {
            for k in joints.indices { solveVelocity(&joints[k], h: h) }
            for m in manifolds.indices { solveContactVelocity(&manifolds[m]) }
        }
        storeImpulses()
        for body in bodies where !body.isStatic {
            body.position += h * body.velocity
            if body.angularVelocity != 0 { body.angle += h * body.angularVelocity }
        }
        for _ in 0..<positionIterations {
            for body in bodies { body.updateWorldShape() }
            for m in manifolds.indices { solveContactPosition(manifolds[m]) }
            for j in joints { solvePosition(j) }
        }
        for body in bodies {
            body.updateWorldShape()
            body.force = .zero
            body.torque = 0
            body.acceleration = .zero
        }
    }

    private func integrateVelocities(_ h: Double) {
        for body in bodies where !body.isStatic {
            body.velocity += h * (body.acceleration + body.inverseMass * body.force)
            body.angularVelocity += h * body.inverseInertia * body.torque
            // Damping as Box2D applies it: v ← v / (1 + h·c), stable for any rate.
            if body.linearDamping > 0 { body.velocity /= 1 + h * body.linearDamping }
            if body.angularDamping > 0 { body.angularVelocity /= 1 + h * body.angularDamping }
        }
    }

    private func collide() {
        manifolds.removeAll(keepingCapacity: true)
        for (i, j) in pairs {
            let a = bodies[i], b = bodies[j]
            if a.isStatic && b.isStatic { continue }
            let d = b.position - a.position, reach = a.radius + b.radius
            guard d.dot(d) <= reach * reach else { continue }
            guard var m = Collision.manifold(i, a, j, b) else { continue }
            for k in 0..<m.count {
                if let old = previousImpulses[key(i, j, m[k].feature)] {
                    m[k].normalImpulse = old.normal
                    m[k].tangentImpulse = old.tangent
                }
            }
            manifolds.append(m)
        }
    }

    private func key(_ i: Int, _ j: Int, _ feature: Int) -> Int { (i &* 4099 &+ j) &* 1_048_583 &+ feature }

    private func prepareContacts(_ h: Double) {
        for index in manifolds.indices {
            var m = manifolds[index]
            let a = bodies[m.reference], b = bodies[m.incident]
            let n = m.localNormal.rotated(a.cosAngle, a.sinAngle)
            m.normal = n
            let t = Vec2(n.y, -n.x)
            let turning = a.inverseInertia + b.inverseInertia
            m.rollingMass = turning > 0 ? 1 / turning : 0
            let radius = a.isStatic ? b.radius : b.isStatic ? a.radius : min(a.radius, b.radius)
            m.rollingLimit = rollingResistance * m.friction * radius
            m.rollingImpulse = 0
            let facePoint = a.worldPoint(m.localFacePoint)
            for k in 0..<m.count {
                var p = m[k]
                let incidentPoint = b.worldPoint(p.localIncidentPoint)
                let separation = n.dot(incidentPoint - facePoint)
                // The contact point is midway between the incident point and the face.
                let point = incidentPoint - (separation / 2) * n
                p.rReference = point - a.position
                p.rIncident = point - b.position
                p.normalMass = effectiveMass(a, b, p.rReference, p.rIncident, n)
                p.tangentMass = effectiveMass(a, b, p.rReference, p.rIncident, t)
                let closing = n.dot(b.velocity(at: p.rIncident) - a.velocity(at: p.rReference))
                p.velocityBias = closing < -restitutionThreshold ? -m.elasticity * closing : 0
                m[k] = p
            }
            manifolds[index] = m
        }
    }

    private func effectiveMass(_ a: PhysicsBody, _ b: PhysicsBody, _ rA: Vec2, _ rB: Vec2, _ axis: Vec2) -> Double {
        let ca = rA.cross(axis), cb = rB.cross(axis)
        let k = a.inverseMass + b.inverseMass + a.inverseInertia * ca * ca + b.inverseInertia * cb * cb
        return k > 0 ? 1 / k : 0
    }

    private func warmStart() {
        for m in manifolds {
            let a = bodies[m.reference], b = bodies[m.incident]
            let t = Vec2(m.normal.y, -m.normal.x)
            for k in 0..<m.count {
                let p = m[k]
                let impulse = p.normalImpulse * m.normal + p.tangentImpulse * t
                a.applyImpulse(-impulse, at: p.rReference)
                b.applyImpulse(impulse, at: p.rIncident)
            }
        }
    }

    private func solveContactVelocity(_ m: inout ContactManifold) {
        let a = bodies[m.reference], b = bodies[m.incident]
        let n = m.normal, t = Vec2(n.y, -n.x)
        for k in 0..<m.count {
            var p = m[k]
            // Friction first, bounded by the normal impulse (Coulomb).
            var dv = b.velocity(at: p.rIncident) - a.velocity(at: p.rReference)
            let limit = m.friction * p.normalImpulse
            let tangentTotal = min(max(p.tangentImpulse - p.tangentMass * dv.dot(t), -limit), limit)
            let tangentStep = tangentTotal - p.tangentImpulse
            p.tangentImpulse = tangentTotal
            a.applyImpulse(-tangentStep * t, at: p.rReference)
            b.applyImpulse(tangentStep * t, at: p.rIncident)
            // Then the normal: the accumulated impulse only pushes.
            dv = b.velocity(at: p.rIncident) - a.velocity(at: p.rReference)
            let normalTotal = max(p.normalImpulse - p.normalMass * (dv.dot(n) - p.velocityBias), 0)
            let normalStep = normalTotal - p.normalImpulse
            p.normalImpulse = normalTotal
            a.applyImpulse(-normalStep * n, at: p.rReference)
            b.applyImpulse(normalStep * n, at: p.rIncident)
            m[k] = p
        }
        if m.rollingLimit > 0, m.rollingMass > 0 {
            let limit = m.rollingLimit * (m.first.normalImpulse + (m.count > 1 ? m.second.normalImpulse : 0))
            let total = min(max(m.rollingImpulse - m.rollingMass * (b.angularVelocity - a.angularVelocity), -limit), limit)
            let step = total - m.rollingImpulse
            m.rollingImpulse = total
            a.angularVelocity -= a.inverseInertia * step
            b.angularVelocity += b.inverseInertia * step
        }
    }

    private func storeImpulses() {
        previousImpulses.removeAll(keepingCapacity: true)
        for m in manifolds {
            let (i, j) = m.reference < m.incident ? (m.reference, m.incident) : (m.incident, m.reference)
            for k in 0..<m.count { previousImpulses[key(i, j, m[k].feature)] = (m[k].normalImpulse, m[k].tangentImpulse) }
        }
    }

    /// Pushes the bodies of `m` apart along the current normal (non-linear Gauss–Seidel: moves
    /// positions only, never velocities).
    private func solveContactPosition(_ m: ContactManifold) {
        let a = bodies[m.reference], b = bodies[m.incident]
        for k in 0..<m.count {
            let n = m.localNormal.rotated(a.cosAngle, a.sinAngle)
            let facePoint = a.worldPoint(m.localFacePoint)
            let incidentPoint = b.worldPoint(m[k].localIncidentPoint)
            let separation = n.dot(incidentPoint - facePoint)
            let c = min(max(baumgarte * (separation + linearSlop), -maxCorrection), 0)
            guard c < 0 else { continue }
            let rA = incidentPoint - a.position, rB = incidentPoint - b.position
            let mass = effectiveMass(a, b, rA, rB, n)
            let p = (-c * mass) * n
            move(a, by: -p, at: rA)
            move(b, by: p, at: rB)
        }
    }

    /// The largest linear speed (points/s) and angular speed (rad/s) of a moving body.
    var fastestMotion: (linear: Double, angular: Double) {
        var linear = 0.0, angular = 0.0
        for body in bodies where !body.isStatic {
            linear = max(linear, body.velocity.length)
            angular = max(angular, abs(body.angularVelocity))
        }
        return (linear, angular)
    }
}
