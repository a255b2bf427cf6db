import Foundation
import QuartzCore
import Synchronization

/// The renderer's limits: nesting depth and replicator instances (issue 16 rule 13, issue 18).
///
/// The nesting limit (issue 16 rule 13, issue 18). Drawing recurses once per level of the layer
/// tree (a mask counts as `maskDepthCost` levels: its subtree is drawn into a surface of its
/// own); past the levels the caller's stack holds, the rest of a subtree is drawn on a fresh
/// stack (`LayerRenderer+Stack`), so the depth drawn is bounded by `maxNestingDepth` alone. Below
/// it every layer draws; deeper layers are not drawn, and the first time that happens in a
/// process a diagnostic on standard error says so — never a silently missing subtree. The
/// README's Limits section lists it.
extension LayerRenderer {
    /// Levels drawn (the root is level 0): 2¹⁷ = 131 072, past the 100 000-deep chain issue 18
    /// asks to work, on at most four fresh stacks of 512 MiB (`+Stack`; address space, touched
    /// only as deep as the drawing goes: 2.8 KiB a level for a plain chain).
    static let maxNestingDepth = 1 << 17
    /// Levels a mask's subtree counts for (see `applyMask`).
    static let maskDepthCost = 17

    private static let reportedDepthLimit = Atomic<Bool>(false)

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

    private static let reportedInstanceLimit = Atomic<Bool>(false)

    /// Says once per process that a replicator's instances past the limit went undrawn.
    static func reportInstanceLimit(_ replicator: CAReplicatorLayer) {
        guard !reportedInstanceLimit.exchange(true, ordering: .relaxed) else { return }
        let line = "Citrine: a CAReplicatorLayer has instanceCount \(replicator.instanceCount); only "
            + "\(maxReplicatorInstances) of its instances are visited per frame, the rest are not drawn (README: Limits)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Says once per process that a subtree went undrawn at the depth limit.
    static func reportDepthLimit(_ layer: CALayer) {
        guard !reportedDepthLimit.exchange(true, ordering: .relaxed) else { return }
        let line = "Citrine: a layer tree nests deeper than \(maxNestingDepth) levels; a \(type(of: layer)) and its "
            + "sublayers below that depth are not drawn (README: Limits)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
