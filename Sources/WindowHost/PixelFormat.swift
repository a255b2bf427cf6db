import Raster

/// A TrueColor pixel layout, as an X visual and image describe it: where each colour channel sits
/// in the pixel value (its mask), how many bits a pixel takes, and the byte order of the image.
/// Converts premultiplied RGBA8 (`Pixmap`) into it. The window is opaque: a premultiplied pixel
/// composited over black is its colour channels as they are, so alpha is dropped.
///
/// The common X server layout — depth 24, 32 bits per pixel, masks 0xff0000/0xff00/0xff,
/// little-endian (BGRX in memory) — is one case of the general rule; 16-bit (565), packed 24-bit
/// and wider channels (depth 30) follow from the masks too. Nothing is assumed.
public struct PixelFormat: Sendable, Equatable {
    /// One colour channel's place in the pixel value.
    public struct Channel: Sendable, Equatable {
        /// Lowest bit of the field.
        public let shift: Int
        /// Width of the field (1…16 bits).
        public let bits: Int

        /// The field of a contiguous, non-empty mask of at most 16 bits; nil otherwise.
        public init?(mask: UInt) {
            guard mask != 0 else { return nil }
            let shift = mask.trailingZeroBitCount
            let field = mask >> UInt(shift)
            let bits = (field + 1).trailingZeroBitCount
            guard field & (field + 1) == 0, bits <= 16, shift + bits <= 32 else { return nil }
            self.shift = shift
            self.bits = bits
        }

        /// An 8-bit value scaled to the field and put in place (bit replication for wider fields,
        /// truncation for narrower ones, as X servers expect).
        func place(_ v: UInt32) -> UInt32 {
            let scaled = bits <= 8 ? v >> UInt32(8 - bits) : (v << UInt32(bits - 8)) | (v >> UInt32(16 - bits))
            return scaled << UInt32(shift)
        }
    }

    public let red: Channel, green: Channel, blue: Channel
    /// 16, 24 or 32 are converted here; others are left to Xlib's per-pixel `XPutPixel`.
    public let bitsPerPixel: Int
    /// The image's byte order: most significant byte first.
    public let bigEndian: Bool

    public init?(redMask: UInt, greenMask: UInt, blueMask: UInt, bitsPerPixel: Int, bigEndian: Bool) {
        guard let r = Channel(mask: redMask), let g = Channel(mask: greenMask), let b = Channel(mask: blueMask),
              redMask & greenMask == 0, redMask & blueMask == 0, greenMask & blueMask == 0 else { return nil }
        red = r; green = g; blue = b
        self.bitsPerPixel = bitsPerPixel
        self.bigEndian = bigEndian
    }

    /// Whether `convert` handles this layout (otherwise: one `pixelValue` per pixel via Xlib).
    public var isConvertedDirectly: Bool {
        [16, 24, 32].contains(bitsPerPixel) && max(red.shift + red.bits, green.shift + green.bits, blue.shift + blue.bits) <= bitsPerPixel
    }

    /// The pixel value of a premultiplied RGBA8 word (R in the low byte, as `Pixmap.words` holds it).
    public func pixelValue(_ rgba: UInt32) -> UInt32 {
        red.place(rgba & 0xff) | green.place((rgba >> 8) & 0xff) | blue.place((rgba >> 16) & 0xff)
    }

    /// Converts `rect` of `source` into an image whose row `y` starts at `destination + y ·
    /// bytesPerRow` (same pixel coordinates). `rect` must lie inside both; requires
    /// `isConvertedDirectly`.
    public func convert(_ rect: PixelRect, of source: Pixmap, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) {
        precondition(isConvertedDirectly, "PixelFormat.convert: \(bitsPerPixel) bits per pixel is converted by XPutPixel")
        guard !rect.isEmpty else { return }
        precondition(rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= source.width && rect.y + rect.height <= source.height)
        let bytes = bitsPerPixel / 8
        let swap = bigEndian != (UInt32(1).bigEndian == 1)   // image order differs from this machine's
        for y in rect.y..<(rect.y + rect.height) {
            let src = UnsafeBufferPointer(start: source.words + y * source.width + rect.x, count: rect.width)
            let row = destination + y * bytesPerRow + rect.x * bytes
            switch bitsPerPixel {
            case 32:
                let dst = row.assumingMemoryBound(to: UInt32.self)
                if red.bits == 8 && green.bits == 8 && blue.bits == 8 && !swap {
                    convertBytewise(src, into: dst)
                } else {
                    for i in 0..<src.count {
                        let v = pixelValue(src[i])
                        dst[i] = swap ? v.byteSwapped : v
                    }
                }
            case 16:
                let dst = row.assumingMemoryBound(to: UInt16.self)
                for i in 0..<src.count {
                    let v = UInt16(truncatingIfNeeded: pixelValue(src[i]))
                    dst[i] = swap ? v.byteSwapped : v
                }
            default:   // 24: three bytes, in the image's order
                let dst = row.assumingMemoryBound(to: UInt8.self)
                for i in 0..<src.count {
                    let v = pixelValue(src[i])
                    let b0 = UInt8(truncatingIfNeeded: v), b1 = UInt8(truncatingIfNeeded: v >> 8), b2 = UInt8(truncatingIfNeeded: v >> 16)
                    if bigEndian {
                        dst[3 * i] = b2; dst[3 * i + 1] = b1; dst[3 * i + 2] = b0
                    } else {
                        dst[3 * i] = b0; dst[3 * i + 1] = b1; dst[3 * i + 2] = b2
                    }
                }
            }
        }
    }

    /// The usual case — 8-bit channels at byte positions, in this machine's byte order — eight
    /// pixels at a time (uniform shifts: one vector instruction each), then the rest one by one.
    private func convertBytewise(_ src: UnsafeBufferPointer<UInt32>, into dst: UnsafeMutablePointer<UInt32>) {
        let rs = UInt32(red.shift), gs = UInt32(green.shift), bs = UInt32(blue.shift)
        let byte = SIMD8<UInt32>(repeating: 0xff)
        let r8 = SIMD8<UInt32>(repeating: rs), g8 = SIMD8<UInt32>(repeating: gs), b8 = SIMD8<UInt32>(repeating: bs)
        let eight = SIMD8<UInt32>(repeating: 8), sixteen = SIMD8<UInt32>(repeating: 16)
        let from = UnsafeRawPointer(src.baseAddress!), to = UnsafeMutableRawPointer(dst)
        let blocks = src.count / 8
        for k in 0..<blocks {
            let w = from.loadUnaligned(fromByteOffset: k * 32, as: SIMD8<UInt32>.self)
            let v = ((w & byte) &<< r8) | (((w &>> eight) & byte) &<< g8) | (((w &>> sixteen) & byte) &<< b8)
            to.storeBytes(of: v, toByteOffset: k * 32, as: SIMD8<UInt32>.self)
        }
        for i in (blocks * 8)..<src.count {
            let w = src[i]
            dst[i] = ((w & 0xff) << rs) | (((w >> 8) & 0xff) << gs) | (((w >> 16) & 0xff) << bs)
        }
    }
}
