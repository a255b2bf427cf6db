import AnchorScenes
import Testing

/// The generator against the check values of ../shared/bench/anchors/scenes.md §2.
struct PCG32Tests {
    @Test func referenceSequence() {
        var rng = PCG32(seed: 42, sequence: 54)
        let got = (0..<6).map { _ in rng.nextUInt32() }
        #expect(got == [0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e])
    }

    /// The derived draws are the documented functions of one output each (§2 table).
    @Test func derivedDraws() {
        var a = PCG32(seed: 42), b = PCG32(seed: 42)
        #expect(a.unit() == Double(b.nextUInt32() >> 8) / 16_777_216)
        let u = b.nextUInt32()
        #expect(a.uniform(10, 30) == 10 + 20 * (Double(u >> 8) / 16_777_216))
        #expect(a.u8() == UInt8(b.nextUInt32() >> 24))
        #expect(a.alpha() == UInt8(64 + (b.nextUInt32() >> 25)))
    }
}
