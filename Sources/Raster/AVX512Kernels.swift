import CKernels

/// Whether Raster's AVX-512 loops run (C, `CKernels`), sixteen pixels at a time: the solid span
/// and the shaded row blended source-over (`PaintBlitter.sourceOverSolid`,
/// `PaintBlitter.sourceOver(_:source:color:coverage:count:opacity:)`) and the radial gradient run
/// (`RadialSolver.quadraticRun`). Where they are on they are taken instead of the AVX2 ones;
/// loops without an AVX-512 version keep following `AVX2Kernels`. On from the start where the
/// processor has AVX-512 F, BW and VL; the pixels are the same either way (each C loop repeats
/// the Swift one's arithmetic lane for lane; `AVX512KernelsTests` compares them), so turning it
/// off changes only the speed. (valgrind does not run AVX-512: under it the processor reports
/// none, and the AVX2 loops run.)
public enum AVX512Kernels {
    /// Default: whether the processor runs AVX-512 F, BW and VL (never on other architectures);
    /// setting it to true on a processor without them leaves it false.
    public static var isEnabled: Bool {
        @inline(__always) get { citrine_avx512_is_enabled() != 0 }
        set { citrine_avx512_set_enabled(newValue && citrine_has_avx512() != 0 ? 1 : 0) }
    }
}
