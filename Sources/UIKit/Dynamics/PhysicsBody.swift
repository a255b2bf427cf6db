import Foundation

// The rigid-body solver behind UIKit Dynamics (UIDynamicAnimator and its behaviors).
//
// Design note
// ===========
// A small 2D rigid-body engine in the style Erin Catto describes in his GDC talks ("Fast and
// Simple Physics using Sequential Impulses", 2006; "Iterative Dynamics with Temporal
// Coherence", 2005) and that Box2D implements — written here from those descriptions:
//
// * Bodies are convex polygons about their centre (a dynamic item's bounds rectangle, an
//   ellipse as a 32-gon, the convex hull of a collision path); boundaries are static bodies
//   (line segments, and for the reference bounds four thick boxes outside the bounds).
// * Each step (`PhysicsWorld.step`): forces → velocities (semi-implicit Euler), contact
//   manifolds from the separating-axis test and incident-edge clipping, warm-started
//   sequential impulses for contacts (Coulomb friction, restitution as a velocity target) and
//   joints, positions from velocities, then non-linear Gauss–Seidel position correction, so
//   that pushing bodies apart never adds kinetic energy.
// * Units are UIKit's: points, seconds, radians; mass = density × area / 10 000 (a 100 × 100
//   item of density 1 has mass 1), so that forces come out in Apple's "UIKit newtons"
//   (`UIPushBehavior`). y grows downwards, as in the reference view.
// * Deterministic: bodies, pairs and joints are solved in array order; dictionaries are only
//   looked up, never iterated.

typealias Vec2 = SIMD2<Double>

extension SIMD2 where Scalar == Double {
    @inline(__always) func dot(_ other: Vec2) -> Double { x * other.x + y * other.y }
    /// The z component of the 3D cross product (self, 0) × (other, 0).
    @inline(__always) func cross(_ other: Vec2) -> Double { x * other.y - y * other.x }
    /// ω × r for an angular velocity ω about z.
    @inline(__always) static func angular(_ w: Double, cross r: Vec2) -> Vec2 { Vec2(-w * r.y, w * r.x) }
    @inline(__always) var length: Double { (x * x + y * y).squareRoot() }
    /// The vector turned by the angle whose cosine and sine are `c`, `s`.
    @inline(__always) func rotated(_ c: Double, _ s: Double) -> Vec2 { Vec2(c * x - s * y, s * x + c * y) }
    /// The vector turned back by that angle.
    @inline(__always) func unrotated(_ c: Double, _ s: Double) -> Vec2 { Vec2(c * x + s * y, -s * x + c * y) }
    var normalized: Vec2 {
        let l = length
        return l > 0 ? self / l : .zero
    }
}

/// One rigid body: a convex polygon about its centre of mass (`position`).
final class PhysicsBody {
    /// Vertices about the centre, body frame, in order around the polygon (2 for a segment).
    let vertices: [Vec2]
    /// Outward unit normal of the edge from vertex i to vertex i + 1, body frame.
    let normals: [Vec2]
    /// The largest distance from the centre to a vertex (the broad phase's circle).
    let radius: Double
    /// Area of the polygon (0 for a segment), square points.
    let area: Double
    /// Second moment of area about the centre (for the moment of inertia), points⁴.
    let polarMoment: Double

    var position: Vec2
    var angle: Double { didSet { cosAngle = cos(angle); sinAngle = sin(angle) } }
    private(set) var cosAngle = 1.0
    private(set) var sinAngle = 0.0
    var velocity = Vec2.zero
    var angularVelocity = 0.0

    /// 0 for a static or anchored body.
    private(set) var inverseMass = 0.0
    private(set) var inverseInertia = 0.0

    var elasticity = 0.0
    var friction = 0.0
    /// A collision boundary (static): contacts with it use the item's own friction.
    var isBoundary = false
    /// Linear and angular velocity damping rates (s⁻¹).
    var linearDamping = 0.0
    var angularDamping = 0.0
    /// Electric charge (`UIDynamicItemBehavior.charge`), for the electric and magnetic fields.
    var charge = 0.0

