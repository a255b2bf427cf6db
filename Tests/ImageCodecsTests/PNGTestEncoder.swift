import TestSupport

/// An independent PNG writer for the tests, written from the PNG specification (W3C PNG 2nd
/// ed.): chunks with CRC-32, a zlib stream of *stored* deflate blocks with Adler-32, the five
/// scanline filters and Adam7 interlacing. It shares no code with ImageCodecs or libpng.
struct PNGTestImage {
    enum ColorType: UInt8 { case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6 }

    var width: Int
    var height: Int
    var colorType: ColorType
    var bitDepth: Int
    /// Samples, row-major, `channels` per pixel, each < 2^bitDepth (palette: indices).
    var samples: [UInt16]
    /// RGB triples (palette images).
    var palette: [UInt8] = []
    /// The tRNS chunk's payload, if any.
    var transparency: [UInt8]? = nil
    var interlaced = false
    /// Filter type used for row k is `filters[k % filters.count]`.
    var filters: [UInt8] = [0]

    var channels: Int {
        switch colorType {
        case .gray, .palette: return 1
        case .grayAlpha: return 2
        case .rgb: return 3
        case .rgba: return 4
        }
    }

    func sample(x: Int, y: Int, channel: Int) -> UInt16 { samples[(y * width + x) * channels + channel] }

    /// The complete file.
    func encoded() -> [UInt8] {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        file += chunk("IHDR", header)
        if !palette.isEmpty { file += chunk("PLTE", palette) }
        if let transparency { file += chunk("tRNS", transparency) }
        file += chunk("IDAT", zlibStored(filteredScanlines()))
        file += chunk("IEND", [])
        return file
    }

    /// The scanlines of every pass (Adam7: seven reduced images) with their filter bytes.
    private func filteredScanlines() -> [UInt8] {
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var out: [UInt8] = []
        var rowIndex = 0
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: width, by: pass.dx))
            guard !xs.isEmpty else { continue }
            var previous: [UInt8]? = nil
            for y in stride(from: pass.y0, to: height, by: pass.dy) {
                let raw = packedRow(y: y, xs: xs)
                let filter = filters[rowIndex % filters.count]
                out.append(filter)
                out += apply(filter: filter, to: raw, previous: previous ?? [UInt8](repeating: 0, count: raw.count))
                previous = raw
                rowIndex += 1
            }
        }
        return out
    }

    private func packedRow(y: Int, xs: [Int]) -> [UInt8] {
        var bytes: [UInt8] = []
        var accumulator = 0, bits = 0
        for x in xs {
            for c in 0..<channels {
                let v = Int(sample(x: x, y: y, channel: c))
                if bitDepth == 16 {
                    bytes += [UInt8(v >> 8), UInt8(v & 0xFF)]
                } else {
                    accumulator = accumulator << bitDepth | v
                    bits += bitDepth
                    if bits == 8 { bytes.append(UInt8(accumulator)); accumulator = 0; bits = 0 }
                }
            }
        }
        if bits > 0 { bytes.append(UInt8(accumulator << (8 - bits))) }
        return bytes
    }

    private func apply(filter: UInt8, to raw: [UInt8], previous: [UInt8]) -> [UInt8] {
        let bpp = max(1, channels * bitDepth / 8)
        var out = [UInt8](repeating: 0, count: raw.count)
        for i in 0..<raw.count {
            let a = i >= bpp ? Int(raw[i - bpp]) : 0
            let b = Int(previous[i])
            let c = i >= bpp ? Int(previous[i - bpp]) : 0
            let predictor: Int
            switch filter {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            default:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            }
            out[i] = UInt8((Int(raw[i]) - predictor) & 0xFF)
        }
        return out
    }
}

/// A zlib stream (RFC 1950) holding `data` in stored deflate blocks (RFC 1951 §3.2.4).
func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let n = min(65_535, data.count - offset)
        let final: UInt8 = offset + n == data.count ? 1 : 0
        out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
        out += data[offset..<offset + n]
        offset += n
    } while offset < data.count
    var s1: UInt32 = 1, s2: UInt32 = 0
    for byte in data { s1 = (s1 + UInt32(byte)) % 65_521; s2 = (s2 + s1) % 65_521 }
    return out + bigEndian(s2 << 16 | s1)
}
