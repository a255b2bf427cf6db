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
        for y in 0..<h {
            let y0 = min(2 * y, height - 1), y1 = min(2 * y + 1, height - 1)
            for x in 0..<w {
                let x0 = min(2 * x, width - 1), x1 = min(2 * x + 1, width - 1)
                let a = words[y0 * width + x0], b = words[y0 * width + x1]
                let c = words[y1 * width + x0], d = words[y1 * width + x1]
                var word: UInt32 = 0
                for shift in stride(from: 0 as UInt32, to: 32, by: 8) {
                    let sum = (a >> shift & 0xFF) + (b >> shift & 0xFF) + (c >> shift & 0xFF) + (d >> shift & 0xFF)
                    word |= ((sum + 2) / 4) << shift
                }
                out.words[y * w + x] = word
            }
        }
        return out
    }
}
