#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CoreText
import Foundation
import QuartzCore

/// Deep trees on fresh stacks (a 100 000-deep chain must draw, in time proportional
/// to its size).
///
/// Drawing recurses once per nesting level, and a level takes a few KiB of stack (the deepest
/// path — group, mask, clip — measured in `stackBytesPerLevel`), so a thread's stack holds only
/// so many. The caller's stack is measured where drawing starts (`levelsOnCallersStack`): what
/// is left of it below the caller's frame, less `callerStackReserve`, holds that many levels, up
/// to `callerStackLevels` — 503 on the 8 MiB the main thread and Dispatch's, Foundation's and
/// Swift concurrency's threads have on Linux by default, fewer for a thread made with a smaller
/// `stackSize` or under a smaller `ulimit -s`, none below about 1.1 MiB. When drawing reaches a
/// level its stack does not hold, the rest of that subtree is drawn on a new thread whose stack
/// holds `freshStackLevels` more, while the caller waits — one thread runs at a time, so the
/// renderer is never used concurrently — as the caller (`_ThreadContext`: its transactions and
/// its own media time, which an export worker sets). On an 8 MiB caller's stack:
///
///     caller's stack         fresh stack 1            fresh stack 2
///     levels 0 … 438   ──▶   439 … 33 142       ──▶   33 143 … 65 846  ──▶ …
///     + 64 for analyses      + 64                     + 64
///
/// Each stack keeps `analysisLevels` below its last drawn level for the recursive analyses a
/// drawn layer starts (a replicator's drawn extent, a rasterized layer's area), which look at
/// most that many levels down: a deeper subtree has no bound, so it is not culled or not
/// rasterized — the answer is conservative, never wrong. Damage tracking's footprint pass runs
/// on the caller's stack only, to as many levels as drawing trusts it with: a deeper tree is
/// drawn whole each frame.
/// A stack is mapped for its thread and only the pages the drawing reaches are touched; a
/// thread costs tens of microseconds, once per `freshStackLevels` levels per frame. Stacks are
/// few and large because each is address space held while the levels below it draw (and each
/// thread that allocates may add a 64 MiB malloc arena): four stacks of 512 MiB reach
/// `maxNestingDepth` from a caller's stack of about 5.1 MiB or more (five from a smaller one),
/// within the bad-input suite's 3 GiB of address space, where sixteen of
/// 128 MiB with their arenas did not fit.
extension LayerRenderer {
    /// Most levels the caller's stack is trusted with, analyses included, however large it is
    /// (what Citrine drew before it had fresh stacks).
    static let callerStackLevels = 512
    /// Stack bytes of the caller's kept for what runs beyond the levels: the frames that lead to
    /// the deepest level's drawing and the drawing of its content (FreeType's rasterizer alone
    /// takes 16 KiB of stack), and the hop to a fresh stack.
    static let callerStackReserve = 128 << 10
    /// Levels each fresh stack holds, analyses included.
    static let freshStackLevels = 32_768
    /// Levels at the end of each stack kept for analyses started by the last layers drawn on it.
    static let analysisLevels = 64
    /// Stack bytes allowed per level: 2.4 times the most measured per level (6.6 KiB, a chain whose
    /// every level also has a leaning sublayer, so each is drawn in depth order; a plain, grouped
    /// or clipped level takes 2.8 KiB, a filtered one 3.9 KiB, a replicator 4.7 KiB), measured in
    /// the debug build, whose pixel modules are optimized as in release. The bad-input cases draw
    /// the costliest chain past several stacks.
    static let stackBytesPerLevel = 16 << 10

    /// Levels the calling thread's stack holds below the calling frame, analyses included: what
    /// is left of it less `callerStackReserve`, at `stackBytesPerLevel` a level, at most
    /// `callerStackLevels` — and `callerStackLevels` when the system does not say where the
    /// stack ends.
    static func levelsOnCallersStack() -> Int {
        _ThreadStack.levels(of: stackBytesPerLevel, keeping: callerStackReserve, atMost: callerStackLevels)
    }

    /// Whether drawing a layer at `depth` must first move to a fresh stack.
    func needsFreshStack(atDepth depth: Int) -> Bool {
        depth >= stackLevelEnd - Self.analysisLevels
    }

    /// Runs `draw` (the drawing of `layer`, at `depth`, and its subtree) on a fresh stack, or
    /// draws nothing past `maxNestingDepth` or when no thread can be made, saying so once.
    func onFreshStack(atDepth depth: Int, _ layer: CALayer, _ draw: () -> Void) {
        guard depth < Self.maxNestingDepth else { return Self.reportDepthLimit(layer) }
        let callerEnd = stackLevelEnd
        stackLevelEnd = depth + Self.freshStackLevels
        defer { stackLevelEnd = callerEnd }
        // The fresh thread records its text into the caller's font usage (an export names the
        // fonts of every layer, however deep: ExportFontRecordTests).
        let usage = FontUsage.active
        let failure = _FreshStack.run(bytes: Self.freshStackLevels * Self.stackBytesPerLevel) {
            if let usage { usage.recording(draw) } else { draw() }
        }
        if failure != 0 { Self.reportNoFreshStack(layer, depth: depth, error: failure) }
    }

    private static let noFreshStack = _OnceDiagnostic()

    /// Says once per process that a subtree went undrawn for want of a thread to draw it on.
    private static func reportNoFreshStack(_ layer: CALayer, depth: Int, error: Int32) {
        noFreshStack.say("Citrine: no thread could be started to draw a layer tree deeper than \(depth) levels (error "
            + "\(error), \(String(cString: strerror(error)))); a \(type(of: layer)) and its sublayers are not drawn (README: Limits)")
    }
}
