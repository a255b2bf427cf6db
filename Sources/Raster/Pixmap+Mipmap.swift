/// Mipmaps for minified image drawing: each level halves the previous one (rounding sizes up,
/// edge texels repeated) with a 2×2 box filter on premultiplied values. Levels are built on first
/// use and cached on the pixmap (under a lock, so that threads may share an image); a pixmap used as an image is treated as immutable — call
/// `invalidateMipmaps()` after drawing into one that was already sampled with `.smooth`.
extension Pixmap {
    /// The level-`level` halving (0 = self); stops at 1×1.
    func mipmap(level: Int) -> Pixmap {
        mipLevels.withLock { levels in
            var current = self
            for l in 1...max(1, level) {
                if l - 1 < levels.count {
                    current = levels[l - 1]
                    continue
                }
                guard current.width > 1 || current.height > 1,
                      let next = current.halved() else { return current }
                levels.append(next)
                current = next
            }
            return level == 0 ? self : current
        }
    }

    /// Drops cached mipmap levels (after the pixels changed).
    public func invalidateMipmaps() { mipLevels.withLock { $0.removeAll() } }

    /// This pixmap halved (sizes rounded up, edge texels repeated), 2×2 box on premultiplied values.
    func halved() -> Pixmap? {
        let w = (width + 1) / 2, h = (height + 1) / 2
        guard let out = try? Pixmap(width: w, height: h) else { return nil }
        // Output pixels whose two texel columns are both inside: width / 2 of them.
        let whole = width / 2
        for y in 0..<h {
            let y0 = min(2 * y, height - 1), y1 = min(2 * y + 1, height - 1)
            let top = UnsafeRawPointer(words + y0 * width), bottom = UnsafeRawPointer(words + y1 * width)
            var x = 0
            // Four at a time: the texels of four output pixels are eight words of each row.
            while x + 4 <= whole {
                let t = top.loadUnaligned(fromByteOffset: 8 * x, as: SIMD8<UInt32>.self)
                let b = bottom.loadUnaligned(fromByteOffset: 8 * x, as: SIMD8<UInt32>.self)
                UnsafeMutableRawPointer(out.words + y * w + x).storeBytes(
                    of: Pixmap.boxAverage(t.evenHalf, t.oddHalf, b.evenHalf, b.oddHalf), as: SIMD4<UInt32>.self)
                x += 4
            }
            for x in x..<w {
                let x0 = min(2 * x, width - 1), x1 = min(2 * x + 1, width - 1)
                let a = words[y0 * width + x0], b = words[y0 * width + x1]
                let c = words[y1 * width + x0], d = words[y1 * width + x1]
                out.words[y * w + x] = Pixmap.boxAverage(SIMD4(repeating: a), SIMD4(repeating: b), SIMD4(repeating: c),
                                                         SIMD4(repeating: d))[0]
            }
        }
        return out
    }

    /// Every channel of the four words a, b, c, d (in each lane) averaged, (sum + 2) / 4: the
    /// sums of R and B, and of G and A, in the 16-bit halves of 32-bit lanes (at most 4 × 255).
    @inline(__always)
    static func boxAverage(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let m = SIMD4<UInt32>(repeating: 0x00FF_00FF), two = SIMD4<UInt32>(repeating: 0x0002_0002)
        let even = (a & m) &+ (b & m) &+ (c & m) &+ (d & m)
        let odd = (a &>> 8 & m) &+ (b &>> 8 & m) &+ (c &>> 8 & m) &+ (d &>> 8 & m)
        return ((even &+ two) &>> 2 & m) | ((odd &+ two) &>> 2 & m) &<< 8
    }
}
