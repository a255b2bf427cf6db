/// PCG-XSH-RR 64/32 (O'Neill's `pcg32_random_r` / `pcg32_srandom_r`), with the derived draws of
/// scenes.md §2. All arithmetic is modulo 2^64; every derived draw consumes one `nextUInt32()`.
public struct PCG32: Sendable {
    /// The multiplier of the underlying 64-bit LCG.
    public static let multiplier: UInt64 = 6_364_136_223_846_793_005
    /// The stream selector every anchor scene uses.
    public static let anchorSequence: UInt64 = 54

    public private(set) var state: UInt64
    public let increment: UInt64

    /// `seed(initstate, initseq)` of scenes.md §2.
    public init(seed initialState: UInt64, sequence: UInt64 = PCG32.anchorSequence) {
        state = 0
        increment = sequence << 1 | 1
        _ = nextUInt32()
        state &+= initialState
        _ = nextUInt32()
    }

    /// The next 32-bit output.
    public mutating func nextUInt32() -> UInt32 {
        let old = state
        state = old &* PCG32.multiplier &+ increment
        let xorShifted = UInt32(truncatingIfNeeded: ((old >> 18) ^ old) >> 27)
        let rotation = UInt32(truncatingIfNeeded: old >> 59)
        return xorShifted >> rotation | xorShifted << ((0 &- rotation) & 31)
    }

    /// A double in [0, 1): the top 24 bits times 2^-24 (exact in `Float` and `Double`).
    public mutating func unit() -> Double {
        Double(nextUInt32() >> 8) * 0x1p-24
    }

    /// `lo + (hi - lo) * unit()`, evaluated in that order.
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        let f = unit()
        return lo + (hi - lo) * f
    }

    /// 0…255: the top 8 bits.
    public mutating func u8() -> UInt8 {
        UInt8(nextUInt32() >> 24)
    }

    /// 64…191: a semi-transparent alpha.
    public mutating func alpha() -> UInt8 {
        UInt8(64 + (nextUInt32() >> 25))
    }
}