    /// Acceleration that acts whatever the mass (gravity), points/s²; summed each step.
    var acceleration = Vec2.zero
    /// Force (UIKit newtons) and torque summed each step.
    var force = Vec2.zero
    var torque = 0.0

    /// Vertices and normals in world space, refreshed by `updateWorldShape()`.
    private(set) var worldVertices: [Vec2]
    private(set) var worldNormals: [Vec2]

    /// A polygon body (`vertices` convex, in order) or a segment (2 vertices), at `position`.
    init(vertices: [Vec2], position: Vec2, angle: Double) {
        self.vertices = vertices
        let n = vertices.count
        var normals = [Vec2]()
        if n == 2 {
            let d = (vertices[1] - vertices[0]).normalized
            normals = [Vec2(d.y, -d.x), Vec2(-d.y, d.x)]
        } else {
            let centroid = vertices.reduce(Vec2.zero, +) / Double(max(n, 1))
            for i in 0..<n {
                let e = (vertices[(i + 1) % n] - vertices[i]).normalized
                var normal = Vec2(e.y, -e.x)
                if normal.dot(vertices[i] - centroid) < 0 { normal = -normal }
                normals.append(normal)
            }
        }
        self.normals = normals
        radius = vertices.map(\.length).max() ?? 0
        // Area and polar second moment of a polygon about the origin, as a fan of triangles.
        var area = 0.0, moment = 0.0
        if n > 2 {
            for i in 0..<n {
                let a = vertices[i], b = vertices[(i + 1) % n]
                let triangle = abs(a.cross(b)) / 2
                area += triangle
                moment += triangle * (a.dot(a) + a.dot(b) + b.dot(b)) / 6
            }
        }
        self.area = area
        polarMoment = moment
        self.position = position
        self.angle = angle
        cosAngle = cos(angle)
        sinAngle = sin(angle)
        worldVertices = vertices
        worldNormals = normals
        updateWorldShape()
    }

    /// Mass from `density` (per 100 × 100 points), or none (static) when `density` ≤ 0 or the
    /// body has no area; `rotates` false gives it no rotational freedom.
    func setMass(density: Double, rotates: Bool) {
        if density > 0, area > 0, density.isFinite {
            let inertia = density * polarMoment / 10_000
            inverseMass = 10_000 / (density * area)
            inverseInertia = rotates && inertia > 0 ? 1 / inertia : 0
        } else {
            inverseMass = 0
            inverseInertia = 0
        }
    }

    var isStatic: Bool { inverseMass == 0 }

    /// A body-frame point in world space.
    @inline(__always) func worldPoint(_ local: Vec2) -> Vec2 { position + local.rotated(cosAngle, sinAngle) }
    /// A world point in the body frame.
    @inline(__always) func localPoint(_ world: Vec2) -> Vec2 { (world - position).unrotated(cosAngle, sinAngle) }
    /// Velocity of the body's material at offset `r` from its centre (world frame).
    @inline(__always) func velocity(at r: Vec2) -> Vec2 { velocity + .angular(angularVelocity, cross: r) }

    /// Applies `impulse` at offset `r` from the centre.
    @inline(__always) func applyImpulse(_ impulse: Vec2, at r: Vec2) {
        velocity += inverseMass * impulse
        angularVelocity += inverseInertia * r.cross(impulse)
    }

    func updateWorldShape() {
        for i in vertices.indices {
            worldVertices[i] = worldPoint(vertices[i])
            worldNormals[i] = normals[i].rotated(cosAngle, sinAngle)
        }
    }

    /// The axis-aligned box around the body in world space.
    var worldBounds: CGRect {
        var minP = Vec2(.infinity, .infinity), maxP = Vec2(-.infinity, -.infinity)
        for v in vertices {
            let w = worldPoint(v)
            minP = pointwiseMin(minP, w); maxP = pointwiseMax(maxP, w)
        }
        return CGRect(x: minP.x, y: minP.y, width: maxP.x - minP.x, height: maxP.y - minP.y)
    }
}
