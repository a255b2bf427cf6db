/// The blend modes' formulas, on premultiplied colour, following the W3C "Compositing and Blending
/// Level 1" specification, which is what Core Graphics (`CGBlendMode`) and PDF define:
///
///     result = (1 − αd)·s + (1 − αs)·d + αs·αd·B(cs, cd)          (separable and non-separable)
///     Porter-Duff:  result = Fa·s + Fb·d                          (table in §9.1 of the spec)
///
/// with s, d premultiplied and cs, cd their un-premultiplied colours. Coverage (and the paint's
/// opacity) then interpolate between the destination and that result, as Core Graphics does for
/// anti-aliased edges. `plusDarker` follows Apple's definition
/// `R = max(0, 1 − ((1 − D) + (1 − S)))` per premultiplied channel.
extension BlendMode {
    /// Blends premultiplied word `source` onto `destination` with coverage factor 0…255.
    func blend(source: UInt32, destination: UInt32, factor: UInt32) -> UInt32 {
        if factor == 0 { return destination }
        // Copy at full coverage (a backdrop filter's write-back inside its outline, a blur's
        // enlargement): d + (s − d)·1 rounds back to every channel of s, whatever d
        // (`BlendArithmeticTests.copyAtFullCoverageIsTheSource`, every pair of channel values),
        // so the word is the source's, its colours clamped to its alpha as `packed` clamps them.
        if self == .copy && factor == 255 { return BlendMode.clampedToAlpha(source) }
        let s = SIMD4<Float>(unpack: source), d = SIMD4<Float>(unpack: destination)
        let r = blend(s, d)
        let f = Float(factor) / 255
        return (d + (r - d) * f).packed
    }

    /// `word` with each colour channel at most its alpha (a premultiplied word's range).
    @inline(__always)
    static func clampedToAlpha(_ word: UInt32) -> UInt32 { clampedToAlpha(SIMD4(repeating: word))[0] }

    /// `clampedToAlpha` of four words.
    @inline(__always)
    static func clampedToAlpha(_ words: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let a = words &>> 24, byte = SIMD4<UInt32>(repeating: 0xFF)
        return pointwiseMin(words & byte, a) | pointwiseMin(words &>> 8 & byte, a) &<< 8
            | pointwiseMin(words &>> 16 & byte, a) &<< 16 | a &<< 24
    }

    /// For the modes that only scale the destination (Porter-Duff destination-out and
    /// destination-in: what a mask's cut-outs composite with), the factor 0…255 the destination
    /// keeps under a source of alpha `sourceAlpha` at coverage `factor` — 1 − sa·f and
    /// 1 − (1 − sa)·f — in integer arithmetic, within one step of 255 of the float formula
    /// (`blend(_:_:)`, one rounding more); nil for the other modes.
    @inline(__always)
    func keptDestination(sourceAlpha sa: UInt32, factor: UInt32) -> UInt32? {
        switch self {
        case .destinationOut: 255 &- PaintBlitter.div255(sa &* factor)
        case .destinationIn: 255 &- PaintBlitter.div255((255 &- sa) &* factor)
        default: nil
        }
    }

    /// `keptDestination` for four source alphas at once (a mode it serves).
    @inline(__always)
    func keptDestination4(sourceAlpha sa: SIMD4<UInt32>, factor: UInt32) -> SIMD4<UInt32> {
        let full = SIMD4<UInt32>(repeating: 255)
        // At full coverage, 255 − sa and sa exactly (div255(k·255) = k).
        if factor == 255 { return self == .destinationOut ? full &- sa : sa }
        // `PaintBlitter.div255` in every lane.
        let t = (self == .destinationOut ? sa : full &- sa) &* SIMD4(repeating: factor) &+ 128
        return full &- ((t &+ (t &>> 8)) &>> 8)
    }

    /// Whether `keptDestination` serves this mode.
    var keepsDestinationOnly: Bool { keptDestination(sourceAlpha: 0, factor: 0) != nil }

    /// Exact blend of premultiplied colours with components in 0…1 (alpha in lane 3).
    func blend(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let sa = s[3], da = d[3]
        switch self {
        case .clear: return .zero
        case .copy: return s
        case .sourceOver: return s + d * (1 - sa)
        case .sourceIn: return s * da
        case .sourceOut: return s * (1 - da)
        case .sourceAtop: return s * da + d * (1 - sa)
        case .destinationOver: return s * (1 - da) + d
        case .destinationIn: return d * sa
        case .destinationOut: return d * (1 - sa)
        case .destinationAtop: return s * (1 - da) + d * sa
        case .xor: return s * (1 - da) + d * (1 - sa)
        case .plusLighter: return simd_min(s + d, SIMD4(repeating: 1))
        case .plusDarker: return simd_max(SIMD4(repeating: 0), s + d - 1)
        default: break
        }
        let cs = sa > 0 ? SIMD3(s[0], s[1], s[2]) / sa : .zero
        let cd = da > 0 ? SIMD3(d[0], d[1], d[2]) / da : .zero
        let mixed = mix(cs, cd)
        let rgb = SIMD3(s[0], s[1], s[2]) * (1 - da) + SIMD3(d[0], d[1], d[2]) * (1 - sa) + mixed * (sa * da)
        return SIMD4(rgb[0], rgb[1], rgb[2], sa + da - sa * da)
    }

