import Foundation

// Narrow phase: the contact manifold of two convex polygons (or a polygon and a segment), by
// the separating-axis test and clipping of the incident edge against the reference face's side
// planes (the method of Catto's "Contact Manifolds", GDC 2007). At most two points.

/// Where two bodies touch: a reference face on `reference` and up to two points of the
/// `incident` body's edge behind it. Points are kept in the bodies' frames so that the position
/// correction can recompute them as the bodies move.
struct ContactManifold {
    /// Indices of the bodies in the world's body list: the normal points from `reference` into
    /// `incident`.
    var reference: Int
    var incident: Int
    /// Face normal and a point of the face, reference body frame.
    var localNormal: Vec2
    var localFacePoint: Vec2
    /// The points: `first`, then `second` when `count` is 2 (no per-step allocation).
    var first = ContactPoint()
    var second = ContactPoint()
    var count = 0
    /// Combined restitution (the larger) and friction (the geometric mean, as Box2D; a boundary
    /// takes the item's own) coefficients.
    var elasticity: Double
    var friction: Double
    /// World normal, refreshed each step before the velocity iterations.
    var normal = Vec2.zero
    /// Rolling resistance of the pair: the largest angular impulse is this × the normal
    /// impulse (see `PhysicsWorld.rollingResistance`); 0 without friction.
    var rollingLimit = 0.0
    var rollingMass = 0.0
    var rollingImpulse = 0.0

    init(reference: Int, incident: Int, localNormal: Vec2, localFacePoint: Vec2, elasticity: Double, friction: Double) {
        self.reference = reference
        self.incident = incident
        self.localNormal = localNormal
        self.localFacePoint = localFacePoint
        self.elasticity = elasticity
        self.friction = friction
    }

    mutating func append(_ point: ContactPoint) {
        if count == 0 { first = point } else { second = point }
        count += 1
    }

    /// Point `i` (0 or 1).
    subscript(i: Int) -> ContactPoint {
        get { i == 0 ? first : second }
        set { if i == 0 { first = newValue } else { second = newValue } }
    }
}

struct ContactPoint {
    /// The incident body's point, in its frame.
    var localIncidentPoint = Vec2.zero
    /// Which edges and which end of the clipped edge made it (matches points across steps).
    var feature = -1
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    // Per-step solver data.
    var rReference = Vec2.zero
    var rIncident = Vec2.zero
    var normalMass = 0.0
    var tangentMass = 0.0
    var velocityBias = 0.0
}

enum Collision {
    /// The face of `a` along whose normal `b` lies farthest out: (edge, separation).
    static func maxSeparation(_ a: PhysicsBody, _ b: PhysicsBody) -> (edge: Int, separation: Double) {
        var best = -Double.infinity, bestEdge = 0
        let av = a.worldVertices, an = a.worldNormals, bv = b.worldVertices
        for i in av.indices {
            let n = an[i], v = av[i]
            var deepest = Double.infinity
            for w in bv { deepest = min(deepest, n.dot(w - v)) }
            if deepest > best { best = deepest; bestEdge = i }
        }
        return (bestEdge, best)
    }

    /// The manifold of bodies `ia` and `ib` (world shapes up to date), or nil when apart.
    static func manifold(_ ia: Int, _ a: PhysicsBody, _ ib: Int, _ b: PhysicsBody) -> ContactManifold? {
        let (edgeA, sepA) = maxSeparation(a, b)
        if sepA > 0 { return nil }
        let (edgeB, sepB) = maxSeparation(b, a)
        if sepB > 0 { return nil }
        // Prefer A's face unless B's is clearly better (keeps the choice stable between steps).
        let flip = sepB > sepA + 0.05
        let (ri, ref, refEdge, ii, inc) = flip ? (ib, b, edgeB, ia, a) : (ia, a, edgeA, ib, b)
        let rv = ref.worldVertices, n = ref.worldNormals[refEdge]
        let v1 = rv[refEdge], v2 = rv[(refEdge + 1) % rv.count]
        // Incident edge: the one whose normal is most opposed to the reference normal.
        var incEdge = 0, most = Double.infinity
        for (i, m) in inc.worldNormals.enumerated() where n.dot(m) < most { most = n.dot(m); incEdge = i }
        let iv = inc.worldVertices
        let tangent = (v2 - v1).normalized
        guard let side = clip(iv[incEdge], iv[(incEdge + 1) % iv.count], normal: -tangent, offset: -tangent.dot(v1)),
              let clipped = clip(side.0, side.1, normal: tangent, offset: tangent.dot(v2)) else { return nil }
        var manifold = ContactManifold(reference: ri, incident: ii, localNormal: n.unrotated(ref.cosAngle, ref.sinAngle),
                                       localFacePoint: ref.localPoint(v1),
                                       elasticity: max(a.elasticity, b.elasticity),
                                       friction: a.isBoundary ? b.friction : b.isBoundary ? a.friction : (a.friction * b.friction).squareRoot())
        for k in 0..<2 {
            let p = k == 0 ? clipped.0 : clipped.1
            guard n.dot(p - v1) <= 0 else { continue }
            let feature = ((refEdge * 64 + incEdge) * 2 + k) * 2 + (flip ? 1 : 0)
            manifold.append(ContactPoint(localIncidentPoint: inc.localPoint(p), feature: feature))
        }
        return manifold.count == 0 ? nil : manifold
    }

    /// The part of segment p0 p1 where n·p ≤ offset, nil when less than a segment is left.
    private static func clip(_ p0: Vec2, _ p1: Vec2, normal: Vec2, offset: Double) -> (Vec2, Vec2)? {
        let d0 = normal.dot(p0) - offset, d1 = normal.dot(p1) - offset
        if d0 <= 0 && d1 <= 0 { return (p0, p1) }
        if d0 * d1 >= 0 { return nil }
        let cut = p0 + (d0 / (d0 - d1)) * (p1 - p0)
        return d0 <= 0 ? (p0, cut) : (cut, p1)
    }
}
