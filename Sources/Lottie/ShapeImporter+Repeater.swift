import QuartzCore

// A repeater (`rp`) → copies of its group's content, each in a layer of its own with the copy's
// transform and opacity (`ShapeImporter.add`), placed as lottie-web's RepeaterModifier places
// them: copy k is the content turned by (k + o)·r and scaled by s^(k + o), both about the
// repeater's anchor a, then moved by (k + o)·p — the offsets are not turned by the rotation, so
// a turning repeater fans its copies out along a straight line (a CAReplicatorLayer, which
// applies one step transform k times, would turn them onto an arc; rlottie and ThorVG place them
// as lottie-web does: scripts/lottie-check, repeater.json). A fractional offset o moves by the
// fraction of a step and scales by the fraction of the way from 1 to s (lottie-web's partial
// step), a negative one steps backwards. Copy k's opacity is so + (eo − so)·k / (n − 1)
// (percent); there are ⌈c⌉ copies (lottie-web's Math.ceil). Keyframed values are sampled once
// per frame (the matrices and opacities are not linear in them) and Core Animation interpolates
// between the samples.

/// A repeater's values, each static or keyframed.
struct Repeater {
    var copies: KeyframedValue<Double>
    var offset: KeyframedValue<Double>
    var transform: LottieTransform
    var startOpacity: KeyframedValue<Double>
    var endOpacity: KeyframedValue<Double>

    /// The values at each frame (fixed when none is keyframed), in the order copies, offset,
    /// anchor x, y, position x, y, scale x, y (percent), rotation (degrees), start and end
    /// opacity (percent).
    var sampled: KeyframedValue<[Double]> {
        let position: [KeyframedValue<[Double]>]
        switch transform.position {
        case let .combined(p): position = [p.map { [Double($0.x), Double($0.y)] }]
        case let .split(x, y): position = [x.map { [$0] }, y.map { [$0] }]
        }
        let parts = [copies.map { [$0] }, offset.map { [$0] }, transform.anchor.map { [Double($0.x), Double($0.y)] }]
            + position + [transform.scale.map { [Double($0.x), Double($0.y)] }, transform.rotation.map { [$0] },
                          startOpacity.map { [$0] }, endOpacity.map { [$0] }]
        return KeyframedValue<[Double]>.sampled(parts) { $0.flatMap { $0 } }
    }

    /// The number of copies of `values` (see `sampled`): ⌈c⌉, at least 0.
    static func count(_ v: [Double]) -> Int { Int(Swift.min(Swift.max(v[0].rounded(.up), 0), Double(Int32.max))) }

    /// Copy `k`'s transform for `values` (see `sampled`), m11 … m44: turned by t·r and scaled
    /// by s^t about the anchor, then moved by t·p, t = k + offset (lottie-web's order: rotation,
    /// then scale, then translation; a fractional part of the offset scales by 1 + (s − 1)·f,
    /// inverted when the offset is negative).
    static func matrix(_ v: [Double], copy k: Int) -> [Double] {
        let (a, p, s, r) = (CGPoint(x: v[2], y: v[3]), CGPoint(x: v[4], y: v[5]), CGPoint(x: v[6] / 100, y: v[7] / 100), v[8])
        let offset = v[1], whole = offset.rounded(.towardZero), fraction = offset - whole
        let t = Double(k) + offset
        func factor(_ s: Double) -> Double {
            let steps = pow(s, Double(k) + whole)
            let partial = 1 + (s - 1) * abs(fraction)
            return fraction >= 0 ? steps * partial : steps / partial
        }
        var m = CATransform3DMakeTranslation(-a.x, -a.y, 0)
        m = CATransform3DConcat(m, CATransform3DMakeRotation(r * t * .pi / 180, 0, 0, 1))
        m = CATransform3DConcat(m, CATransform3DMakeScale(factor(s.x), factor(s.y), 1))
        m = CATransform3DConcat(m, CATransform3DMakeTranslation(a.x + p.x * t, a.y + p.y * t, 0))
        return m.components
    }

    /// Copy `k`'s opacity (0…1) for `values` (see `sampled`); 0 when there are k copies or fewer.
    static func opacity(_ v: [Double], copy k: Int) -> Double {
        let n = count(v)
        guard k < n else { return 0 }
        return (v[9] + (n > 1 ? (v[10] - v[9]) * Double(k) / Double(n - 1) : 0)) / 100
    }
}

extension CATransform3D {
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
