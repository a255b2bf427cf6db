import Foundation
import Raster

/// The colour difference behind `perceptualPrecision`: CIE ΔE 1994 in CIELAB (D65), on a 0…100
/// scale where about 2 is the smallest difference a person notices — the measure that Core
/// Image's `CILabDeltaE` filter reports ("∆E 1994 values between 0.0 and 100.0 where 2.0 is
/// considered a just noticeable difference", Apple's documentation), which swift-snapshot-testing
/// uses on Apple's platforms.
///
/// Pixels are premultiplied sRGB; transparency is compared by seeing each pixel over black and
/// over white (premultiplied colour c gives c over black and c + (255 − alpha) over white) and
/// taking the larger of the two ΔE: an alpha change shows on one of the two backgrounds, and two
/// fully transparent pixels never differ. sRGB values are linearised with the sRGB transfer
/// function, then converted to XYZ (D65, sRGB's primaries) and to L*a*b*. ΔE 1994 uses the
/// graphic-arts weights (kL = 1, K1 = 0.045, K2 = 0.015) with the reference pixel's chroma.
public enum PerceptualDifference {
    /// What `compare` counts.
    public struct Result: Sendable, Equatable {
        /// Pixels compared (width × height).
        public var pixelCount: Int
        /// Pixels whose difference exceeds the tolerance (or, with `perceptualPrecision` 1, whose
        /// bytes differ).
        public var failingPixels: Int
        /// The largest ΔE found among differing pixels (0 when none differ).
        public var maximumDeltaE: Float
    }

    /// Compares two pixmaps of the same size: a pixel fails when its bytes differ and, with
    /// `perceptualPrecision` below 1, its ΔE exceeds `(1 − perceptualPrecision) × 100`.
    public static func compare(_ reference: Pixmap, _ new: Pixmap, perceptualPrecision: Float) -> Result {
        precondition(reference.width == new.width && reference.height == new.height, "pixmaps of different sizes")
        let count = reference.width * reference.height
        let threshold = (1 - perceptualPrecision) * 100
        var failing = 0
        var maximum: Float = 0
        let a = reference.pixels, b = new.pixels
        var i = 0
        while i < count {
            defer { i += 1 }
            let o = i * 4
            if a[o] == b[o], a[o + 1] == b[o + 1], a[o + 2] == b[o + 2], a[o + 3] == b[o + 3] { continue }
            let delta = deltaE(premultiplied: (a[o], a[o + 1], a[o + 2], a[o + 3]), (b[o], b[o + 1], b[o + 2], b[o + 3]))
            maximum = max(maximum, delta)
            if perceptualPrecision >= 1 || delta > threshold { failing += 1 }
        }
        return Result(pixelCount: count, failingPixels: failing, maximumDeltaE: maximum)
    }

    /// ΔE 1994 between two premultiplied sRGB pixels, the larger of the differences seen over
    /// black and over white.
    public static func deltaE(premultiplied p: (UInt8, UInt8, UInt8, UInt8), _ q: (UInt8, UInt8, UInt8, UInt8)) -> Float {
        let overBlack = deltaE1994(lab(p.0, p.1, p.2), lab(q.0, q.1, q.2))
        let pw = 255 - Int(p.3), qw = 255 - Int(q.3)
        let overWhite = deltaE1994(lab(over(p.0, pw), over(p.1, pw), over(p.2, pw)), lab(over(q.0, qw), over(q.1, qw), over(q.2, qw)))
        return max(overBlack, overWhite)
    }

    /// A premultiplied channel over white, whose share is `white` (clamped for pixels that are not
    /// validly premultiplied).
    private static func over(_ c: UInt8, _ white: Int) -> UInt8 { UInt8(min(255, Int(c) + white)) }

    /// ΔE 1994 (graphic arts) from `reference` to `sample`, both L*a*b*.
    public static func deltaE1994(_ reference: (l: Float, a: Float, b: Float), _ sample: (l: Float, a: Float, b: Float)) -> Float {
        let dL = reference.l - sample.l
        let c1 = (reference.a * reference.a + reference.b * reference.b).squareRoot()
        let c2 = (sample.a * sample.a + sample.b * sample.b).squareRoot()
        let dC = c1 - c2
        let da = reference.a - sample.a, db = reference.b - sample.b
        let dH2 = max(0, da * da + db * db - dC * dC)
        let sC = 1 + 0.045 * c1, sH = 1 + 0.015 * c1
        return (dL * dL + (dC / sC) * (dC / sC) + dH2 / (sH * sH)).squareRoot()
    }

    /// CIELAB (D65 white) of an 8-bit sRGB colour.
    public static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (l: Float, a: Float, b: Float) {
        let rl = linear[Int(r)], gl = linear[Int(g)], bl = linear[Int(b)]
        // sRGB primaries, D65 (IEC 61966-2-1), normalised by the white point.
        let x = (0.4124564 * rl + 0.3575761 * gl + 0.1804375 * bl) / 0.95047
        let y = 0.2126729 * rl + 0.7151522 * gl + 0.0721750 * bl
        let z = (0.0193339 * rl + 0.1191920 * gl + 0.9503041 * bl) / 1.08883
        let fx = f(x), fy = f(y), fz = f(z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    private static func f(_ t: Float) -> Float {
        let epsilon: Float = 216 / 24389, kappa: Float = 24389 / 27
        return t > epsilon ? Float(cbrt(Double(t))) : (kappa * t + 16) / 116
    }

    /// The sRGB transfer function's inverse for each 8-bit value.
    private static let linear: [Float] = (0...255).map { v in
        let c = Double(v) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }
}
