import CKernels

// A gradient's colour lookup table and how a run of pixels reads it.
//
// The table (256 premultiplied words) is built once per gradient and kept by the pixmap drawn
// into (`GradientRampCache`), so redrawing a gradient frame after frame builds and allocates
// nothing. It is read per pixel through a parameter t mapped by the spread mode
// (`color(at:spread:table:)`). A linear gradient with the pad spread steps a 32.32 fixed-point
// table position along a run; where a table entry covers several pixels (wide gradients: S4's
// covers about ten), it stores whole stretches of one entry instead of looking each pixel up. With
// AVX2 or AVX-512 the same positions are stepped in vector lanes instead
// (`citrine_linear_pad_row_*`): eight or sixteen pixels permuted from one window of the table, no
// branch per stretch.

/// A gradient's colours baked into 256 premultiplied entries (interpolated in straight sRGB
/// values, premultiplied afterwards — as Core Graphics does), plus the spread mode.
struct GradientRamp {
    static let size = 256
    /// The table's storage: `size` entries, then the last one repeated, so that the vector loops
    /// can load sixteen consecutive entries from any entry (`citrine_linear_pad_row_avx512`), or
    /// 32 from any entry up to 240 (the AVX-512 radial rows' window, `lookup16` in Radial.c).
    static let paddedSize = size + 16
    /// The entries (premultiplied words), padded to `paddedSize`.
    let table: [UInt32]
    let spread: SpreadMode
    /// Whether every colour of the table is opaque.
    let isOpaque: Bool

    init(_ stops: [GradientStop], spread: SpreadMode) {
        self.spread = spread
        var sorted = stops.filter { $0.offset.isFinite }
        sorted.sort { $0.offset < $1.offset }
        var table = [UInt32](repeating: 0, count: GradientRamp.paddedSize)
        if let first = sorted.first, let last = sorted.last {
            var k = 0
            for i in 0..<GradientRamp.size {
                let t = Float(i) / Float(GradientRamp.size - 1)
                while k + 1 < sorted.count && sorted[k + 1].offset <= t { k += 1 }
                let color: Color
                if t <= first.offset {
                    color = first.color
                } else if t >= last.offset {
                    color = last.color
                } else {
                    let s0 = sorted[k], s1 = sorted[Swift.min(k + 1, sorted.count - 1)]
                    let span = s1.offset - s0.offset
                    let f = span > 0 ? (t - s0.offset) / span : 0
                    color = Color(r: s0.color.r + (s1.color.r - s0.color.r) * f,
                                  g: s0.color.g + (s1.color.g - s0.color.g) * f,
                                  b: s0.color.b + (s1.color.b - s0.color.b) * f,
                                  a: s0.color.a + (s1.color.a - s0.color.a) * f)
                }
                table[i] = color.premultiplied.word
            }
        }
        for i in GradientRamp.size..<GradientRamp.paddedSize { table[i] = table[GradientRamp.size - 1] }
        self.table = table
        isOpaque = table.allSatisfy { $0 >> 24 == 255 }
    }

    /// `count` colours of a linear gradient along a row: pixel k (k = x, x + 1, …, x + count − 1)
    /// at t + k·step, t being pixel 0's parameter, so that a pixel's colour does not depend on
    /// where its run starts. With the pad spread, in 32.32 fixed point,
    /// ⌊(t·255 + ½)·2³²⌋ + k·⌊step·255·2³²⌋, where pixel 0 and the run's end lie within 10⁹ table
    /// entries; else the colour lookup of t + k·step, which can round a hair differently — so two
    /// runs of one row can differ only where the parameter is that far out (in a row of 10 000
    /// pixels, a gradient steeper than 10⁵ entries a pixel, or pixel 0 that far away).
    func fill(from t: Double, step: Double, first x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        table.withUnsafeBufferPointer { table in
            let last = Double(GradientRamp.size - 1)
            let first = t * last + 0.5, end = first + step * last * Double(x + count)
            if spread == .pad, abs(first) < 1e9, abs(end) < 1e9 {
                // The scaled parameter in 32.32 fixed point, clamped to the table; the run's
                // first one stepped from pixel 0 in whole fixed-point steps (|v| < 2⁶², exact).
                let one = 4_294_967_296.0
                let dv = Int64((step * last * one).rounded(.down))
                let v = Int64((first * one).rounded(.down)) &+ Int64(x) &* dv
                if AVX2Kernels.isEnabled && dv.magnitude <= GradientRamp.widestVectorStep {
                    if AVX512Kernels.isEnabled {
                        citrine_linear_pad_row_avx512(table.baseAddress!, v, dv, count, out)
                    } else {
                        citrine_linear_pad_row_avx2(table.baseAddress!, v, dv, count, out)
                    }
                } else if dv.magnitude < GradientRamp.widestStep {
                    GradientRamp.padStretches(table, from: v, step: dv, count: count, into: out)
                } else {
                    GradientRamp.padPixels(table, from: v, step: dv, count: count, into: out)
                }
            } else {
                withColorLookup { color in
                    for i in 0..<count { out[i] = color(t + Double(x + i) * step) }
                }
            }
        }
    }

    /// The widest step (32.32 fixed point: one table entry per pixel) the vector loops take: a
    /// group of eight or sixteen pixels then spans at most as many consecutive entries.
    static let widestVectorStep: UInt64 = 1 << 32

    /// The widest step (32.32 fixed point, in table entries per pixel: a quarter) that
    /// `padStretches` takes; wider ones go pixel by pixel.
    static let widestStep: UInt64 = 1 << 30

