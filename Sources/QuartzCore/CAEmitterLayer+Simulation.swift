import Foundation

/// The particles of an emitter layer at a time, in closed form (no stepping, no state kept
/// between frames): the same layer, time and `seed` give the same particles, whatever frames
/// were drawn before, so frames can be drawn in any order or in parallel.
///
/// Time. The emitter's time τ is the layer's local time (its `beginTime`, `speed`, `timeOffset`
/// and its ancestors' applied). A cell with effective birth rate R = cell.birthRate ×
/// layer.birthRate (> 0) emits particle k = 0, 1, 2, … at emitter time s_k = k / R, as long as
/// s_k lies in the cell's emission window [max(0, cell.beginTime), cell.beginTime +
/// cell.duration) (no end when duration is 0). Particle k is alive at τ when
/// 0 ≤ age = τ − s_k < life_k, so with a fixed lifetime L the count alive is the number of
/// integers k ≥ 0 with τ − L < k / R ≤ τ. After a model change at time c (see
/// `CAEmitterLayer+BirthValues.swift`) the cell goes on from the count N = R_before·(c − start)
/// + N_before it had reached: particle k ≥ N is born at s_k = c + (k − N) / R_after, and the
/// particles born before c keep the values from before it.
///
/// Randomness. Every value drawn at birth is u ∈ [0, 1) from a counter-based hash (SplitMix64's
/// finalizer) of (seed, the cell's place among its siblings, k, the parent particle's key, the
/// attribute): a pure function of those numbers. A ranged value is value + range·(2u − 1).
///
/// Particle k of a cell (layer multipliers written m·; every value is the one in effect at its
/// birth, see `CAEmitterLayer+BirthValues.swift`):
///
///     life   = (lifetime + lifetimeRange·(2u₀ − 1))·m.lifetime
///     speed  = (velocity + velocityRange·(2u₁ − 1))·m.velocity
///     dir    = uniform on the cone of half-angle min(|emissionRange|, π) around
///              (cos lat·cos lon, cos lat·sin lon, sin lat)   (u₂: cos θ = 1 − u₂(1 − cos range), u₃: azimuth)
///     p₀     = a point of the emitter shape (u₄…u₇; `CAEmitterLayerEmitterShape`, `…Mode`)
///     p(age) = p₀ + dir·speed·age + ½·(xAcceleration, yAcceleration, zAcceleration)·age²
///     scale  = (scale + scaleRange·(2u₈ − 1) + scaleSpeed·age)·m.scale
///     angle  = (spin + spinRange·(2u₉ − 1))·m.spin·age
///     colour = clamp₀₁(color + range·(2u − 1) + speed·age), per component (u₁₀…u₁₃: r, g, b, a)
///
/// A cell's sub-cells (`emitterCells` of a cell) emit from each of its particles: their emitter
/// time is the parent's age, their window is also cut at the parent's life, and their p₀ is the
/// parent's position when they are born; they then live on their own (they may outlive it).
///
/// Limits (documented, not silent): at most `maxParticles` particles per layer and frame (the
/// oldest cells' particles come first); a cell whose k would pass 2⁵² at τ emits nothing.
extension CAEmitterLayer {
    /// One particle alive at the asked time (Citrine extension, for renderers and tests).
    public struct Particle: Sendable {
        /// In the layer's coordinates (points); z along the layer's normal.
        public var x: Double, y: Double, z: Double
        /// Rotation (radians, positive turns +x towards +y).
        public var angle: Double
        public var scale: Double
        /// Multiplies the cell's contents, 0…1 each.
        public var red: Float, green: Float, blue: Float, alpha: Float
        /// Emitter time of its birth and its age (seconds).
        public var birthTime: Double, age: Double
        /// Index in `ParticleFrame.cells` of the cell it belongs to.
        public var cell: Int
    }

    /// The particles of one time and the cells they belong to, in drawing order for the
    /// layer's `renderMode`. Reuse one value across frames: its storage is kept.
    public struct ParticleFrame {
        /// The enabled cells the particles were born with, parents before their sub-cells (a cell
        /// whose values changed while its particles live is here once per set of values: the
        /// layer's copy from before a change, or the values of an animation step).
        public internal(set) var cells: [CAEmitterCell] = []
        public internal(set) var particles: [Particle] = []
        /// The values of the birth steps the last frame of each emitter drew, for the next.
        var birthSteps = BirthStepCache()
        public init() {}
    }

    /// Most particles computed per layer and frame.
    public static let maxParticles = 1 << 20

