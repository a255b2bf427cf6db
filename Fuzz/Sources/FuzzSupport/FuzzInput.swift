/// Reads values from a fuzzer's bytes, front to back; past the end every read gives zeros, so
/// any byte string is a complete input.
public struct FuzzInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0
    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether every byte has been read.
    public var isEmpty: Bool { offset >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// An index below `count` (0 when `count` is 0).
    public mutating func index(_ count: Int) -> Int { count > 0 ? Int(byte()) % count : 0 }

    /// Whether the next byte is odd.
    public mutating func flag() -> Bool { byte() & 1 == 1 }

    /// Mostly a small number (−128…127 plus a sixteenth-step fraction, from two bytes), sometimes
    /// (a first byte ≥ 0xF0) any Float bit pattern: NaN, ±∞, 1e38 …, and, when `special` is not
    /// empty, after a first byte 0xE0…0xEF one of `special`.
    public mutating func number(special: [Double] = []) -> Double {
        let kind = byte()
        if kind & 0xF0 == 0xF0 {
            let bits = UInt32(byte()) << 24 | UInt32(byte()) << 16 | UInt32(byte()) << 8 | UInt32(byte())
            return Double(Float(bitPattern: bits))
        }
        if kind & 0xF0 == 0xE0, !special.isEmpty { return special[index(special.count)] }
        return Double(Int8(bitPattern: byte())) + Double(kind & 0x0F) / 16
    }
}
