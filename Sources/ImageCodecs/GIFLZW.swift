#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// GIF's variable-length LZW (GIF89a spec, appendix F), written from the specification.
///
/// Codes start at `minimumCodeSize + 1` bits; the code width grows when the next code to be
/// assigned no longer fits the width the decoder reads with (the decoder lags one entry behind
/// the encoder, so the width grows once `next > 2^width`); when all 4096 codes are assigned the
/// encoder emits a clear code at 12 bits and starts a new table. The stream is cut into
/// sub-blocks of at most 255 bytes, each preceded by its length, and ends with an empty block.
///
/// The string table is a hash of (prefix code, next index) → code with open addressing in 8192
/// slots (32 KiB, stays in the L1/L2 cache); one table holds at most 4096 − 258 entries, so the
/// load stays under one half.
///
/// Runs of one index — the transparent "unchanged" pixels of a differenced frame — skip the
/// hash. The codes standing for s, ss, sss, … are always created in order of length (a run
/// code is only ever extended from the longest one, since a shorter one's extension already
/// exists), so `runCodes[s][L]` lists them by length: when the current string is a run of s
/// and s follows, the encoder counts how many s follow in the input and jumps straight to the
/// longest run code it can use — the greedy longest match LZW makes anyway.
final class GIFLZWEncoder {
    private static let tableBits = 13
    private static let tableSize = 1 << tableBits
    private static let notARun: UInt16 = 0xFFFF
    /// Entry: (prefix << 8 | index) << 12 | code; 0 marks an empty slot (real codes are ≥ 4).
    private let table: UnsafeMutablePointer<UInt32>
    /// Per code: the index it is a pure run of, or `notARun`; and the run's length.
    private let runSymbol: UnsafeMutablePointer<UInt16>
    private let runLength: UnsafeMutablePointer<UInt16>
    /// `runCodes[s << 12 | L]`: the code of index s repeated L times (1 ≤ L ≤ `longestRun[s]`).
    private let runCodes: UnsafeMutablePointer<UInt16>
    private let longestRun: UnsafeMutablePointer<UInt16>

    init() {
        table = .allocate(capacity: Self.tableSize)
        table.initialize(repeating: 0, count: Self.tableSize)
        runSymbol = .allocate(capacity: 4096)
        runSymbol.initialize(repeating: Self.notARun, count: 4096)
        runLength = .allocate(capacity: 4096)
        runLength.initialize(repeating: 0, count: 4096)
        runCodes = .allocate(capacity: 256 << 12)
        runCodes.initialize(repeating: 0, count: 256 << 12)
        longestRun = .allocate(capacity: 256)
        longestRun.initialize(repeating: 0, count: 256)
    }

    deinit {
        table.deallocate(); runSymbol.deallocate(); runLength.deallocate()
        runCodes.deallocate(); longestRun.deallocate()
    }

    /// Empties the string table: only the single-index codes (each a run of length 1) remain.
    private func clearTable(literals: Int) {
        memset(table, 0, Self.tableSize * 4)
        for c in 0..<literals {
            runSymbol[c] = UInt16(c)
            runLength[c] = 1
            runCodes[c << 12 | 1] = UInt16(c)
            longestRun[c] = 1
        }
    }

