import CKernels

/// Whether Raster's hottest pixel loops — a solid colour blended over a run
/// (`PaintBlitter.sourceOverSolid`), a shaded row blended with per-pixel coverage
/// (`PaintBlitter.sourceOver(_:source:color:coverage:count:opacity:)`), a radial gradient run
/// (`RadialSolver.quadraticRun`), a translated bitmap composited (`ImageSampler.translatedRow`)
/// and a turned one (`ImageSampler.composite`) — run their AVX2 versions (C, `CKernels`), eight
/// pixels at a time instead of four or one (`AVX512Kernels` takes over the first three where the
/// processor has AVX-512). On from the start where
/// the processor has AVX2; the pixels are the same either way (the C loops repeat the Swift
/// ones' integer arithmetic lane for lane), so turning it off (tests compare the two) changes
/// only the speed.
public enum AVX2Kernels {
    /// Default: whether the processor runs AVX2 (never on other architectures); setting it to
    /// true on a processor without AVX2 leaves it false.
    public static var isEnabled: Bool {
        @inline(__always) get { citrine_avx2_is_enabled() != 0 }
        set { citrine_avx2_set_enabled(newValue && citrine_has_avx2() != 0 ? 1 : 0) }
    }
}
