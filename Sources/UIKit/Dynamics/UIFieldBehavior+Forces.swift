import QuartzCore

// The forces of UIFieldBehavior's fields, per item and step, and the value noise of the noise
// and turbulence fields. Rules and units: the design note in UIFieldBehavior.swift.

extension UIFieldBehavior {
    /// Acceleration of linear and radial gravity, electric force per unit charge, and the noise
    /// field's acceleration for a strength of 1: points/s² (UIGravityBehavior's 1000).
    static let gravityUnit = 1000.0
    /// Spring constant of a strength of 1, UIKit newtons per point: 4π², so a mass-1 item
    /// (100 × 100 points, density 1) swings once a second.
    static let springUnit = 4 * Double.pi * Double.pi
    /// Turbulence acceleration per point/s of the item's speed for a strength of 1, s⁻¹
    /// (`UIDynamicItemBehavior.resistanceRate`'s 10).
    static let turbulenceUnit = 10.0

    /// Apple's falloff factor at `distance` from the position (see the class note).
    func falloffFactor(_ distance: Double) -> Double {
        let f = falloff.parameter(in: -64...64)
        guard f != 0 else { return 1 }
        let r0 = minimumRadius.parameter(in: 0...Double.greatestFiniteMagnitude)
        guard distance > r0 else { return 1 }
        return pow(max(distance - r0, 1), -f)
    }

    /// Adds the field's effect on `body`, whose centre is `offset` from `position`.
    func apply(to body: PhysicsBody, offset: Vec2, h: Double, time: Double) {
        let s = Double(strength)
        guard s.isFinite else { return }
        let distance = offset.length
        let k = s * falloffFactor(distance)
        let mass = 1 / body.inverseMass
        let direction = Vec2(self.direction.dx, self.direction.dy)
        var acceleration = Vec2.zero, force = Vec2.zero
        switch kind {
        case .none:
            return
        case .linearGravity:
            acceleration = Self.gravityUnit * k * direction
        case .radialGravity:
            acceleration = -Self.gravityUnit * k * offset.normalized
        case .spring:
            force = -Self.springUnit * k * offset
        case .drag:
            // Stable damping (see the class note); a negative strength pushes along v instead.
            let rate = k * body.inverseMass
            if rate > 0 { body.linearDamping += rate } else { force = -k * body.velocity }
        case .velocity:
            let v = s * direction
            if v.x.isFinite, v.y.isFinite { body.velocity = v }
            return
        case .vortex:
            // Anticlockwise on screen (y down) for k > 0: (x, y) → (y, −x).
            force = k * Vec2(offset.y, -offset.x)
        case .electric:
            force = Self.gravityUnit * k * body.charge * offset.normalized
        case .magnetic:
            force = k * body.charge * Vec2(body.velocity.y, -body.velocity.x)
        case .noise:
            acceleration = Self.gravityUnit * k * noise(at: body.position, time: time)
        case .turbulence:
            acceleration = Self.turbulenceUnit * k * body.velocity.length * noise(at: body.position, time: time)
        case .custom(let block):
            let f = block(self, CGPoint(x: body.position.x, y: body.position.y),
                          CGVector(dx: body.velocity.x, dy: body.velocity.y),
                          CGFloat(mass), CGFloat(body.charge), h)
            force = Vec2(f.dx, f.dy)
        }
        if acceleration.x.isFinite, acceleration.y.isFinite { body.acceleration += acceleration }
        if force.x.isFinite, force.y.isFinite { body.force += force }
    }

    // MARK: Value noise

    /// The noise vector at `point` (reference coordinates) and animator time `time`, each
    /// component in [−1, 1].
    func noise(at point: Vec2, time: Double) -> Vec2 {
        let cell = 20 + 480 * smoothness.parameter(in: 0...1)
        let speed = animationSpeed.parameter(in: -1e6...1e6)
        let p = (point.x / cell, point.y / cell, time * speed)
        guard p.0.isFinite, p.1.isFinite, p.2.isFinite, abs(p.0) < 1e15, abs(p.1) < 1e15, abs(p.2) < 1e15 else { return .zero }
        return Vec2(Self.valueNoise(p, channel: 0), Self.valueNoise(p, channel: 1))
    }

    /// Trilinear smoothstep blend of the lattice values around `p`.
    static func valueNoise(_ p: (Double, Double, Double), channel: UInt64) -> Double {
        let (fx, fy, fz) = (p.0.rounded(.down), p.1.rounded(.down), p.2.rounded(.down))
        let (ix, iy, iz) = (Int64(fx), Int64(fy), Int64(fz))
        func smooth(_ u: Double) -> Double { u * u * (3 - 2 * u) }
        let (u, v, w) = (smooth(p.0 - fx), smooth(p.1 - fy), smooth(p.2 - fz))
        func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
        func corner(_ dx: Int64, _ dy: Int64, _ dz: Int64) -> Double {
            lattice(ix &+ dx, iy &+ dy, iz &+ dz, channel)
        }
        let z0 = lerp(lerp(corner(0, 0, 0), corner(1, 0, 0), u), lerp(corner(0, 1, 0), corner(1, 1, 0), u), v)
        let z1 = lerp(lerp(corner(0, 0, 1), corner(1, 0, 1), u), lerp(corner(0, 1, 1), corner(1, 1, 1), u), v)
        return lerp(z0, z1, w)
    }

    /// A pseudo-random value in [−1, 1] for a lattice point: SplitMix64's finaliser (Steele,
    /// Lea & Flood, "Fast splittable pseudorandom number generators", 2014) of the coordinates.
    static func lattice(_ x: Int64, _ y: Int64, _ z: Int64, _ channel: UInt64) -> Double {
        func mix(_ h: UInt64, _ c: Int64) -> UInt64 {
            var h = (h ^ UInt64(bitPattern: c)) &+ 0x9E37_79B9_7F4A_7C15
            h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
            h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
            return h ^ (h >> 31)
        }
        let h = mix(mix(mix(0x5EED_F1E1_D000_0000 &+ channel, x), y), z)
        return Double(h >> 11) / Double(1 << 52) - 1
    }
}