    /// B(cs, cd) of the separable and non-separable modes, on straight colour.
    private func mix(_ cs: SIMD3<Float>, _ cd: SIMD3<Float>) -> SIMD3<Float> {
        switch self {
        case .multiply: return cs * cd
        case .screen: return cs + cd - cs * cd
        case .overlay: return BlendMode.lanes(BlendMode.hardLight, cd, cs)
        case .darken: return simd_min(cs, cd)
        case .lighten: return simd_max(cs, cd)
        case .colorDodge: return BlendMode.lanes(BlendMode.colorDodge, cs, cd)
        case .colorBurn: return BlendMode.lanes(BlendMode.colorBurn, cs, cd)
        case .hardLight: return BlendMode.lanes(BlendMode.hardLight, cs, cd)
        case .softLight: return BlendMode.lanes(BlendMode.softLight, cs, cd)
        case .difference: return simd_abs(cs - cd)
        case .exclusion: return cs + cd - 2 * cs * cd
        case .hue: return BlendMode.setLum(BlendMode.setSat(cs, BlendMode.sat(cd)), BlendMode.lum(cd))
        case .saturation: return BlendMode.setLum(BlendMode.setSat(cd, BlendMode.sat(cs)), BlendMode.lum(cd))
        case .color: return BlendMode.setLum(cs, BlendMode.lum(cd))
        case .luminosity: return BlendMode.setLum(cd, BlendMode.lum(cs))
        default: return cs
        }
    }

    static func hardLight(_ s: Float, _ d: Float) -> Float {
        s <= 0.5 ? d * 2 * s : screen(d, 2 * s - 1)
    }
    static func screen(_ a: Float, _ b: Float) -> Float { a + b - a * b }
    static func colorDodge(_ s: Float, _ d: Float) -> Float {
        if d == 0 { return 0 }
        if s >= 1 { return 1 }
        return Swift.min(1, d / (1 - s))
    }
    static func colorBurn(_ s: Float, _ d: Float) -> Float {
        if d >= 1 { return 1 }
        if s <= 0 { return 0 }
        return 1 - Swift.min(1, (1 - d) / s)
    }
    static func softLight(_ s: Float, _ d: Float) -> Float {
        if s <= 0.5 { return d - (1 - 2 * s) * d * (1 - d) }
        let dd = d <= 0.25 ? ((16 * d - 12) * d + 4) * d : d.squareRoot()
        return d + (2 * s - 1) * (dd - d)
    }

    static func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }
    static func sat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }

    /// `f` of each pair of lanes of `a` and `b` (the separable modes' per-channel functions),
    /// without an array per pixel.
    @inline(__always)
    static func lanes(_ f: (Float, Float) -> Float, _ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(f(a.x, b.x), f(a.y, b.y), f(a.z, b.z))
    }

    static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = lum(c), n = c.min(), x = c.max()
        var r = c
        if n < 0 { r = SIMD3(repeating: l) + (r - l) * l / (l - n) }
        if x > 1 { r = SIMD3(repeating: l) + (r - l) * (1 - l) / (x - l) }
        return r
    }

    static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
        clipColor(c + (l - lum(c)))
    }

    static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let mx = c.max(), mn = c.min()
        guard mx > mn else { return .zero }
        return (c - mn) * s / (mx - mn)
    }
}

extension SIMD4 where Scalar == Float {
    /// A premultiplied word as components in 0…1.
    init(unpack w: UInt32) {
        self.init(Float(w & 0xFF), Float(w >> 8 & 0xFF), Float(w >> 16 & 0xFF), Float(w >> 24))
        self /= 255
    }

    /// Back to a word, clamped and rounded; colour channels never exceed alpha. A NaN component
    /// is 0, as GPUs store NaN in a normalized byte (Direct3D's data conversion rules, float to
    /// UNORM): a colour matrix whose entries overflow to ±∞ (colorSaturate with a huge amount)
    /// gives ∞ · 0, and converting NaN to an integer would trap.
    var packed: UInt32 {
        let c = simd_min(replacing(with: 0, where: .!(self .>= SIMD4.zero)), SIMD4(repeating: 1)) * 255 + 0.5
        let a = UInt32(c[3])
        let r = Swift.min(UInt32(c[0]), a), g = Swift.min(UInt32(c[1]), a), b = Swift.min(UInt32(c[2]), a)
        return r | g << 8 | b << 16 | a << 24
    }
}

@inline(__always) func simd_min<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar: Comparable & FloatingPoint {
    a.replacing(with: b, where: b .< a)
}
@inline(__always) func simd_max<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar: Comparable & FloatingPoint {
    a.replacing(with: b, where: b .> a)
}
@inline(__always) func simd_abs<V: SIMD>(_ a: V) -> V where V.Scalar: FloatingPoint {
    a.replacing(with: -a, where: a .< 0)
}
