import QuartzCore
import Raster

/// A replicator's instances (`CAReplicatorLayer`), at a cost that follows what reaches the
/// target.
///
/// Instance i (0 ≤ i < instanceCount) is the sublayers drawn under instanceTransform^i, acting
/// about the anchor point like a sublayerTransform, at media time t − i·instanceDelay, tinted by
/// instanceColor plus i times the colour offsets (Apple, instanceColor: "The color used to
/// multiply the source object"; the first instance is tinted too, left untinted only when the
/// colour is opaque white). An instance whose tint has alpha ≤ 0 is skipped, and once the alpha
/// can only fall further (instanceAlphaOffset ≤ 0) the loop ends. Within an instance the
/// sublayers keep their zPosition order, or depth order when one leans (`+DepthOrder`).
///
/// Culling: the sublayers' extent (`drawnExtent`: content, shadows and filter blurs, nested
/// replicators' instances) under instance i's map gives a device box; an instance whose box
/// misses the region it can show in — the canvas, within the replicator's bounds when
/// masksToBounds clips — is not drawn, which changes no pixel (the extent is conservative). The
/// extent is found once per frame; under a non-zero instanceDelay, when the sublayers change
/// with time, each instance shows them at its own time, and the instances split into at most
/// three runs (`instanceRuns`): those whose time lies within the span over which the sublayers
/// change (from the earliest begin to the latest end of their animations) get an extent each,
/// and the runs before and after it show one picture each, so one extent serves each run and
/// the rules below apply to it — an Int.max-instance replicator of a delayed animated sublayer
/// costs the changing instances plus the visible ones. Where the extent is unbounded (an
/// emitter or a CATransformLayer below, a running transition) no instance is culled, and a span
/// without end (an emitter, an animation repeating forever) leaves its side changing.
/// - A step that is a translation in the plane, on a replicator drawn without perspective,
///   moves the box by one device vector per instance: the instances of a run with one extent
///   that can reach the region form an index range, found in closed form, so the cost is that
///   of those instances whatever instanceCount is (10⁷, Int.max). Instance i is then placed by
///   i times the step (not by i products, which accumulate rounding), in every run.
/// - Any other step visits the instances in order, testing each box, and the loop ends early
///   when later instances cannot show: the step shrinks every direction (largest singular
///   value ≤ 1) and an instance measures under `vanishingSize` pixel across — every later one is
///   smaller still, and an outline that small covers under 1/1000 of any pixel, which area
///   coverage rounds to nothing (a retained bitmap is sampled at pixel centres instead, not by
///   area; ReplicatorCullingTests' spiral of such bitmaps keeps its pixels all the same) — or
///   the step grows every direction (smallest singular value > 1)
///   and an instance lies beyond a disc round the step's fixed point that holds the region,
///   which no later instance re-enters (each is at least that factor farther out).
/// - Either way at most `maxReplicatorInstances` instances are visited (tested or drawn) per
///   replicator and frame; `replicatorInstancesVisited` counts them.
extension LayerRenderer {
    /// Device pixels across below which a shrinking step's instances are not drawn (see above).
    static let vanishingSize: CGFloat = 1.0 / 32

