import CKernels

/// Whether Raster's loops that have an AVX-512 version (C, `CKernels`, sixteen pixels at a time)
/// take it instead of their AVX2 one: the solid span and the shaded row blended source-over
/// (`PaintBlitter.sourceOverSolid`, `PaintBlitter.sourceOver(_:source:coverage:count:opacity:)`),
/// the solid colour's sweep (`citrine_sweep_solid_avx512`), a group surface's span or an image
/// at a whole-pixel offset blended from its words (`citrine_source_over_span_avx512`), the radial
/// gradient run
/// (`RadialSolver.quadraticRun`, alone or blended: `quadraticRunOver`), the pad linear gradient
/// run (`GradientRamp.padPixels`), a bitmap sampled under a perspective map
/// (`ImageSampler.sample`), and the translated and turned texture rows and draws
/// (`ImageSampler.translatedRow`, `ImageSampler.composite`, `citrine_translated_rows`,
/// `citrine_turned_rows`: the AVX2 loops, eight pixels at a
/// time, with AVX-512's masked moves for a row's last pixels, as the solid sweep's short runs
/// have them). `AVX2Kernels.isEnabled` stays the switch of all vector loops: with it off, the
/// Swift loops run whatever this says. On from the start where the processor has
/// AVX-512 F, BW and VL; the pixels are the same either way (each C loop repeats the Swift one's
/// arithmetic lane for lane; `AVX2KernelsTests`, `GradientKernelsTests` and `GradientRampTests`
/// compare all three), so turning it off changes only the speed. (valgrind does not run AVX-512:
/// under it the processor reports none, and the AVX2 loops run.)
public enum AVX512Kernels {
    /// Default: whether the processor runs AVX-512 F, BW and VL (never on other architectures);
    /// setting it to true on a processor without them leaves it false.
    public static var isEnabled: Bool {
        @inline(__always) get { citrine_avx512_is_enabled() != 0 }
        set { citrine_avx512_set_enabled(newValue && citrine_has_avx512() != 0 ? 1 : 0) }
    }
}
