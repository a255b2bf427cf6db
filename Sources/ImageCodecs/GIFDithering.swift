/// A rectangle of the canvas, in pixels.
struct GIFRect: Equatable {
    var x = 0, y = 0, width = 0, height = 0

    static let empty = GIFRect()
    var isEmpty: Bool { width <= 0 || height <= 0 }
    var area: Int { isEmpty ? 0 : width * height }

    /// The smallest rectangle holding both.
    func union(_ other: GIFRect) -> GIFRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        let x1 = max(x + width, other.x + other.width), y1 = max(y + height, other.y + other.height)
        return GIFRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// Maps one frame's rectangle to palette indices, for each dithering mode. Pixels whose source
/// colour equals what the canvas already shows for them (`shownSource`) — unchanged pixels and
/// transparent ones — get the transparent index (or 0 when there is none: then the rectangle
/// holds changed pixels only); every changed pixel gets its palette index. The canvas model is
/// not touched: `GIFFrameCoder.commit` records the frame afterwards (and makes a changed pixel
/// whose colour is already displayed transparent).
struct GIFFrameMapping {
    /// The frame's pixels: opaque colour words, or 0 for transparent.
    let source: UnsafePointer<UInt32>
    let shownSource: UnsafePointer<UInt32>
    let canvasWidth: Int
    let rect: GIFRect
    /// `rect.width × rect.height` indices, row-major.
    let indices: UnsafeMutablePointer<UInt8>
    let search: GIFPaletteSearch
    /// The transparent index, or -1 when the palette has none.
    let transparentIndex: Int

    /// Nearest colour, no dithering.
    func mapNearest() {
        let keep = UInt8(truncatingIfNeeded: max(transparentIndex, 0))
        for y in 0..<rect.height {
            let row = (rect.y + y) * canvasWidth + rect.x
            var lastColor: UInt32 = 0, lastIndex = 0
            GIFRows.mapChanged(source + row, shownSource + row, count: rect.width, into: indices + y * rect.width, keep: keep) { x in
                let p = source[row &+ x]
                if p != lastColor {
                    lastColor = p
                    lastIndex = search.nearest(Int32(p & 0xFF), Int32(p >> 8 & 0xFF), Int32(p >> 16 & 0xFF))
                }
                return UInt8(truncatingIfNeeded: lastIndex)
            }
        }
    }

    /// The 8×8 Bayer matrix (values 0…63).
    static let bayer: [Int32] = [
        0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26,
        12, 44, 4, 36, 14, 46, 6, 38, 60, 28, 52, 20, 62, 30, 54, 22,
        3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25,
        15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21,
    ]

    /// Ordered dithering: the Bayer threshold at the pixel's canvas position, scaled to span
    /// `amplitude` levels (centred on 0), is added to all three channels before the search.
    /// Pixels whose colour is in the palette are not dithered.
    func mapOrdered(amplitude: Int32) {
        let keep = UInt8(truncatingIfNeeded: max(transparentIndex, 0))
        var offsets = [Int32](repeating: 0, count: 64)
        for k in 0..<64 { offsets[k] = ((2 * Self.bayer[k] + 1 - 64) * amplitude) / 128 }
        offsets.withUnsafeBufferPointer { offsets in
            for y in 0..<rect.height {
                let cy = rect.y + y
                let row = cy * canvasWidth + rect.x
                let matrixRow = (cy & 7) << 3
                GIFRows.mapChanged(source + row, shownSource + row, count: rect.width, into: indices + y * rect.width, keep: keep) { x in
                    let p = source[row &+ x]
                    var index = search.index(of: p)
                    if index < 0 {
                        let r = Int32(p & 0xFF), g = Int32(p >> 8 & 0xFF), b = Int32(p >> 16 & 0xFF)
                        let o = offsets[matrixRow | ((rect.x &+ x) & 7)]
                        index = search.nearest(clamp(r &+ o), clamp(g &+ o), clamp(b &+ o))
                    }
                    return UInt8(truncatingIfNeeded: index)
                }
            }
        }
    }