    /// Draws the instances of the replicator `r` (its model `model`, layer → `surface` map
    /// `matrix`) into `surface`, each under `tint` as well when given.
    func drawInstances(_ model: CALayer, _ r: CAReplicatorLayer, matrix: CATransform3D, time: CFTimeInterval,
                       into surface: Pixmap, depth: Int, tint: Tint?) {
        let count = max(0, r.instanceCount)
        let drawer = InstanceDrawer(renderer: self, model: model, r: r, matrix: matrix, time: time, surface: surface,
                                    depth: depth, tint: tint, region: cullRegion(r, matrix: matrix, canvas: surface))
        let runs = Self.instanceRuns(model, r, count: count, time: time)
        let step = r._aboutAnchorPoint(r.instanceTransform)
        if let t = Self.translation(step), let affine = LayerGeometry.affine(matrix) {
            let d = (x: t.x * CGFloat(affine.a) + t.y * CGFloat(affine.c), y: t.x * CGFloat(affine.b) + t.y * CGFloat(affine.d))
            var visits = 0
            for run in runs where !run.range.isEmpty {
                guard let bound = drawer.bound(of: run) else { continue }
                var range = run.range
                if case .fixed(let extent?) = bound, let base = Self.image(of: extent.rect, under: matrix) {
                    range = Self.reachingRange(count: count, box: base, margin: extent.margin + Self.damageMargin, step: d,
                                               region: drawer.region).clamped(to: run.range)
                }
                for i in range {
                    guard visits < Self.maxReplicatorInstances else { return Self.reportInstanceLimit(r) }
                    visits += 1
                    let instance = CATransform3DMakeTranslation(CGFloat(i) * t.x, CGFloat(i) * t.y, 0)
                    guard drawer.visit(i, instance, bound) else { return }
                }
            }
            return
        }
        let limits = StepLimits(step: step, matrix: matrix)
        let last = runs.lastIndex { !$0.range.isEmpty }
        var instance = CATransform3DIdentity
        for (n, run) in runs.enumerated() where !run.range.isEmpty {
            let bound = drawer.bound(of: run)
            // No instance of the run can show: it draws nothing, or later ones shrink or grow away.
            var runIsDone = bound == nil
            for i in run.range {
                if runIsDone && n == last { return }
                guard i < Self.maxReplicatorInstances else { return Self.reportInstanceLimit(r) }
                // A growing instance transform overflows for good: nothing later can draw.
                guard LayerGeometry.isFinite(instance) else { return }
                if !runIsDone, let bound {
                    guard drawer.visit(i, instance, bound) else { return }
                    if case .fixed(let extent?) = bound {
                        runIsDone = limits.laterInstancesCannotShow(extent, instance, region: drawer.region)
                    }
                }
                instance = CATransform3DConcat(instance, step)
            }
        }
    }

    /// A run of consecutive instances: those whose sublayers change between them (`changes`),
    /// or those whose sublayers show one picture, found once for all of them.
    struct InstanceRun {
        let range: Range<Int>
        let changes: Bool
    }

    /// The instances 0..<`count` of `r` in index order, as at most three runs (Apple: instance i
    /// shows the sublayers at t − i·instanceDelay). Under a non-zero delay, the instances whose
    /// shifted time lies within the span over which the sublayers change
    /// (`sublayersChangeSpan`) change between them; those before it all show the picture of
    /// before it (no animation begun), those after it that of after it (every one ended,
    /// holding or gone) — the runs either side, in an order that depends on the delay's sign.
    /// The span is widened by a rounding allowance of 10⁻⁹ of the times involved, and the
    /// changing run by one instance at each end (`axisRange`), so a run counted as fixed never
    /// holds an instance whose time the layers' conversions could put inside the span.
    static func instanceRuns(_ model: CALayer, _ r: CAReplicatorLayer, count: Int, time: CFTimeInterval) -> [InstanceRun] {
        guard r.instanceDelay != 0, count > 1, let span = sublayersChangeSpan(model) else {
            return [InstanceRun(range: 0 ..< count, changes: false)]
        }
        let finite = [time, span.from, span.to].filter(\.isFinite).map(abs).max() ?? 0
        let slack = 1e-9 * (1 + finite)
        // Instance i's time t − i·delay is the interval [t, t] moved by i·(−delay).
        let changing = axisRange(count: count, lo: time, hi: time, step: -r.instanceDelay,
                                 from: span.from - slack, to: span.to + slack)
        return [InstanceRun(range: 0 ..< changing.lowerBound, changes: false), InstanceRun(range: changing, changes: true),
                InstanceRun(range: changing.upperBound ..< count, changes: false)]
    }

    /// The device box instances can show in: the canvas, within the replicator's bounds
    /// (antialiased edge included) when masksToBounds clips its sublayers.
    func cullRegion(_ r: CALayer, matrix: CATransform3D, canvas: Pixmap) -> LayerGeometry.IntBox {
        let all = LayerGeometry.IntBox(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height)
        guard r.masksToBounds, let clip = Self.image(of: r.bounds, under: matrix),
              let box = LayerGeometry.deviceBox(clip, CATransform3DIdentity, margin: 1) else { return all }
        return all.intersection(box)
    }

    /// Instance indices i in 0..<count whose box — `box` moved by i·`step`, grown by `margin` —
    /// can overlap `region`, with one to spare at each end; all of them when the arithmetic
    /// does not say.
    static func reachingRange(count: Int, box: CGRect, margin: CGFloat, step: (x: CGFloat, y: CGFloat),
                              region: LayerGeometry.IntBox) -> Range<Int> {
        let x = axisRange(count: count, lo: box.minX - margin, hi: box.maxX + margin, step: step.x,
                          from: CGFloat(region.x0), to: CGFloat(region.x1))
        let y = axisRange(count: count, lo: box.minY - margin, hi: box.maxY + margin, step: step.y,
                          from: CGFloat(region.y0), to: CGFloat(region.y1))
        let lower = max(x.lowerBound, y.lowerBound)
        return lower ..< max(lower, min(x.upperBound, y.upperBound))
    }

