import QuartzCore

// A repeater's (`rp`) values → what a CAReplicatorLayer and the layer of its first copy take
// (`ShapeImporter.replicator`): the copy count, the opacity of the first copy and its step, the
// first copy's transform and the step between copies. These are non-linear in the repeater's
// values (the scale's power, an inverse when the copies are drawn below), so keyframed values
// are sampled once per frame and the result interpolated between frames.

/// A repeater's values, each static or keyframed.
struct Repeater {
    var copies: KeyframedValue<Double>
    var offset: KeyframedValue<Double>
    var transform: LottieTransform
    var startOpacity: KeyframedValue<Double>
    var endOpacity: KeyframedValue<Double>

    /// `f` of the values at each frame (fixed when none is keyframed). `f` takes the values in
    /// the order copies, offset, anchor x, y, position x, y, scale x, y (percent), rotation
    /// (degrees), start and end opacity (percent).
    func sampled(_ f: @escaping ([Double]) -> [Double]) -> KeyframedValue<[Double]> {
        let position: [KeyframedValue<[Double]>]
        switch transform.position {
        case let .combined(p): position = [p.map { [Double($0.x), Double($0.y)] }]
        case let .split(x, y): position = [x.map { [$0] }, y.map { [$0] }]
        }
        let parts = [copies.map { [$0] }, offset.map { [$0] }, transform.anchor.map { [Double($0.x), Double($0.y)] }]
            + position + [transform.scale.map { [Double($0.x), Double($0.y)] }, transform.rotation.map { [$0] },
                          startOpacity.map { [$0] }, endOpacity.map { [$0] }]
        return KeyframedValue<[Double]>.sampled(parts) { f($0.flatMap { $0 }) }
    }

    /// The transform of `values` (see `sampled`) applied `times` times component by component:
    /// about the anchor a, scaled by s^times, turned by r·times, moved by p·times.
    static func matrix(_ v: [Double], times: Double) -> CATransform3D {
        let (a, p, s, r) = (CGPoint(x: v[2], y: v[3]), CGPoint(x: v[4], y: v[5]), CGPoint(x: v[6], y: v[7]), v[8])
        var m = CATransform3DMakeTranslation(-a.x, -a.y, 0)
        m = CATransform3DConcat(m, CATransform3DMakeScale(pow(s.x / 100, times), pow(s.y / 100, times), 1))
        m = CATransform3DConcat(m, CATransform3DMakeRotation(r * times * .pi / 180, 0, 0, 1))
        return CATransform3DConcat(m, CATransform3DMakeTranslation(a.x + p.x * times, a.y + p.y * times, 0))
    }
}

extension [Double] {
    /// For values in `Repeater.sampled`'s order: [copy count (whole), first copy's alpha, alpha
    /// step, the first copy's transform (16), the step between copies (16)]. Copies drawn below
    /// run from the last to the first: the first drawn is the last copy, the step inverted.
    func instances(below: Bool) -> [Double] {
        let count = Swift.max(self[0].rounded(.down), 0)
        let step = Repeater.matrix(self, times: 1)
        var first = Repeater.matrix(self, times: self[1])
        var alpha = (self[9] / 100, count > 1 ? (self[10] - self[9]) / 100 / (count - 1) : 0)
        if below, count > 1 {
            first = CATransform3DConcat(first, step.power(Int(count) - 1))
            alpha = (self[10] / 100, -alpha.1)
        }
        return [count, alpha.0, alpha.1] + first.components + (below ? CATransform3DInvert(step) : step).components
    }
}

extension Repeater {
    /// From `instances`' values: the first copy's transform, the step, the first copy's colour.
    static func first(_ v: [Double]) -> CATransform3D { CATransform3D(Array(v[3..<19])) }
    static func step(_ v: [Double]) -> CATransform3D { CATransform3D(Array(v[19..<35])) }
    static func color(_ v: [Double]) -> CGColor { CGColor(red: 1, green: 1, blue: 1, alpha: v[1]) }
}

extension CATransform3D {
    /// The transform applied `n` times (n ≥ 0), by squaring: log₂ n products.
    func power(_ n: Int) -> CATransform3D {
        var (result, base, n) = (CATransform3DIdentity, self, n)
        while n > 0 {
            if n & 1 == 1 { result = CATransform3DConcat(result, base) }
            base = CATransform3DConcat(base, base)
            n >>= 1
        }
        return result
    }

    /// m11 … m44, row by row.
    var components: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44].map { Double($0) }
    }

    /// From 16 values row by row.
    init(_ c: [Double]) {
        self.init(m11: c[0], m12: c[1], m13: c[2], m14: c[3], m21: c[4], m22: c[5], m23: c[6], m24: c[7],
                  m31: c[8], m32: c[9], m33: c[10], m34: c[11], m41: c[12], m42: c[13], m43: c[14], m44: c[15])
    }
}
