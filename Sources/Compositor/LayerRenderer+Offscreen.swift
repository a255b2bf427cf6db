import QuartzCore
import Raster

/// Offscreen surfaces: every surface the drawing recursion makes for a layer — a group, a
/// masksToBounds surface and its clip, a mask layer's surface, a shadow, aliased edges, a
/// perspective bitmap, a cut plane, a rasterized or transition bitmap while it is drawn — is
/// made here and counted against the frame's budget (`maxOffscreenBytes`). They nest
/// along the recursion (a group's subtree makes its own inside it), so they are released in the
/// reverse order: a scope (`withOffscreenScope`) gives back, when it ends, everything counted
/// inside it, including a surface handed up to its caller (a group with its shadow beneath).
/// Every surface is counted inside a scope, so the count is back to zero after each frame (a
/// debug build asserts it in `render`). Past the budget, or when a surface cannot be made, the
/// caller does not draw what the surface would hold, and the first time in a process one line
/// on standard error says so.
///
/// Counting costs an integer compare and add per surface, nothing per pixel or per layer that
/// makes none. Retained bitmaps kept across frames (leaf layers, drawn contents, tiles) are not
/// counted here: they have budgets of their own (`maxLeafPixels`, `maxRetainedPixels`).
extension LayerRenderer {
    /// The bytes of the offscreen surfaces alive at a moment of drawing, shared by the renderers
    /// that draw one frame (a frame's damage patches, a rasterized layer's bitmap).
    final class OffscreenAccount {
        /// Most bytes counted at once (`maxOffscreenBytes(frame:)`; tests lower it).
        var budget: Int
        /// Bytes counted now.
        fileprivate(set) var live = 0
        /// Most bytes counted at once since the account was made.
        private(set) var highWater = 0

        init(budget: Int) { self.budget = budget }

        /// Raises `highWater` to `other`'s (a band's account, `LayerRenderer+Bands`).
        func absorbHighWater(of other: OffscreenAccount) { highWater = max(highWater, other.highWater) }

        /// Counts `bytes` more; false, counting nothing, when that would pass the budget.
        fileprivate func admit(_ bytes: Int) -> Bool {
            guard bytes <= budget - live else { return false }
            live += bytes
            highWater = max(highWater, live)
            return true
        }
    }

    /// Runs `body`; the surfaces counted inside it are given back when it returns.
    func withOffscreenScope<R>(_ body: () -> R) -> R {
        let mark = offscreen.live
        defer { offscreen.live = mark }
        return body()
    }

    /// Runs `body` with a transparent `width`×`height` surface made for `layer`, given back
    /// with everything `body` counted when it returns; nil, without running `body`, when the
    /// surface would pass the budget or cannot be made.
    func withOffscreen<R>(width: Int, height: Int, for layer: CALayer, _ body: (Pixmap) -> R) -> R? {
        withOffscreenScope {
            offscreenPixmap(width: width, height: height, for: layer).map { surface in drawingWithTargetScratch(surface) { body(surface) } }
        }
    }

    /// Runs `body`, which draws into `fresh` (a surface or bitmap made for it), with the
    /// target's scan-conversion and paint buffers lent to `fresh` and then taken back (those
    /// `fresh` ends with: grown, if it needed more), so a pixmap made in a frame does not
    /// allocate and clear buffers of its own (`Pixmap.takeDrawingScratch`; they hold nothing
    /// between fills). A pixmap made while another holds them (a surface inside a surface: a
    /// clip inside a group) borrows a spare set kept by the renderer for that nesting level,
    /// up to `maxSpareScratch` levels; deeper ones make their own for the frame.
    func drawingWithTargetScratch<R>(_ fresh: Pixmap, _ body: () -> R) -> R {
        let level = scratchLent
        guard level <= Self.maxSpareScratch else { return body() }
        if level > 0 && spareScratch.count < level {
            guard let holder = try? Pixmap(width: 0, height: 0) else { return body() }
            spareScratch.append(holder)
        }
        let lender = level == 0 ? target : spareScratch[level - 1]
        fresh.takeDrawingScratch(from: lender)
        scratchLent = level + 1
        defer {
            scratchLent = level
            lender.takeDrawingScratch(from: fresh)
        }
        return body()
    }

    /// Nesting levels of surfaces below the target's whose drawing buffers the renderer keeps
    /// between frames (each up to the largest area filled at that level: a frame's worth for a
    /// surface the size of the frame).
    static let maxSpareScratch = 3

    /// A transparent `width`×`height` surface made for `layer`, counted until the enclosing
    /// `withOffscreenScope` ends as `pixmapBytes`; nil past the budget or when it cannot be made
    /// (reported).
    func offscreenPixmap(width: Int, height: Int, for layer: CALayer) -> Pixmap? {
        counted(width: width, height: height, bytes: Self.pixmapBytes, for: layer) { try Pixmap(width: width, height: height) }
    }

    /// A `width`×`height` clip mask made for `layer`, counted as `offscreenPixmap` (1 byte a pixel).
    func offscreenMask(width: Int, height: Int, for layer: CALayer) -> Mask? {
        counted(width: width, height: height, bytes: { $0 * $1 }, for: layer) { try Mask(width: width, height: height) }
    }

    /// What a `width`×`height` pixmap drawn into costs: its pixels, 4 bytes each, and the
    /// buffers a fill into it keeps (`Pixmap.drawingScratchBytes`: the scan-conversion cells,
    /// 4 bytes a pixel and a few columns more, and a few KB of bookkeeping — which is most of
    /// a small surface's cost, so a chain of thousands of small groups is counted as it weighs).
    static func pixmapBytes(width: Int, height: Int) -> Int {
        4 * width * height + Pixmap.drawingScratchBytes(width: width, height: height)
    }

    /// What `make` makes, once a `width`×`height` surface of `bytes(width, height)` is counted
    /// for `layer`; nil, reported, past the budget or when `make` fails.
    private func counted<Surface>(width: Int, height: Int, bytes: (Int, Int) -> Int, for layer: CALayer,
                                  _ make: () throws -> Surface) -> Surface? {
        guard admitOffscreen(width: width, height: height, bytes: bytes, for: layer) else { return nil }
        guard let surface = try? make() else {
            Self.reportOffscreenFailure(layer, width: width, height: height)
            return nil
        }
        return surface
    }

    /// Counts a `width`×`height` surface of `bytes(width, height)` for `layer` (one made here,
    /// or a pooled or retained one drawn into now; `pixmapBytes` for a pixmap) until the
    /// enclosing scope ends; false, reported, when its size is beyond `Pixmap`'s limits or it
    /// would pass the budget.
    func admitOffscreen(width: Int, height: Int, bytes: (Int, Int) -> Int = pixmapBytes, for layer: CALayer) -> Bool {
        guard (try? Pixmap.validate(width: width, height: height)) != nil else {
            Self.reportOffscreenFailure(layer, width: width, height: height)
            return false
        }
        guard offscreen.admit(bytes(width, height)) else {
            Self.reportOffscreenLimit(layer, budget: offscreen.budget)
            return false
        }
        return true
    }
}
