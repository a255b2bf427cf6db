import Foundation
import QuartzCore
import Raster

/// The renderer's limits: nesting depth and replicator instances.
///
/// The nesting limit. Drawing recurses once per level of the layer
/// tree (a mask counts as `maskDepthCost` levels: its subtree is drawn into a surface of its
/// own); past the levels the caller's stack holds, the rest of a subtree is drawn on a fresh
/// stack (`LayerRenderer+Stack`), so the depth drawn is bounded by `maxNestingDepth` alone. Below
/// it every layer draws; deeper layers are not drawn, and the first time that happens in a
/// process a diagnostic on standard error says so — never a silently missing subtree. The
/// README's Limits section lists it.
extension LayerRenderer {
    /// Levels drawn (the root is level 0): 2¹⁷ = 131 072, past the 100 000-deep chain the bad-input
    /// suite asks to work, on four fresh stacks of 512 MiB (five from a caller's stack under about
    /// 5.1 MiB: `+Stack`; address space, touched
    /// only as deep as the drawing goes: 2.8 KiB a level for a plain chain).
    static let maxNestingDepth = 1 << 17
    /// Levels a mask's subtree counts for (see `applyMask`).
    static let maskDepthCost = 17

    private static let depthLimitMet = _OnceDiagnostic()

    /// Most instances of one replicator visited — box-tested or drawn — per frame
    /// (`LayerRenderer+Replicator`). A translation step visits only the instances that can
    /// reach the target, found in closed form, so a larger `instanceCount` costs nothing more;
    /// other steps visit instances in order until later ones cannot show (they shrink below a
    /// pixel, or grow away from the target for good). Past the limit the rest are not drawn,
    /// and the first time in a process one line on standard error says so. Instances made
    /// invisible by a non-positive alpha (`instanceColor` plus the accumulated
    /// `instanceAlphaOffset`) are skipped without drawing, and once the alpha can only fall
    /// further the loop ends.
    static let maxReplicatorInstances = 1 << 20

    private static let instanceLimitMet = _OnceDiagnostic()

    /// Says once per process that a replicator's instances past the limit went undrawn.
    static func reportInstanceLimit(_ replicator: CAReplicatorLayer) {
        instanceLimitMet.say("Citrine: a CAReplicatorLayer has instanceCount \(replicator.instanceCount); only "
            + "\(maxReplicatorInstances) of its instances are visited per frame, the rest are not drawn (README: Limits)")
    }

    /// Says once per process that a subtree went undrawn at the depth limit.
    static func reportDepthLimit(_ layer: CALayer) {
        depthLimitMet.say("Citrine: a layer tree nests deeper than \(maxNestingDepth) levels; a \(type(of: layer)) and its "
            + "sublayers below that depth are not drawn (README: Limits)")
    }
}

/// The offscreen budget (the surfaces are counted in `LayerRenderer+Offscreen`).
extension LayerRenderer {
    /// Most bytes of offscreen surfaces alive at once while a frame for `frame` is drawn
    /// (`LayerRenderer+Offscreen`): groups (opacity, mask, tint, alpha shadow, filters), the
    /// masksToBounds surface and clip of a layer with sublayers, mask surfaces, shadows, aliased
    /// edges, perspective bitmaps, cut planes, rasterized and transition bitmaps while drawn.
    /// They nest along the drawing recursion, so without a bound a chain of 512 full-screen
    /// clipping layers at 1920×1080 would hold about 9.5 GB at once (and the nesting limit,
    /// `maxNestingDepth`, is far deeper). A surface counts 8 bytes a
    /// pixel (its pixels and the scan-conversion cells a fill into it keeps, 4 bytes each), a
    /// clip mask 1: the count bounds the memory they hold.
    ///
    /// The budget is 1 GiB, or sixteen frames of RGBA (four bytes a pixel) for targets larger
    /// than 4 096 × 4 096 pixels, as the retained bitmaps' budget (`maxRetainedPixels`) also
    /// follows the frame. At 1920×1080 a clipping layer with sublayers counts 18.7 MB (its
    /// surface with cells and its clip), so about 57 of them nest, far beyond what user
    /// interfaces nest (a full-screen offscreen pass per level of a view hierarchy); every scene
    /// of the test suite and the anchor benchmarks stays well within it. Past it, the part of
    /// the layer that needs the surface (its group, its clipped sublayers, its mask, …) is not
    /// drawn, and the first time that happens in a process one line on standard error says so.
    static func maxOffscreenBytes(frame: Pixmap) -> Int { max(1 << 30, 16 * 4 * frame.width * frame.height) }

    private static let offscreenLimitMet = _OnceDiagnostic()
    private static let offscreenFailed = _OnceDiagnostic()

    /// Says once per process that a part of `layer` went undrawn because its offscreen surface
    /// would pass the frame's budget of `budget` bytes.
    static func reportOffscreenLimit(_ layer: CALayer, budget: Int) {
        offscreenLimitMet.say("Citrine: a frame's offscreen surfaces (groups, clips, masks, filters) would hold more than "
            + "\(budget) bytes at once; what a \(type(of: layer)) would draw into one past that (its group, clipped sublayers, "
            + "mask, shadow …) is not drawn (README: Limits)")
    }

    /// Says once per process that a part of `layer` went undrawn because its `width`×`height`
    /// offscreen surface could not be made.
    static func reportOffscreenFailure(_ layer: CALayer, width: Int, height: Int) {
        offscreenFailed.say("Citrine: an offscreen surface of \(width)×\(height) pixels for a \(type(of: layer)) could not be "
            + "made; what it would hold is not drawn (README: Limits)")
    }
}