    /// Floyd–Steinberg error diffusion in serpentine order over the changed pixels; unchanged
    /// pixels neither take nor pass on error. Each pixel's error is clamped to ±`errorLimit`
    /// levels per channel so that a colour far from the palette does not smear. `errors` holds
    /// 6·(rect.width + 2) values of scratch.
    func mapDiffusion(errorLimit: Int32, errors: UnsafeMutablePointer<Int32>) {
        let keep = UInt8(truncatingIfNeeded: max(transparentIndex, 0))
        let stride = 3 * (rect.width + 2)
        var current = errors, below = errors + stride
        current.update(repeating: 0, count: stride)
        for y in 0..<rect.height {
            below.update(repeating: 0, count: stride)
            let row = (rect.y + y) * canvasWidth + rect.x
            let out = indices + y * rect.width
            let forward = y & 1 == 0
            let step = forward ? 1 : -1
            var x = forward ? 0 : rect.width - 1
            for _ in 0..<rect.width {
                defer { x += step }
                let i = row + x, p = source[i]
                if p == shownSource[i] { out[x] = keep; continue }
                let e = 3 * (x + 1)
                let r = clamp(Int32(p & 0xFF) &+ ((current[e] &+ 8) >> 4))
                let g = clamp(Int32(p >> 8 & 0xFF) &+ ((current[e + 1] &+ 8) >> 4))
                let b = clamp(Int32(p >> 16 & 0xFF) &+ ((current[e + 2] &+ 8) >> 4))
                let index = search.nearest(r, g, b)
                let c = search.colors[index]
                let er = limit(r &- Int32(c & 0xFF), errorLimit)
                let eg = limit(g &- Int32(c >> 8 & 0xFF), errorLimit)
                let eb = limit(b &- Int32(c >> 16 & 0xFF), errorLimit)
                let ahead = e + 3 * step, behind = e - 3 * step
                current[ahead] &+= 7 &* er; current[ahead + 1] &+= 7 &* eg; current[ahead + 2] &+= 7 &* eb
                below[behind] &+= 3 &* er; below[behind + 1] &+= 3 &* eg; below[behind + 2] &+= 3 &* eb
                below[e] &+= 5 &* er; below[e + 1] &+= 5 &* eg; below[e + 2] &+= 5 &* eb
                below[ahead] &+= er; below[ahead + 1] &+= eg; below[ahead + 2] &+= eb
                out[x] = UInt8(truncatingIfNeeded: index)
            }
            swap(&current, &below)
        }
    }
}

/// Row walks over the pixels that changed (`a[x] != b[x]`), eight at a time.
enum GIFRows {
    /// Walks a row of `count` pixels eight at a time: where `a[x] != b[x]` (a changed pixel)
    /// `out[x] = body(x)`, in increasing x; elsewhere `out[x] = keep`. Unchanged stretches cost
    /// one vector compare and one 8-byte store per eight pixels.
    @inline(__always)
    static func mapChanged(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, count: Int, into out: UnsafeMutablePointer<UInt8>,
                           keep: UInt8, _ body: (Int) -> UInt8) {
        let keep8 = UInt64(keep) &* 0x0101_0101_0101_0101
        var x = 0
        while x &+ 8 <= count {
            let differs = UnsafeRawPointer(a + x).loadUnaligned(as: SIMD8<UInt32>.self)
                .!= UnsafeRawPointer(b + x).loadUnaligned(as: SIMD8<UInt32>.self)
            if !any(differs) {
                UnsafeMutableRawPointer(out + x).storeBytes(of: keep8, toByteOffset: 0, as: UInt64.self)
            } else {
                for lane in 0..<8 { out[x &+ lane] = differs[lane] ? body(x &+ lane) : keep }
            }
            x &+= 8
        }
        while x < count {
            out[x] = a[x] != b[x] ? body(x) : keep
            x &+= 1
        }
    }

    /// Calls `body(x)` for each x in 0..<count where `a[x] != b[x]`, in increasing x, checking
    /// eight pixels at a time.
    @inline(__always)
    static func forEachChanged(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, count: Int, _ body: (Int) -> Void) {
        var x = 0
        while x &+ 8 <= count {
            let differs = UnsafeRawPointer(a + x).loadUnaligned(as: SIMD8<UInt32>.self)
                .!= UnsafeRawPointer(b + x).loadUnaligned(as: SIMD8<UInt32>.self)
            if any(differs) {
                for lane in 0..<8 where differs[lane] { body(x &+ lane) }
            }
            x &+= 8
        }
        while x < count {
            if a[x] != b[x] { body(x) }
            x &+= 1
        }
    }
}

@inline(__always) private func clamp(_ v: Int32) -> Int32 { min(max(v, 0), 255) }
@inline(__always) private func limit(_ v: Int32, _ bound: Int32) -> Int32 { min(max(v, -bound), bound) }