    /// The first index in `start..<stop` whose byte is not `byte`, or `stop` (16 at a time).
    @inline(__always)
    private static func runEnd(_ base: UnsafePointer<UInt8>, from start: Int, to stop: Int, byte: UInt8) -> Int {
        var i = start
        let pattern = SIMD16<UInt8>(repeating: byte)
        while i &+ 16 <= stop {
            if any(UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self) .!= pattern) { break }
            i &+= 16
        }
        while i < stop && base[i] == byte { i &+= 1 }
        return i
    }

    /// Appends the image data block for `indices` (each < 2^`minimumCodeSize`): the minimum
    /// code size byte, the LZW stream in sub-blocks, the block terminator. `minimumCodeSize` is
    /// 2…8 (GIF requires at least 2, even for two-colour tables).
    func encode(_ indices: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, into out: ByteBuffer) {
        precondition((2...8).contains(minimumCodeSize), "GIF LZW minimum code size must be 2…8")
        out.append(UInt8(truncatingIfNeeded: minimumCodeSize))
        let clear = UInt32(1) << UInt32(minimumCodeSize)
        let end = clear + 1
        let first = clear + 2
        let initialWidth = UInt32(minimumCodeSize + 1)
        var writer = SubBlockWriter(out: out)

        let literals = Int(clear)
        clearTable(literals: literals)
        var width = initialWidth
        var next = first
        writer.put(clear, width: width)
        guard let base = indices.baseAddress, indices.count > 0 else {
            writer.put(end, width: width)
            writer.finish()
            return
        }
        let mask = UInt32(Self.tableSize - 1)
        var prefix = UInt32(base[0])
        var i = 1
        let count = indices.count
        while i < count {
            let k = UInt32(base[i])
            i += 1
            let isRun = UInt32(runSymbol[Int(prefix)]) == k
            if isRun {
                let length = Int(runLength[Int(prefix)]), longest = Int(longestRun[Int(k)])
                if length < longest {
                    // Take as many more k as the input has and the run codes reach.
                    var reach = length + 1
                    let stop = min(count, i + (longest - reach))
                    let end = Self.runEnd(base, from: i, to: stop, byte: UInt8(truncatingIfNeeded: k))
                    reach += end - i
                    i = end
                    prefix = UInt32(runCodes[Int(k) << 12 | reach])
                    continue
                }
            }
            let key = prefix << 8 | k
            var slot = (key &* 0x9E37_79B1) >> UInt32(32 - Self.tableBits)
            var found = false
            while true {
                let entry = table[Int(slot)]
                if entry == 0 { break }
                if entry >> 12 == key {
                    prefix = entry & 0xFFF
                    found = true
                    break
                }
                slot = (slot &+ 1) & mask
            }
            if found { continue }
            writer.put(prefix, width: width)
            table[Int(slot)] = key << 12 | next
            if isRun {
                // prefix is the longest run of k: this entry is the run one longer.
                let length = runLength[Int(prefix)] &+ 1
                runSymbol[Int(next)] = UInt16(truncatingIfNeeded: k)
                runLength[Int(next)] = length
                runCodes[Int(k) << 12 | Int(length)] = UInt16(truncatingIfNeeded: next)
                longestRun[Int(k)] = length
            } else {
                runSymbol[Int(next)] = Self.notARun
            }
            next += 1
            if next == 4096 {
                writer.put(clear, width: width)
                clearTable(literals: literals)
                width = initialWidth
                next = first
            } else if next > (1 << width) {
                width += 1
            }
            prefix = k
        }
        writer.put(prefix, width: width)
        // The decoder adds an entry for the code just read; if that entry reaches the width
        // limit, it reads the end code one bit wider.
        if next + 1 > (1 << width), width < 12, next != first { width += 1 }
        writer.put(end, width: width)
        writer.finish()
    }
}

/// Packs codes least-significant bit first into 255-byte sub-blocks, each preceded by its length.
private struct SubBlockWriter {
    let out: ByteBuffer
    private var bits: UInt64 = 0
    private var bitCount: UInt32 = 0
    /// Offset of the current block's length byte.
    private var blockStart: Int
    private var blockLength = 0

    init(out: ByteBuffer) {
        self.out = out
        out.reserve(256)
        blockStart = out.count
        out.appendUnchecked(0)
    }

    @inline(__always) mutating func put(_ code: UInt32, width: UInt32) {
        bits |= UInt64(code) << UInt64(bitCount)
        bitCount += width
        while bitCount >= 8 {
            byte(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
            bitCount -= 8
        }
    }

    @inline(__always) private mutating func byte(_ value: UInt8) {
        if blockLength == 255 {
            out.set(255, at: blockStart)
            out.reserve(256)
            blockStart = out.count
            out.appendUnchecked(0)
            blockLength = 0
        }
        out.appendUnchecked(value)
        blockLength += 1
    }

    /// Flushes the last partial byte, closes the last block and writes the terminator.
    mutating func finish() {
        if bitCount > 0 { byte(UInt8(truncatingIfNeeded: bits)); bits = 0; bitCount = 0 }
        if blockLength > 0 {
            out.set(UInt8(truncatingIfNeeded: blockLength), at: blockStart)
            out.append(0)
        } else {
            // The block opened last is empty: its length byte becomes the terminator.
            out.set(0, at: blockStart)
        }
    }
}
