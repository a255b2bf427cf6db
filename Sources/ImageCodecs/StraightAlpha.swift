import Raster

/// Premultiplied → straight alpha, the conversion every encoder of straight-alpha formats (PNG,
/// APNG, GIF, raw frames for ffmpeg) makes: `c·255/a` rounded to nearest, clamped to 255;
/// fully transparent pixels become transparent black. Exact for every valid premultiplied
/// pixel: premultiplying the result back gives the input.
public enum StraightAlpha {
    /// Converts `count` RGBA8 pixels from `source` into `target` (which may be `source`).
    @inlinable
    public static func convert(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels count: Int) {
        for i in 0..<count {
            let p = 4 &* i
            let a = UInt32(source[p &+ 3])
            if a == 255 {
                target[p] = source[p]; target[p &+ 1] = source[p &+ 1]; target[p &+ 2] = source[p &+ 2]; target[p &+ 3] = 255
                continue
            }
            target[p &+ 3] = UInt8(truncatingIfNeeded: a)
            guard a > 0 else { target[p] = 0; target[p &+ 1] = 0; target[p &+ 2] = 0; continue }
            for k in 0..<3 {
                let c = UInt32(source[p &+ k])
                target[p &+ k] = UInt8(truncatingIfNeeded: min(255, (c &* 255 &+ a / 2) / a))
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
}