    /// The particles alive at media time `now` (call it on a presentation copy), each with the
    /// values in effect at its birth, in drawing order: `.oldestFirst` by birth, `.oldestLast`
    /// youngest first, `.backToFront` by z (most negative first), `.unordered` and `.additive`
    /// cell by cell in emission order.
    public func _particles(atMediaTime now: CFTimeInterval, into frame: inout ParticleFrame) {
        frame.cells.removeAll(keepingCapacity: true)
        frame.particles.removeAll(keepingCapacity: true)
        let model = self.model()
        let tau = model.localTime(fromMediaTime: now)
        guard tau.isFinite else { return }
        let history = model.birthHistory
        let animated = AnimatedBirthValues(model: model, now: tau)
        let steps = animated.map { frame.birthSteps.steps(of: model, token: $0.token) }
        defer { steps?.endFrame() }
        let sim = Simulation(seed: UInt64(seed))
        for segment in history.past where segment.end > tau - segment.reach {
            emitSegment(start: segment.start, end: segment.end, counts: segment.counts, values: segment.values,
                        rates: segment.values, animated: animated, steps: steps, sim: sim, now: tau, frame: &frame)
        }
        // The current segment: the presented birth rates, the model's values (with animations at
        // each birth step) or, without animations, the presented ones (the same).
        emitSegment(start: history.currentStart, end: .infinity, counts: history.currentCounts,
                    values: animated == nil ? self : model, rates: self, animated: animated, steps: steps, sim: sim,
                    now: tau, frame: &frame)
        switch renderMode {
        case .oldestFirst: frame.particles.sort { $0.birthTime < $1.birthTime }
        case .oldestLast: frame.particles.sort { $0.birthTime > $1.birthTime }
        case .backToFront: frame.particles.sort { $0.z < $1.z }
        default: break
        }
    }

    /// Emits the particles born in [start, end) of emitter time that are alive at `now`: each
    /// top-level cell of `values` continues from `counts` at the birth rate of the same cell of
    /// `rates`; a particle takes `values` (with `animated` applied at its birth step, whose
    /// plans `steps` keeps from frame to frame).
    private func emitSegment(start: Double, end: Double, counts: [Double], values: CAEmitterLayer, rates: CAEmitterLayer,
                             animated: AnimatedBirthValues?, steps: EmitterBirthSteps?, sim: Simulation, now: Double,
                             frame: inout ParticleFrame) {
        guard let cells = values.readableCells, !cells.isEmpty, now >= start else { return }
        let base = cells.enumerated().map { CellPlan($1, sibling: $0, layer: values, cells: &frame.cells) }
        let rateCells = rates.emitterCells ?? []
        let segmentSteps = animated == nil ? nil : steps?.segment(of: values, base: base)
        // The particles are appended outside `frame` while the steps' cells append to its cells.
        var particles: [Particle] = []
        swap(&particles, &frame.particles)
        defer { swap(&particles, &frame.particles) }
        for (i, plan) in base.enumerated() {
            guard let plan else { continue }
            let rate = i < rateCells.count && rateCells[i].isEnabled
                ? Double(rateCells[i].birthRate) * Double(rates.birthRate) : plan.rate
            let span = EmissionSpan(start: start, end: end, count: i < counts.count ? counts[i] : 0, rate: rate)
            sim.emit(plan, span: span, originTime: 0, window: (0, .infinity), parentKey: 0, parent: nil, now: now,
                     into: &particles) { s in
                guard let animated, let segmentSteps else { return (plan, 0) }
                let step = segmentSteps.step(AnimatedBirthValues.step(of: s), appendingCellsTo: &frame.cells) {
                    animated.values(of: values, atStep: $0)
                }
                return i < step.plans.count ? step.plans[i].map { ($0, step.cellBase) } ?? (plan, 0) : (plan, 0)
            }
        }
    }
}

/// When a cell emits: from emitter time `start` (when it had emitted `count` particles) until
/// `end`, `rate` per second; particle k is born at start + (k − count) / rate.
struct EmissionSpan {
    let start: Double, end: Double, count: Double, rate: Double
}

