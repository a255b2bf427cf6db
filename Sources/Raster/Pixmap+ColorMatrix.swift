import CKernels

/// A 4×5 colour matrix over a whole pixmap, for layer filters (`colorMatrix` and the colour
/// adjustments, which all reduce to one): each pixel is un-premultiplied, mapped by
///
///     out_i = m[5i]·R + m[5i+1]·G + m[5i+2]·B + m[5i+3]·A + m[5i+4]      (i = R, G, B, A)
///
/// clamped to 0…1 and premultiplied again — the Filter Effects specification's feColorMatrix
/// (on non-premultiplied colour), which Core Animation's `CAColorMatrix` and Core Image's
/// CIColorMatrix follow. Components are the stored (gamma-encoded sRGB) values. With AVX2, eight
/// pixels at a time (`citrine_color_matrix_avx2`: the same float operations, the same words).
extension Pixmap {
    /// Applies the row-major 4×5 matrix `m` (20 values; any other count does nothing).
    public func applyColorMatrix(_ m: [Float]) {
        guard m.count == 20 else { return }
        // Columns: what each input channel contributes to the four outputs.
        let r = SIMD4(m[0], m[5], m[10], m[15]), g = SIMD4(m[1], m[6], m[11], m[16])
        let b = SIMD4(m[2], m[7], m[12], m[17]), a = SIMD4(m[3], m[8], m[13], m[18])
        let bias = SIMD4(m[4], m[9], m[14], m[19])
        // A transparent pixel (all components 0 once un-premultiplied) becomes the bias, which
        // stays transparent unless the bias has alpha.
        let transparentStays = bias[3] <= 0
        if AVX2Kernels.isEnabled {
            m.withUnsafeBufferPointer { citrine_color_matrix_avx2(words, width * height, $0.baseAddress!, transparentStays ? 1 : 0) }
            return
        }
        let zero = SIMD4<Float>.zero, one = SIMD4<Float>(repeating: 1)
        let w = words
        // The last pixel mapped and its result: a pixel equal to it gets the same word without
        // the arithmetic (a fill's interior, a matte's solid shape, is one colour).
        var last: (word: UInt32, mapped: UInt32)?
        for i in 0..<(width * height) {
            let word = w[i]
            if word >> 24 == 0 && transparentStays { w[i] = 0; continue }
            if let last, last.word == word {
                w[i] = last.mapped
                continue
            }
            let p = SIMD4<Float>(unpack: word)
            let alpha = p[3]
            let c: SIMD4<Float> = alpha > 0 ? SIMD4(p[0] / alpha, p[1] / alpha, p[2] / alpha, alpha) : zero
            var out: SIMD4<Float> = bias
            out += r * c[0]
            out += g * c[1]
            out += b * c[2]
            out += a * c[3]
            out = simd_min(simd_max(out, zero), one)
            let opacity = out[3]
            let mapped = SIMD4(out[0] * opacity, out[1] * opacity, out[2] * opacity, opacity).packed
            w[i] = mapped
            last = (word, mapped)
        }
    }
}
