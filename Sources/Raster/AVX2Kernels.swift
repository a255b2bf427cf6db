import CKernels

/// Whether Raster's hottest pixel loops — a solid colour blended over a run
/// (`PaintBlitter.sourceOverSolid`), a shaded row blended with per-pixel coverage
/// (`PaintBlitter.sourceOver(_:source:coverage:count:opacity:)`), a radial gradient run
/// (`RadialSolver.quadraticRun`, also blended in the same pass: `quadraticRunOver`), a pad linear
/// gradient run (`GradientRamp.padPixels`), a whole-pixmap fill (`Pixmap.fill(with:)`), a translated bitmap
/// composited (`ImageSampler.translatedRow`; a texture's whole draw at a fractional offset,
/// `citrine_translated_rows`), a turned one (`ImageSampler.composite`; a texture's whole affine
/// draw, `citrine_turned_rows`), one
/// sampled along an affine run (`ImageSampler.sample`, bilinear, the stretch inside the image) or
/// under a perspective map, a group surface's span blended from its words with one factor
/// (`PaintBlitter`'s texel spans; an image drawn at a whole-pixel offset, `Pixmap.sourceOverRow`),
/// a colour matrix over a pixmap (`Pixmap.applyColorMatrix`: the
/// layer filters' colour adjustments), and the rasterizer's sweep of
/// a solid colour's coverage into the target (`citrine_sweep_solid_avx2`) — run
/// their AVX2 versions (C, `CKernels`), eight pixels at a time instead of four or one; the switch
/// of every vector loop (`AVX512Kernels` picks a loop's AVX-512 version where it has one and the
/// processor runs it). On from the start where the processor has AVX2; the pixels are the same
/// either way (the C loops repeat the Swift ones' integer and floating-point operations lane for
/// lane), so turning it off (tests compare them) changes only the speed. The switch also takes the
/// rasterizer's area accumulation (`citrine_deposit_avx2`: scalar, the Swift code's float
/// operations with the processor's floor instruction) and a fill's edge bounds
/// (`citrine_edge_bounds_avx2`).
public enum AVX2Kernels {
    /// Default: whether the processor runs AVX2 (never on other architectures); setting it to
    /// true on a processor without AVX2 leaves it false.
    public static var isEnabled: Bool {
        @inline(__always) get { citrine_avx2_is_enabled() != 0 }
        set { citrine_avx2_set_enabled(newValue && citrine_has_avx2() != 0 ? 1 : 0) }
    }
}