/// A cell's values with the layer's multipliers applied, read once per frame (a birth step's:
/// once while frames draw particles born in it, `BirthStepCache`).
struct CellPlan: Equatable {
    let index: Int, sibling: UInt64
    let rate: Double, begin: Double, end: Double
    let life: Double, lifeRange: Double, speed: Double, speedRange: Double
    let direction: SIMD3<Double>, across: (SIMD3<Double>, SIMD3<Double>), cosRange: Double
    let acceleration: SIMD3<Double>
    let scale: Double, scaleRange: Double, scaleSpeed: Double, spin: Double, spinRange: Double
    let color: SIMD4<Double>, colorRange: SIMD4<Double>, colorSpeed: SIMD4<Double>
    let children: [CellPlan]
    /// Longest a particle or any of its descendants can be alive after the particle's birth.
    let reach: Double
    /// Where its particles start (the layer's emitter shape; a sub-cell's start at their parent).
    let shape: EmitterShapeSampler

    /// The plan of `cell` of `layer`, appending it and its enabled sub-cells to `cells` (`index`:
    /// its place there).
    init?(_ cell: CAEmitterCell, sibling: Int, layer: CAEmitterLayer, cells: inout [CAEmitterCell]) {
        guard cell.isEnabled else { return nil }
        index = cells.count
        cells.append(cell)
        self.sibling = UInt64(sibling)
        rate = Double(cell.birthRate) * Double(layer.birthRate)
        begin = max(0, cell.beginTime)
        end = cell.duration > 0 ? cell.beginTime + cell.duration : .infinity
        life = Double(cell.lifetime) * Double(layer.lifetime)
        lifeRange = Double(cell.lifetimeRange) * Double(layer.lifetime)
        speed = Double(cell.velocity) * Double(layer.velocity)
        speedRange = Double(cell.velocityRange) * Double(layer.velocity)
        let lat = Double(cell.emissionLatitude), lon = Double(cell.emissionLongitude)
        direction = SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
        let side = SIMD3(-sin(lon), cos(lon), 0)
        across = (side, Self.cross(direction, side))
        cosRange = cos(min(abs(Double(cell.emissionRange)), .pi))
        acceleration = SIMD3(Double(cell.xAcceleration), Double(cell.yAcceleration), Double(cell.zAcceleration))
        scale = Double(cell.scale) * Double(layer.scale)
        scaleRange = Double(cell.scaleRange) * Double(layer.scale)
        scaleSpeed = Double(cell.scaleSpeed) * Double(layer.scale)
        spin = Double(cell.spin) * Double(layer.spin)
        spinRange = Double(cell.spinRange) * Double(layer.spin)
        let c = cell.color?.rgba ?? (r: 0, g: 0, b: 0, a: 0)
        color = SIMD4(Double(c.r), Double(c.g), Double(c.b), Double(c.a))
        colorRange = SIMD4(Double(cell.redRange), Double(cell.greenRange), Double(cell.blueRange), Double(cell.alphaRange))
        colorSpeed = SIMD4(Double(cell.redSpeed), Double(cell.greenSpeed), Double(cell.blueSpeed), Double(cell.alphaSpeed))
        shape = EmitterShapeSampler(layer)
        children = (cell.emitterCells ?? []).enumerated().compactMap { CellPlan($1, sibling: $0, layer: layer, cells: &cells) }
        reach = BirthHistory.longestLife(cell, lifetime: Double(layer.lifetime)) + (children.map(\.reach).max() ?? 0)
    }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// Whether both plans give particles the same values (their places among the cells aside).
    static func == (a: CellPlan, b: CellPlan) -> Bool {
        guard a.sibling == b.sibling, a.rate == b.rate, a.begin == b.begin, a.end == b.end, a.life == b.life,
              a.lifeRange == b.lifeRange, a.speed == b.speed, a.speedRange == b.speedRange else { return false }
        guard a.direction == b.direction, a.across == b.across, a.cosRange == b.cosRange,
              a.acceleration == b.acceleration, a.shape == b.shape, a.reach == b.reach else { return false }
        guard a.scale == b.scale, a.scaleRange == b.scaleRange, a.scaleSpeed == b.scaleSpeed, a.spin == b.spin,
              a.spinRange == b.spinRange else { return false }
        return a.color == b.color && a.colorRange == b.colorRange && a.colorSpeed == b.colorSpeed && a.children == b.children
    }
}

/// Counter-based random numbers and the emission walk.
private struct Simulation {
    let seed: UInt64

    /// SplitMix64's output function: a bijective mix of all 64 bits.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// u ∈ [0, 1) for attribute `slot` of the particle keyed `key` (53 random bits).
    @inline(__always)
    static func unit(_ key: UInt64, _ slot: UInt64) -> Double {
        Double(mix(key &+ slot &* 0xD1B5_4A32_D192_ED03) >> 11) * 0x1p-53
    }

