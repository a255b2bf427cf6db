import Raster

/// How a keyframe animation computes intermediate values (Apple's raw strings).
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
}

/// Whether objects following a path rotate to match its tangent (Apple's raw strings).
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// A property animated through a sequence of values or along a path (Apple's
/// `CAKeyframeAnimation`).
///
/// Timing, per Apple's documentation:
/// * `keyTimes` (0…1, one per value, non-decreasing) place the values in time; without them the
///   values are spaced evenly. In `.discrete` mode without keyTimes each of n values holds for
///   1/n of the duration.
/// * `timingFunctions` (n − 1 of them) ease each segment.
/// * `.paced` and `.cubicPaced` ignore keyTimes, `timingFunctions` and the animation's own
///   `timingFunction`, and move at constant speed (time proportional to distance; for a path, to
///   arc length). Apple's documentation of both modes: "keyTimes and timingFunction are ignored
///   and keyframe times are automatically generated to give the animation a constant velocity";
///   CAAnimation.h: "the `keyTimes' and `timingFunctions' properties of the animation are
///   ignored".
/// * `.cubic` passes a Kochanek–Bartels spline through the values, shaped by `tensionValues`,
///   `continuityValues` and `biasValues` (all 0 = Catmull-Rom).
/// * With a `path` (CGPoint properties), each element after a move is one keyframe segment; within
///   a segment the position advances along its arc length. `rotationMode` turns the layer to the
///   path's tangent (added to `transform.rotation.z`; `.rotateAutoReverse` adds π).
open class CAKeyframeAnimation: CAPropertyAnimation {
    override class func makeCoreAnimationAnimation() -> CAAnimation { CAKeyframeAnimation() }
    public var values: [Any]? { didSet { typedValues = nil; cachedTimes = nil; pacedLengths = nil; cubicPacedTable = nil } }
    public var path: CGPath? { didSet { measure = nil; drawableSegments = nil } }
    public var keyTimes: [NSNumber]? { didSet { cachedTimes = nil } }
    public var timingFunctions: [CAMediaTimingFunction]?
    public var calculationMode: CAAnimationCalculationMode = .linear
    public var tensionValues: [NSNumber]?
    public var continuityValues: [NSNumber]?
    public var biasValues: [NSNumber]?
    public var rotationMode: CAAnimationRotationMode?

    private var typedValues: [AnimatableValue]?
    private var measure: CGPathMeasure?
    /// Indices into `measure.segments` of the elements that are keyframe segments (not moves).
    private var drawableSegments: [Int]?
    /// Distances between successive values for paced timing, and their sum.
    private var pacedLengths: (lengths: [Double], total: Double)?
    /// `.cubicPaced`: the spline's cumulative arc length at each sample (`cubicPacedSegment`).
    private var cubicPacedTable: [Double]??

