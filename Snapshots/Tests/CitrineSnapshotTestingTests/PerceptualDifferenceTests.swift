import CitrineSnapshotTesting
import Testing

/// The colour difference behind `perceptualPrecision` (CIE ΔE 1994, see `PerceptualDifference`).
struct PerceptualDifferenceTests {
    @Test func labOfKnownColours() {
        let white = PerceptualDifference.lab(255, 255, 255)
        #expect(abs(white.l - 100) < 0.01 && abs(white.a) < 0.01 && abs(white.b) < 0.01)
        let black = PerceptualDifference.lab(0, 0, 0)
        #expect(abs(black.l) < 0.01)
        // sRGB red: L* 53.24, a* 80.09, b* 67.20 (D65).
        let red = PerceptualDifference.lab(255, 0, 0)
        #expect(abs(red.l - 53.24) < 0.05 && abs(red.a - 80.09) < 0.1 && abs(red.b - 67.20) < 0.1)
    }

    @Test func deltaE() {
        let opaque = { (v: UInt8) in (v, v, v, UInt8(255)) }
        #expect(PerceptualDifference.deltaE(premultiplied: opaque(0), opaque(0)) == 0)
        #expect(abs(PerceptualDifference.deltaE(premultiplied: opaque(0), opaque(255)) - 100) < 0.01)
        // One step of grey is far below the 2 that a person notices.
        #expect(PerceptualDifference.deltaE(premultiplied: opaque(128), opaque(129)) < 0.5)
        // Transparency: nothing against nothing is no difference; against opaque black, the
        // difference seen over white.
        #expect(PerceptualDifference.deltaE(premultiplied: (0, 0, 0, 0), (0, 0, 0, 0)) == 0)
        #expect(abs(PerceptualDifference.deltaE(premultiplied: (0, 0, 0, 0), opaque(0)) - 100) < 0.01)
        // Half-transparent white against opaque white differs over black only.
        let d = PerceptualDifference.deltaE(premultiplied: (128, 128, 128, 128), opaque(255))
        #expect(d > 40 && d < 60)
    }
}