    /// A parent particle's motion, for its sub-cells.
    struct Parent {
        var p0: SIMD3<Double>, v: SIMD3<Double>, a: SIMD3<Double>
        func position(atAge t: Double) -> SIMD3<Double> { p0 + v * t + 0.5 * a * (t * t) }
    }

    /// Emits the particles of a cell alive at absolute emitter time `now` for an emitter whose
    /// time 0 is `originTime`, born in `span` (its own times) inside `window`, and recurses into
    /// sub-cells. A particle takes the values `valuesAt(its birth time)` gives, with where that
    /// plan's cells start in the frame's cells (sub-cells take theirs with their parent);
    /// `plan`'s reach bounds how far back births are looked for.
    func emit(_ plan: CellPlan, span: EmissionSpan, originTime: Double, window: (Double, Double), parentKey: UInt64,
              parent: Parent?, now: Double, into out: inout [CAEmitterLayer.Particle],
              valuesAt: (Double) -> (plan: CellPlan, cellBase: Int)) {
        let e = now - originTime
        let lo = max(window.0, plan.begin, span.start), hi = min(window.1, plan.end, span.end)
        let rate = span.rate
        guard rate > 0, rate.isFinite, hi > lo, e >= lo else { return }
        let first = span.count + (max(lo, e - plan.reach) - span.start) * rate
        let last = span.count + (min(e, hi) - span.start) * rate
        guard last < 0x1p52, first <= last else { return }
        var k = Int(first.rounded(.up))
        let kEnd = Int(last.rounded(.down))
        let cellKey = Self.mix(seed ^ Self.mix(parentKey &+ plan.sibling &* 0x9E37_79B9_7F4A_7C15))
        while k <= kEnd, out.count < CAEmitterLayer.maxParticles {
            defer { k += 1 }
            let s = span.start + (Double(k) - span.count) / rate
            guard s >= lo, s < hi, s <= e else { continue }
            let (values, cellBase) = valuesAt(s)
            let key = Self.mix(cellKey ^ UInt64(truncatingIfNeeded: k))
            let life = values.life + values.lifeRange * (2 * Self.unit(key, 0) - 1)
            let age = e - s
            let speed = values.speed + values.speedRange * (2 * Self.unit(key, 1) - 1)
            let p0 = parent.map { $0.position(atAge: s) } ?? values.shape.point(Self.unit(key, 4), Self.unit(key, 5),
                                                                                Self.unit(key, 6), Self.unit(key, 7))
            let v = direction(values, Self.unit(key, 2), Self.unit(key, 3)) * speed
            if age < life {
                let p = p0 + v * age + 0.5 * values.acceleration * (age * age)
                let color = (values.color + values.colorRange * SIMD4(2 * Self.unit(key, 10) - 1, 2 * Self.unit(key, 11) - 1,
                                                                      2 * Self.unit(key, 12) - 1, 2 * Self.unit(key, 13) - 1)
                             + values.colorSpeed * age).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
                out.append(.init(x: p.x, y: p.y, z: p.z,
                                 angle: (values.spin + values.spinRange * (2 * Self.unit(key, 9) - 1)) * age,
                                 scale: values.scale + values.scaleRange * (2 * Self.unit(key, 8) - 1) + values.scaleSpeed * age,
                                 red: Float(color.x), green: Float(color.y), blue: Float(color.z), alpha: Float(color.w),
                                 birthTime: originTime + s, age: age, cell: cellBase + values.index))
            }
            guard !values.children.isEmpty, life > 0 else { continue }
            let me = Parent(p0: p0, v: v, a: values.acceleration)
            for child in values.children {
                emit(child, span: EmissionSpan(start: 0, end: .infinity, count: 0, rate: child.rate), originTime: originTime + s,
                     window: (0, life), parentKey: key, parent: me, now: now, into: &out) { _ in (child, cellBase) }
            }
        }
    }

    /// A direction uniformly distributed on the cone of the plan's half-angle (u: cos θ, w: azimuth).
    func direction(_ plan: CellPlan, _ u: Double, _ w: Double) -> SIMD3<Double> {
        guard plan.cosRange < 1 else { return plan.direction }
        let cosTheta = 1 - u * (1 - plan.cosRange)
        let sinTheta = max(0, 1 - cosTheta * cosTheta).squareRoot()
        let phi = 2 * Double.pi * w
        return plan.direction * cosTheta + (plan.across.0 * cos(phi) + plan.across.1 * sin(phi)) * sinTheta
    }
}