    /// Along one axis: indices i whose interval [lo + i·step, hi + i·step] can overlap [from, to).
    static func axisRange(count: Int, lo: CGFloat, hi: CGFloat, step: CGFloat, from: CGFloat, to: CGFloat) -> Range<Int> {
        guard step != 0 else { return lo < to && hi > from ? 0 ..< count : 0 ..< 0 }
        let u = (from - hi) / step, v = (to - lo) / step
        guard !u.isNaN, !v.isNaN else { return 0 ..< count }
        /// `x` as an index clamped to 0…count (x is not NaN).
        func index(_ x: CGFloat) -> Int { x <= 0 ? 0 : x >= CGFloat(count) ? count : Int(x) }
        let first = index(min(u, v).rounded(.down) - 1), end = index(max(u, v).rounded(.up) + 2)
        return first ..< max(first, end)
    }

    /// How an instance's device box is found: from its sublayers' extent at its own time
    /// (`each`), or from one extent for a run of instances whose sublayers show one picture
    /// (`fixed`; nil: unbounded, nothing is culled).
    enum InstanceBound {
        case each
        case fixed(DrawnExtent?)
    }

    /// What draws one instance: its tint, its cull test and its sublayers.
    struct InstanceDrawer {
        let renderer: LayerRenderer
        let model: CALayer, r: CAReplicatorLayer
        let matrix: CATransform3D, time: CFTimeInterval
        let surface: Pixmap, depth: Int, tint: Tint?
        let region: LayerGeometry.IntBox
        let byDepth: Bool
        let ordered: [CALayer]
        let tintsFirst: Bool

        init(renderer: LayerRenderer, model: CALayer, r: CAReplicatorLayer, matrix: CATransform3D, time: CFTimeInterval,
             surface: Pixmap, depth: Int, tint: Tint?, region: LayerGeometry.IntBox) {
            self.renderer = renderer; self.model = model; self.r = r; self.matrix = matrix; self.time = time
            self.surface = surface; self.depth = depth; self.tint = tint; self.region = region
            byDepth = renderer.sublayersNeedDepthOrder(model.sublayers ?? [], r, time: time)
            ordered = byDepth ? [] : renderer.drawingOrder(model, r, time: time)
            tintsFirst = r.instanceColor != CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        }

        /// The media time instance `i` shows its sublayers at.
        func shiftedTime(_ i: Int) -> CFTimeInterval { time - CFTimeInterval(i) * r.instanceDelay }

        /// How the boxes of `run`'s instances are found; nil when its sublayers draw nothing.
        /// A fixed run's extent is that at its first instance's time, found when the run is
        /// reached (evaluating a time past an animation's end may remove it, as drawing there
        /// does: the extent sees what the run's instances draw).
        func bound(of run: InstanceRun) -> InstanceBound? {
            guard !run.changes else { return .each }
            guard let extent = renderer.sublayersExtent(model, r, time: shiftedTime(run.range.lowerBound)) else {
                return .fixed(nil)
            }
            return extent.map { .fixed($0) }
        }

        /// Visits instance `i` under `instance` (its instance transform), its box found as
        /// `bound` says: draws it unless it is invisible or misses the region. False when no
        /// later instance can draw (its alpha is ≤ 0 and cannot rise).
        func visit(_ i: Int, _ instance: CATransform3D, _ bound: InstanceBound) -> Bool {
            renderer.replicatorInstancesVisited += 1
            let instanceTint = i == 0 && !tintsFirst ? nil : r._instanceColorComponents(i)
            if let instanceTint, instanceTint.a <= 0 { return r.instanceAlphaOffset > 0 }
            let shifted = shiftedTime(i)
            let m = CATransform3DConcat(instance, matrix)
            guard reaches(m, at: shifted, bound) else { return true }
            let combinedTint = LayerRenderer.combined(instanceTint, tint)
            if byDepth {
                renderer.drawInDepthOrder(model, r, childMatrix: m, toSpace: instance, spaceToDevice: LayerRenderer.ignoringZ(matrix),
                                          time: shifted, into: surface, depth: depth, tint: combinedTint)
            }
            for child in ordered {
                renderer.draw(child, parentMatrix: m, parentPresentation: r, time: shifted, into: surface, depth: depth + 1,
                              tint: combinedTint)
            }
            return true
        }