    /// The pad spread's words for the fixed-point parameters v + i·dv (i in 0..<count), each
    /// the entry ⌊v / 2³²⌋ clamped to the table, pixel by pixel. Where v lies inside the table
    /// (0 ≤ v ≤ top), a stretch of pixels needs no clamping: its length comes from one division
    /// per stretch.
    static func padPixels(_ table: UnsafeBufferPointer<UInt32>, from v: Int64, step dv: Int64, count: Int,
                          into out: UnsafeMutablePointer<UInt32>) {
        let top = Int64(GradientRamp.size - 1) << 32
        var v = v, i = 0
        while i < count {
            guard v >= 0 && v <= top else {
                out[i] = table[Int(truncatingIfNeeded: Swift.min(Swift.max(v, 0), top) >> 32)]
                v &+= dv
                i &+= 1
                continue
            }
            let inside = dv > 0 ? (top &- v) / dv : dv < 0 ? v / (0 &- dv) : Int64(count)
            let end = i &+ Int(truncatingIfNeeded: Swift.min(inside, Int64(count &- i) &- 1)) &+ 1
            while i < end {
                out[i] = table[Int(truncatingIfNeeded: v >> 32)]
                v &+= dv
                i &+= 1
            }
        }
    }

    /// `padPixels`' words for steps under `widestStep`, entry by entry instead of pixel by
    /// pixel: each entry covers a stretch of at least four pixels, stored four at a time. The
    /// entry of v is ⌊v / 2³²⌋ clamped to 0…255 (the same as clamping v to the table first); a
    /// stretch ends where v + i·dv crosses into the next entry. The first stretch's length takes
    /// a division; after it each stretch starts within one step of its entry's edge, so its
    /// length is q = ⌊2³² / |dv|⌋ or q + 1 (q + 1 exactly when the pixel q steps on is still in the
    /// entry). The first and last entries reach without end (pad).
    static func padStretches(_ table: UnsafeBufferPointer<UInt32>, from v: Int64, step dv: Int64, count: Int,
                             into out: UnsafeMutablePointer<UInt32>) {
        @inline(__always) func entry(_ v: Int64) -> Int64 { Swift.min(Swift.max(v >> 32, 0), 255) }
        var v = v, i = 0
        var k = entry(v)
        // The first stretch: the pixels before v reaches the next entry's edge.
        var n: Int64
        if dv == 0 || (dv > 0 && k == 255) || (dv < 0 && k == 0) {
            n = Int64(count)
        } else if dv > 0 {
            n = (((k &+ 1) << 32) &- v &+ dv &- 1) / dv
        } else {
            n = (v &- (k << 32)) / (0 &- dv) &+ 1
        }
        let q = dv == 0 ? 0 : (1 << 32) / Int64(dv.magnitude)
        let qdv = q &* dv
        let next: Int64 = dv > 0 ? 1 : -1
        while true {
            let stretch = Int(truncatingIfNeeded: Swift.min(n, Int64(count &- i)))
            fill(out + i, count: stretch, with: table[Int(truncatingIfNeeded: k)])
            i &+= stretch
            guard i < count else { return }
            v &+= Int64(stretch) &* dv
            k &+= next
            n = k == 0 || k == 255 ? Int64(count) : (v &+ qdv) >> 32 == k ? q &+ 1 : q
        }
    }

    /// `count` copies of `word` at `out`, four at a time (the last four overlapping the ones
    /// before them; runs under four one by one).
    @inline(__always)
    static func fill(_ out: UnsafeMutablePointer<UInt32>, count: Int, with word: UInt32) {
        guard count >= 4 else {
            for j in 0..<count { out[j] = word }
            return
        }
        let raw = UnsafeMutableRawPointer(out), words = SIMD4<UInt32>(repeating: word)
        var j = 0
        while j &+ 4 <= count {
            raw.storeBytes(of: words, toByteOffset: j &* 4, as: SIMD4<UInt32>.self)
            j &+= 4
        }
        raw.storeBytes(of: words, toByteOffset: (count &- 4) &* 4, as: SIMD4<UInt32>.self)
    }

    /// Calls `body` with the colour lookup of this ramp (parameter t → word), its spread mode
    /// chosen once for a run instead of per pixel: each mode gets its own copy of `body`.
    @inline(__always)
    func withColorLookup(_ body: ((Double) -> UInt32) -> Void) {
        table.withUnsafeBufferPointer { table in
            switch spread {
            case .pad: body { GradientRamp.color(at: $0, spread: .pad, table: table) }
            case .repeat: body { GradientRamp.color(at: $0, spread: .repeat, table: table) }
            case .reflect: body { GradientRamp.color(at: $0, spread: .reflect, table: table) }
            case .decal: body { GradientRamp.color(at: $0, spread: .decal, table: table) }
            }
        }
    }

    /// The colour at parameter t, after the spread mode.
    @inline(__always)
    static func color(at t: Double, spread: SpreadMode, table: UnsafeBufferPointer<UInt32>) -> UInt32 {
        var u = t
        switch spread {
        case .pad:
            break
        case .repeat:
            u -= u.rounded(.down)
        case .reflect:
            u = abs(u - 2 * (u * 0.5).rounded(.down))
            if u > 1 { u = 2 - u }
        case .decal:
            if u < 0 || u > 1 { return 0 }
        }
        // Clamped to the table; NaN fails `scaled >= 0` and takes the first entry.
        let last = Double(GradientRamp.size - 1)
        let scaled = u * last + 0.5
        return table[scaled >= 0 ? Int(scaled < last ? scaled : last) : 0]
    }
}