/// Points of the emitter shape, per Apple's documented geometry (see `CAEmitterLayerEmitterShape`)
/// and mode: `.volume` inside the shape, `.surface` on its surface (for the flat shapes: inside,
/// as their surface is their area), `.outline` on its edges (a circle's or sphere's: the circle
/// of radius emitterSize.width in the x-y plane), `.points` at its corners (a line's two ends; a
/// point, circle or sphere: its centre). Uniform by length, area or volume.
struct EmitterShapeSampler: Equatable {
    let centre: SIMD3<Double>, size: SIMD3<Double>
    let shape: CAEmitterLayerEmitterShape, mode: CAEmitterLayerEmitterMode

    init(_ layer: CAEmitterLayer) {
        centre = SIMD3(Double(layer.emitterPosition.x), Double(layer.emitterPosition.y), Double(layer.emitterZPosition))
        size = SIMD3(Double(layer.emitterSize.width), Double(layer.emitterSize.height), Double(layer.emitterDepth))
        shape = layer.emitterShape
        mode = layer.emitterMode
    }

    func point(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> SIMD3<Double> {
        switch shape {
        case .line: return centre + SIMD3(size.x * (mode == .points ? (a < 0.5 ? -0.5 : 0.5) : a - 0.5), 0, 0)
        case .rectangle: return centre + box(SIMD3(size.x, size.y, 0), a, b, c, d, flat: true)
        case .cuboid: return centre + box(size, a, b, c, d, flat: false)
        case .circle: return centre + round(radius: size.x, a, b, c, ball: false)
        case .sphere: return centre + round(radius: size.x, a, b, c, ball: true)
        default: return centre
        }
    }

    /// A point of the box of size `s` centred on the origin, for the mode.
    private func box(_ s: SIMD3<Double>, _ a: Double, _ b: Double, _ c: Double, _ d: Double, flat: Bool) -> SIMD3<Double> {
        let half = s * 0.5
        switch mode {
        case .points:
            let corner = Int(a * (flat ? 4 : 8))
            return SIMD3(corner & 1 == 0 ? -half.x : half.x, corner & 2 == 0 ? -half.y : half.y,
                         corner & 4 == 0 ? -half.z : half.z)
        case .outline:
            // Edges parallel to x, y, z (four of each in a cuboid, two of x and y in a rectangle).
            let lengths = SIMD3(s.x, s.y, flat ? 0 : s.z)
            let total = lengths.x + lengths.y + lengths.z
            guard total > 0 else { return .zero }
            let pick = d * total, edge = Int(b * (flat ? 2 : 4))
            let sign1 = edge & 1 == 0 ? -1.0 : 1.0, sign2 = edge & 2 == 0 ? -1.0 : 1.0
            if pick < lengths.x { return SIMD3(s.x * (a - 0.5), half.y * sign1, half.z * sign2) }
            if pick < lengths.x + lengths.y { return SIMD3(half.x * sign1, s.y * (a - 0.5), half.z * sign2) }
            return SIMD3(half.x * sign1, half.y * sign2, s.z * (a - 0.5))
        case .surface where !flat:
            // The six faces, chosen by area.
            let areas = SIMD3(s.y * s.z, s.x * s.z, s.x * s.y)   // faces normal to x, y, z
            let total = areas.x + areas.y + areas.z
            guard total > 0 else { return .zero }
            let pick = d * total, sign = c < 0.5 ? -1.0 : 1.0
            if pick < areas.x { return SIMD3(half.x * sign, s.y * (a - 0.5), s.z * (b - 0.5)) }
            if pick < areas.x + areas.y { return SIMD3(s.x * (a - 0.5), half.y * sign, s.z * (b - 0.5)) }
            return SIMD3(s.x * (a - 0.5), s.y * (b - 0.5), half.z * sign)
        default:
            return SIMD3(s.x * (a - 0.5), s.y * (b - 0.5), s.z * (c - 0.5))
        }
    }

    /// A point of the circle (x-y plane) or sphere of radius `r` centred on the origin.
    private func round(radius r: Double, _ a: Double, _ b: Double, _ c: Double, ball: Bool) -> SIMD3<Double> {
        let phi = 2 * Double.pi * b
        switch mode {
        case .points: return .zero
        case .outline: return SIMD3(r * cos(phi), r * sin(phi), 0)
        default:
            guard ball else { return SIMD3(cos(phi), sin(phi), 0) * (r * a.squareRoot()) }
            let z = 2 * c - 1, ring = max(0, 1 - z * z).squareRoot()
            let rho = mode == .surface ? r : r * Foundation.cbrt(a)
            return SIMD3(ring * cos(phi), ring * sin(phi), z) * rho
        }
    }
}
