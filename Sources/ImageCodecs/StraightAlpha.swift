import Raster

/// Premultiplied → straight alpha, the conversion every encoder of straight-alpha formats (PNG,
/// APNG, GIF, raw frames for ffmpeg) makes: `c·255/a` rounded to nearest, clamped to 255;
/// fully transparent pixels become transparent black. Exact for every valid premultiplied
/// pixel: premultiplying the result back gives the input.
public enum StraightAlpha {
    /// Converts `pixelCount` premultiplied RGBA8 pixels from `source` into `target` (which may
    /// be `source`): opaque pixels are copied (four at a time), the others looked up in `table`.
    public static func convert(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels pixelCount: Int) {
        let opaque: UInt64 = 0xFF00_0000_FF00_0000
        let sourceRaw = UnsafeRawPointer(source), targetRaw = UnsafeMutableRawPointer(target)
        table.withUnsafeBufferPointer { table in
            var i = 0
            // Four pixels at a time while they are opaque, then one pixel.
            while i < pixelCount {
                if i + 4 <= pixelCount {
                    let w0 = sourceRaw.loadUnaligned(fromByteOffset: 4 * i, as: UInt64.self)
                    let w1 = sourceRaw.loadUnaligned(fromByteOffset: 4 * i + 8, as: UInt64.self)
                    if w0 & w1 & opaque == opaque {
                        targetRaw.storeBytes(of: w0, toByteOffset: 4 * i, as: UInt64.self)
                        targetRaw.storeBytes(of: w1, toByteOffset: 4 * i + 8, as: UInt64.self)
                        i += 4
                        continue
                    }
                }
                let p = source + 4 * i, q = target + 4 * i
                let a = Int(p[3])
                let base = a << 8
                q[0] = table[base | Int(p[0])]
                q[1] = table[base | Int(p[1])]
                q[2] = table[base | Int(p[2])]
                q[3] = p[3]
                i += 1
            }
        }
    }

    /// A straight-alpha copy of `pixmap`'s pixels, row-major, `width·height·4` bytes.
    public static func bytes(of pixmap: Pixmap) -> [UInt8] {
        let count = pixmap.width * pixmap.height
        return [UInt8](unsafeUninitializedCapacity: count * 4) { out, initialized in
            convert(pixmap.pixels, into: out.baseAddress!, pixels: count)
            initialized = count * 4
        }
    }

    /// `table[a << 8 | c]` = min(255, (c·255 + a/2)/a), 0 for a = 0.
    static let table: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 65_536)
        for a in 1..<256 {
            for c in 0..<256 { table[a << 8 | c] = UInt8(min(255, (c * 255 + a / 2) / a)) }
        }
        return table
    }()
}
