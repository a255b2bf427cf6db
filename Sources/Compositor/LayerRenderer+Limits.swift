import Foundation
import QuartzCore
import Synchronization

/// The renderer's nesting limit (issue 16 rule 13, issue 18). Drawing recurses once per level of
/// the layer tree (a mask counts as `maskDepthCost` levels: its subtree is drawn into a surface of
/// its own), so the depth it can reach is bounded by the thread's stack. Below
/// `maxNestingDepth` every layer draws; deeper layers are not drawn, and the first time that
/// happens in a process a diagnostic on standard error says so — never a silently missing
/// subtree. The README's Limits section lists it.
extension LayerRenderer {
    /// Deepest level drawn (the root is level 0). Measured in a debug build (the deepest
    /// frames): 512 levels draw on a 4 MiB stack and overflow a 2 MiB one, 1 024 overflow 4 MiB;
    /// the main thread and every export worker have 8 MiB.
    static let maxNestingDepth = 512
    /// Levels a mask's subtree counts for (see `applyMask`).
    static let maskDepthCost = 17

    private static let reportedDepthLimit = Atomic<Bool>(false)

    /// Says once per process that a subtree went undrawn at the depth limit.
    static func reportDepthLimit(_ layer: CALayer) {
        guard !reportedDepthLimit.exchange(true, ordering: .relaxed) else { return }
        let line = "Citrine: a layer tree nests deeper than \(maxNestingDepth) levels; a \(type(of: layer)) and its "
            + "sublayers below that depth are not drawn (README: Limits)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