        /// Whether the instance drawn under `m` at `time` can touch the region.
        private func reaches(_ m: CATransform3D, at time: CFTimeInterval, _ bound: InstanceBound) -> Bool {
            let extent: DrawnExtent
            switch bound {
            case .each:
                guard let own = renderer.sublayersExtent(model, r, time: time) else { return true }
                guard let own else { return false }
                extent = own
            case .fixed(let fixed):
                guard let fixed else { return true }
                extent = fixed
            }
            guard let image = LayerRenderer.image(of: extent.rect, under: m),
                  let box = LayerGeometry.deviceBox(image, CATransform3DIdentity, margin: extent.margin + LayerRenderer.damageMargin)
            else { return true }
            return box.intersects(region)
        }
    }

    /// When a step other than a translation lets the instance loop end early (see above): the
    /// step's linear part in the plane and its fixed point, with the replicator's affine map.
    struct StepLimits {
        /// Largest and smallest singular values of the step's 2×2 linear part; nil when the step
        /// or the map is not affine in the plane.
        let stretch: (max: CGFloat, min: CGFloat)?
        /// The largest singular value of the replicator's layer → device map.
        let mapStretch: CGFloat
        /// The step's fixed point (layer space), when it grows every direction.
        let center: CGPoint?
        /// Layer → device map, inverted.
        let inverse: Transform?

        init(step: CATransform3D, matrix: CATransform3D) {
            guard let map = LayerGeometry.affine(matrix), step.m13 == 0, step.m14 == 0, step.m23 == 0, step.m24 == 0,
                  step.m31 == 0, step.m32 == 0, step.m33 == 1, step.m34 == 0, step.m43 == 0, step.m44 == 1 else {
                (stretch, mapStretch, center, inverse) = (nil, 0, nil, nil)
                return
            }
            stretch = Self.singularValues(step.m11, step.m12, step.m21, step.m22)
            mapStretch = Self.singularValues(CGFloat(map.a), CGFloat(map.b), CGFloat(map.c), CGFloat(map.d)).max
            inverse = map.inverted()
            // p' = p·L + t has the fixed point c = t·(I − L)⁻¹.
            let (p, q, r, s) = (1 - step.m11, -step.m12, -step.m21, 1 - step.m22)
            let det = p * s - q * r
            let c = CGPoint(x: (step.m41 * s - step.m42 * r) / det, y: (step.m42 * p - step.m41 * q) / det)
            center = (stretch?.min ?? 0) > 1 && c.x.isFinite && c.y.isFinite ? c : nil
        }

        /// The singular values of the 2×2 matrix [[a, b], [c, d]].
        static func singularValues(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> (max: CGFloat, min: CGFloat) {
            let sum = a * a + b * b + c * c + d * d, det = a * d - b * c
            let root = (max(0, sum * sum - 4 * det * det)).squareRoot()
            return ((max(0, sum + root) / 2).squareRoot(), (max(0, sum - root) / 2).squareRoot())
        }

        /// Whether no instance after the one under `instance` can show in `region`: they all
        /// shrink below `vanishingSize`, or they all lie beyond it from the fixed point.
        func laterInstancesCannotShow(_ extent: DrawnExtent, _ instance: CATransform3D, region: LayerGeometry.IntBox) -> Bool {
            guard let stretch, let box = LayerRenderer.image(of: extent.rect, under: instance) else { return false }
            if stretch.max <= 1 {
                let across = (box.width * box.width + box.height * box.height).squareRoot() * mapStretch
                return across < LayerRenderer.vanishingSize
            }
            guard let center, let inverse else { return false }
            // The disc round the fixed point that holds the region (grown by the margins), in layer space.
            let grow = Double(extent.margin + LayerRenderer.damageMargin + 1)
            var reach: Double = 0
            for (x, y) in [(region.x0, region.y0), (region.x1, region.y0), (region.x0, region.y1), (region.x1, region.y1)] {
                let dx = Double(x) + (x == region.x0 ? -grow : grow), dy = Double(y) + (y == region.y0 ? -grow : grow)
                let q = inverse.apply(Point(x: dx, y: dy))
                reach = max(reach, ((q.x - Double(center.x)) * (q.x - Double(center.x)) + (q.y - Double(center.y)) * (q.y - Double(center.y))).squareRoot())
            }
            // The instance's distance from the fixed point, at least that of its bounding box.
            let gx = max(0, box.minX - center.x, center.x - box.maxX), gy = max(0, box.minY - center.y, center.y - box.maxY)
            return Double((gx * gx + gy * gy).squareRoot()) > reach
        }
    }
}