    open override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let o = other as? CAKeyframeAnimation else { return }
        values = o.values; path = o.path; keyTimes = o.keyTimes; timingFunctions = o.timingFunctions
        calculationMode = o.calculationMode; tensionValues = o.tensionValues
        continuityValues = o.continuityValues; biasValues = o.biasValues; rotationMode = o.rotationMode
    }

    open override class var animationProperties: [String: AnimationProperty] { Self.keyframeProperties }

    private static let keyframeProperties = CAPropertyAnimation.animationProperties.merging([
        "values": .init(\CAKeyframeAnimation.values, .optional(.same)),
        "path": .init(\CAKeyframeAnimation.path, .optional(.same)),
        "keyTimes": .init(\CAKeyframeAnimation.keyTimes, .optional(.numbers)),
        "timingFunctions": .init(\CAKeyframeAnimation.timingFunctions, .optional(.same)),
        "calculationMode": .init(\CAKeyframeAnimation.calculationMode, .rawString),
        "tensionValues": .init(\CAKeyframeAnimation.tensionValues, .optional(.numbers)),
        "continuityValues": .init(\CAKeyframeAnimation.continuityValues, .optional(.numbers)),
        "biasValues": .init(\CAKeyframeAnimation.biasValues, .optional(.numbers)),
        "rotationMode": .init(\CAKeyframeAnimation.rotationMode, .optional(.rawString)),
    ]) { $1 }

    override func apply(to s: inout LayerState, of layer: CALayer, at parentTime: CFTimeInterval) {
        sampleOfThisPass = nil
        super.apply(to: &s, of: layer, at: parentTime)
        guard let mode = rotationMode, let path, path.isEmpty == false else { return }
        let state = timingState(at: parentTime)
        guard state.isApplied, let angle = pathSample(easedFraction(state))?.tangentAngle else { return }
        let rotation = angle + (mode == .rotateAutoReverse ? .pi : 0)
        s.transform = CATransform3DConcat(CATransform3DMakeRotation(rotation, 0, 0, 1), s.transform)
    }

    /// A path animation with `rotationMode` also writes the transform.
    override func restoreTargets(_ s: inout LayerState, of layer: CALayer, from model: CALayer) {
        super.restoreTargets(&s, of: layer, from: model)
        if rotationMode != nil { model.withUnsafeState { StateField.transform.copy(from: $0, to: &s) } }
    }

    /// The paced modes ignore `timingFunction` (see the type's notes): their fraction is the
    /// play's, uneased, so the value moves at constant velocity through the whole duration.
    override func easedFraction(_ state: TimingModel.State) -> Double {
        isPaced ? state.fraction : super.easedFraction(state)
    }

    /// `.paced` or `.cubicPaced`.
    private var isPaced: Bool { calculationMode == .paced || calculationMode == .cubicPaced }

    override func value(atFraction f: Double, current: AnimatableValue) -> AnimatableValue? {
        if path != nil { return pathSample(f).map { .point($0.point) } }
        let vals = typed
        guard !vals.isEmpty else { return nil }
        if vals.count == 1 { return vals[0] }
        switch calculationMode {
        case .discrete:
            return vals[discreteIndex(f, count: vals.count)]
        case .paced:
            let (i, t) = pacedSegment(f, vals)
            return AnimatableValue.interpolate(vals[i], vals[i + 1], t)
        case .cubicPaced:
            let (i, t) = cubicPacedSegment(f, vals)
            return cubic(vals, i, t)
        case .cubic:
            let (i, t) = timedSegment(f, count: vals.count)
            return cubic(vals, i, t)
        default:
            let (i, t) = timedSegment(f, count: vals.count)
            return AnimatableValue.interpolate(vals[i], vals[i + 1], t)
        }
    }

    override func cumulativeStep(current: AnimatableValue) -> AnimatableValue? {
        let vals = typed
        guard let first = vals.first, let last = vals.last else { return nil }
        return AnimatableValue.difference(last, first)
    }

    var typed: [AnimatableValue] {
        if let typedValues { return typedValues }
        let t = (values ?? []).map { AnimatableValue($0) }
        typedValues = t
        return t
    }

    private var cachedTimes: [Double]?

    /// keyTimes as Doubles when given, converted once.
    var times: [Double]? {
        guard let keyTimes, keyTimes.count > 0 else { return nil }
        if let cachedTimes { return cachedTimes }
        let t = keyTimes.map(\.doubleValue)
        cachedTimes = t
        return t
    }

    private func discreteIndex(_ f: Double, count: Int) -> Int {
        if let kt = times {
            var index = 0
            for (i, t) in kt.enumerated() where t <= f { index = i }
            return min(index, count - 1)
        }
        return Int(clamping: (f * Double(count)).rounded(.down), to: 0...max(0, count - 1))  // f may be NaN
    }

    /// Segment index and eased local fraction for linear/cubic modes.
    private func timedSegment(_ f: Double, count: Int) -> (Int, Double) {
        let easings = timingFunctions
        return Self.timedSegment(f, count: count, keyTimes: times) { i, t in
            guard let easings, i < easings.count else { return t }
            return easings[i]._solve(forInput: t)
        }
    }

    /// Segment index and eased local fraction at fraction `f` of `count` values placed at
    /// `keyTimes` (used only when there is one per value; else evenly spaced), with segment i's
    /// local fraction t passed through `ease(i, t)`.
    static func timedSegment<Times: RandomAccessCollection<Double>>(
        _ f: Double, count: Int, keyTimes: Times?, ease: (Int, Double) -> Double
    ) -> (Int, Double) where Times.Index == Int {
        let segments = count - 1
        let given = keyTimes.flatMap { $0.count == count ? $0 : nil }
        // Without (matching) keyTimes the values are evenly spaced: time of value k is k/segments.
        func keyTime(_ k: Int) -> Double { given.map { $0[$0.startIndex + k] } ?? Double(k) / Double(segments) }
        var i = 0
        while i < segments - 1 && f >= keyTime(i + 1) { i += 1 }
        let span = keyTime(i + 1) - keyTime(i)
        let t = span > 0 ? (f - keyTime(i)) / span : (f >= keyTime(i + 1) ? 1 : 0)
        return (i, ease(i, min(max(t, 0), 1)))
    }

    /// Segment index and local fraction at constant speed through the values.
    private func pacedSegment(_ f: Double, _ vals: [AnimatableValue]) -> (Int, Double) {
        if pacedLengths == nil {
            let lengths = zip(vals, vals.dropFirst()).map { AnimatableValue.distance($0, $1) }
            pacedLengths = (lengths, lengths.reduce(0, +))
        }
        let (lengths, total) = pacedLengths!
        guard total > 0 else { return timedSegment(f, count: vals.count) }
        var target = f * total
        for (i, l) in lengths.enumerated() {
            if target <= l || i == lengths.count - 1 { return (i, l > 0 ? min(target / l, 1) : 1) }
            target -= l
        }
        return (lengths.count - 1, 1)
    }

    /// Samples per spline segment for `.cubicPaced`'s arc-length table.
    private static let cubicPacedSamples = 64

    /// Segment index and spline parameter at constant speed along the cubic spline through the
    /// values (`.cubicPaced`: Apple documents it as `.cubic` at constant velocity, keyTimes and
    /// timingFunctions ignored). The spline's arc length is tabulated once (64 chords per
    /// segment) and inverted by interpolation; values the spline cannot measure (colours,
    /// transforms) pace by the distance between successive values, as `.paced` does.
    private func cubicPacedSegment(_ f: Double, _ vals: [AnimatableValue]) -> (Int, Double) {
        if cubicPacedTable == nil { cubicPacedTable = arcLengthTable(vals) }
        guard let table = cubicPacedTable ?? nil, let total = table.last, total > 0, total.isFinite else {
            return pacedSegment(f, vals)
        }
        let n = Self.cubicPacedSamples
        let target = (f.isNaN ? 0 : min(max(f, 0), 1)) * total
        // The first sample at or past the target length (table[k] is the length at sample k).
        var lo = 0, hi = table.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if table[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        let k = max(lo, 1)
        let span = table[k] - table[k - 1]
        let sample = Double(k - 1) + (span > 0 ? (target - table[k - 1]) / span : 1)
        let segment = min(Int(sample) / n, vals.count - 2)
        return (segment, min((sample - Double(segment * n)) / Double(n), 1))
    }

    /// Cumulative chord length of the spline at every sample (n per segment, plus the start);
    /// nil unless the values are all numbers, all points or all sizes.
    private func arcLengthTable(_ vals: [AnimatableValue]) -> [Double]? {
        guard var previous = vector(vals[0]),
              vals.allSatisfy({ vector($0)?.count == previous.count }) else { return nil }
        let n = Self.cubicPacedSamples
        var table = [0.0]
        table.reserveCapacity((vals.count - 1) * n + 1)
        for i in 0..<(vals.count - 1) {
            for j in 1...n {
                guard let point = vector(cubic(vals, i, Double(j) / Double(n))) else { return nil }
                let step = zip(point, previous).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
                table.append(table.last! + step)
                previous = point
            }
        }
        return table
    }

    /// Kochanek–Bartels (TCB) spline between values i and i+1 at t; scalar-like kinds only,
    /// others fall back to linear interpolation — as do four neighbouring values not all of one
    /// kind (points beside numbers: Apple documents no such case, and no spline joins them).
    private func cubic(_ v: [AnimatableValue], _ i: Int, _ t: Double) -> AnimatableValue {
        let p0 = v[max(i - 1, 0)], p1 = v[i], p2 = v[i + 1], p3 = v[min(i + 2, v.count - 1)]
        func param(_ a: [NSNumber]?, _ k: Int) -> Double { a.flatMap { k < $0.count ? $0[k].doubleValue : nil } ?? 0 }
        let (t1, c1, b1) = (param(tensionValues, i), param(continuityValues, i), param(biasValues, i))
        let (t2, c2, b2) = (param(tensionValues, i + 1), param(continuityValues, i + 1), param(biasValues, i + 1))
        guard let x0 = vector(p0), let x1 = vector(p1), let x2 = vector(p2), let x3 = vector(p3),
              x0.count == x1.count, x2.count == x1.count, x3.count == x1.count else {
            return AnimatableValue.interpolate(p1, p2, t)
        }
        // Outgoing tangent at p1 and incoming tangent at p2.
        let out1 = zip(zip(x0, x1), x2).map { a, c in
            (1 - t1) * (1 + b1) * (1 + c1) / 2 * (a.1 - a.0) + (1 - t1) * (1 - b1) * (1 - c1) / 2 * (c - a.1)
        }
        let in2 = zip(zip(x1, x2), x3).map { a, c in
            (1 - t2) * (1 + b2) * (1 - c2) / 2 * (a.1 - a.0) + (1 - t2) * (1 - b2) * (1 + c2) / 2 * (c - a.1)
        }
        let h00 = 2 * t * t * t - 3 * t * t + 1, h10 = t * t * t - 2 * t * t + t
        let h01 = -2 * t * t * t + 3 * t * t, h11 = t * t * t - t * t
        let r = (0..<x1.count).map { h00 * x1[$0] + h10 * out1[$0] + h01 * x2[$0] + h11 * in2[$0] }
        return rebuild(r, like: p1) ?? AnimatableValue.interpolate(p1, p2, t)
    }

    private func vector(_ v: AnimatableValue) -> [Double]? {
        switch v {
        case let .number(x): return [x]
        case let .point(p): return [Double(p.x), Double(p.y)]
        case let .size(s): return [Double(s.width), Double(s.height)]
        default: return nil
        }
    }

    private func rebuild(_ r: [Double], like v: AnimatableValue) -> AnimatableValue? {
        switch v {
        case .number: return .number(r[0])
        case .point: return .point(CGPoint(x: r[0], y: r[1]))
        case .size: return .size(CGSize(width: r[0], height: r[1]))
        default: return nil
        }
    }

    /// Position and tangent angle along `path` at eased fraction f.
    /// The path sample taken by the position part of the current `apply`, reused by its
    /// rotation part (same fraction) instead of measuring the path twice.
    private var sampleOfThisPass: (f: Double, sample: (point: CGPoint, tangentAngle: CGFloat)?)?

    private func pathSample(_ f: Double) -> (point: CGPoint, tangentAngle: CGFloat)? {
        if let memo = sampleOfThisPass, memo.f == f { return memo.sample }
        let sample = measuredPathSample(f)
        sampleOfThisPass = (f, sample)
        return sample
    }

    private func measuredPathSample(_ f: Double) -> (point: CGPoint, tangentAngle: CGFloat)? {
        guard let path else { return nil }
        let m = measure ?? CGPathMeasure(path)
        measure = m
        let segments = drawableSegments ?? m.segments.indices.filter { m.segments[$0].type != .moveToPoint }
        drawableSegments = segments
        guard !segments.isEmpty else { return nil }
        if isPaced {
            return m.position(atLength: CGFloat(f) * m.length)
        }
        if calculationMode == .discrete {
            // Keyframe k is the start of the path (k = 0) or the end of drawable segment k − 1.
            let k = discreteIndex(f, count: segments.count + 1)
            let index = segments[max(k - 1, 0)], seg = m.segments[index]
            return (k == 0 ? seg.startPoint : seg.endPoint, m.position(inSegment: index, atLength: 0).tangentAngle)
        }
        let (i, t) = timedSegment(f, count: segments.count + 1)
        let index = segments[i]
        return m.position(inSegment: index, atLength: CGFloat(t) * m.segments[index].length)
    }
}
