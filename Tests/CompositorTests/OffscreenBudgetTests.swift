@testable import Compositor
import QuartzCore
import Raster
import Testing

/// The offscreen budget (bounded memory for any tree). Surfaces the drawing recursion
/// makes nest; the renderer counts those alive at once (`CARenderer._offscreenBytesHighWater`)
/// against its budget (`CARenderer.offscreen.budget`, internal, lowered here so the trees stay
/// small). Trees: a chain of layers, each inset by one pixel in its parent (so level i alone
/// shows on the ring of pixels i from the edge) for the first `insetLevels` levels and the size
/// of its parent below that, each with an opaque background of its own colour. Expected
/// values in closed form: a masksToBounds layer with sublayers draws them into a surface
/// covering its device box (its bounds, one pixel more on each side, within the surface it is
/// drawn into) and clips it with a mask of that box's size (a surface and 1 byte a pixel
/// counted); a layer with opacity 0.5 and sublayers is a group covering the
/// device box of what it and its sublayers draw (here its bounds, one pixel more, within the
/// surface it is drawn into: a surface). So level i ≥ 1, inset i pixels, has a
/// (w − 2i + 2) × (h − 2i + 2) surface, level 0 the target's. A surface
/// counts as README's limits table says: its pixels (4 bytes each), the scan-conversion cells
/// of a fill into it (4 bytes for each pixel of a row 8 columns wider, and one row more), their
/// row bounds (16 bytes a row) and 4 KB of paint rows and bookkeeping.
@Suite(.serialized) struct OffscreenBudgetTests {
    static let (width, height) = (40, 30)
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    /// Bytes one `w`×`h` surface counts.
    static func surfaceBytes(_ w: Int, _ h: Int) -> Int { 4 * w * h + 4 * (w + 8) * (h + 1) + 16 * h + 4096 }
    /// Bytes one target-sized surface counts.
    static let surfaceBytes = surfaceBytes(width, height)
    /// Bytes one target-sized clipping level counts: its surface and its clip (1 a pixel).
    static let clipLevelBytes = surfaceBytes + width * height
    /// Bytes one target-sized group level counts.
    static let groupLevelBytes = surfaceBytes
    /// The side lengths of level `i`'s surface in a chain inset at every level.
    static func levelSize(_ i: Int) -> (w: Int, h: Int) { i == 0 ? (width, height) : (width - 2 * i + 2, height - 2 * i + 2) }
    /// Bytes the surface of level `i` counts.
    static func levelSurfaceBytes(_ i: Int) -> Int { surfaceBytes(levelSize(i).w, levelSize(i).h) }
    /// Bytes the clip of clipping level `i` counts: 1 a pixel of its surface's box.
    static func levelClipBytes(_ i: Int) -> Int { levelSize(i).w * levelSize(i).h }
    /// Bytes clipping levels 0 ..< n count together (surfaces and clips).
    static func clipLevelsBytes(_ n: Int) -> Int { (0..<n).reduce(0) { $0 + levelSurfaceBytes($1) + levelClipBytes($1) } }
    /// Bytes group levels 0 ..< n of a chain inset at every level count together.
    static func groupLevelsBytes(_ n: Int) -> Int { (0..<n).reduce(0) { $0 + levelSurfaceBytes($1) } }

    /// The opaque colour of level `i`: seven primaries and mixes of 0 and 1, neighbours differ.
    static func color(_ i: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let k = i % 7 + 1
        return (k & 1 == 0 ? 0 : 255, k & 2 == 0 ? 0 : 255, k & 4 == 0 ? 0 : 255)
    }

    enum Style { case clipping, halfOpaque }

    /// A `levels`-deep chain (level 0 the root, the size of the target).
    static func chain(levels: Int, insetLevels: Int = 12, style: Style) -> CALayer {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        var layer = root, size = CGSize(width: width, height: height)
        layer.frame = CGRect(origin: .zero, size: size)
        for i in 0..<levels {
            let c = color(i)
            layer.backgroundColor = CGColor(red: CGFloat(c.r) / 255, green: CGFloat(c.g) / 255, blue: CGFloat(c.b) / 255, alpha: 1)
            switch style {
            case .clipping:
                // Rounded by a quarter point, so that even a level holding the whole surface it is
                // drawn into clips through a surface of its own (a clip of square corners that
                // holds it changes nothing and is skipped, `clipHoldsCanvas`); the rings read
                // here lie away from the corners.
                layer.masksToBounds = true
                layer.cornerRadius = 0.25
            case .halfOpaque: layer.opacity = 0.5
            }
            guard i + 1 < levels else { break }
            let child = CALayer()
            let inset: CGFloat = i + 1 < insetLevels ? 1 : 0
            child.frame = CGRect(x: inset, y: inset, width: size.width - 2 * inset, height: size.height - 2 * inset)
            size = child.frame.size
            layer.addSublayer(child)
            layer = child
        }
        CATransaction.flush()
        return root
    }

    /// One frame of `root` over white (on a `width`×`height` target, default this suite's), with
    /// the offscreen budget lowered to `budget` when given; the pixels and the most offscreen
    /// bytes counted at once.
    static func render(_ root: CALayer, budget: Int? = nil, width: Int = width, height: Int = height) throws
        -> (image: Pixmap, highWater: Int) {
        let r = try CARenderer(width: width, height: height)
        if let budget { r.offscreen.budget = budget }
        r.layer = root
        r.backgroundColor = white
        r.beginFrame(atTime: 0)
        r.render()
        r.endFrame()
        return (r.pixmap, r._offscreenBytesHighWater)
    }

    /// The pixel on ring `i` (i pixels in from the left edge, at mid-height).
    static func ring(_ image: Pixmap, _ i: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let p = image.pixel(x: i, y: height / 2)
        return (p.r, p.g, p.b)
    }

    static func bytesDiffering(_ a: Pixmap, _ b: Pixmap) -> Int {
        (0..<(a.width * a.height * 4)).filter { a.pixels[$0] != b.pixels[$0] }.count
    }

    /// Within the budget every level draws (ring i shows level i), the count is the closed
    /// form (levels 0…8 have sublayers, each a clipping level), and a budget of exactly that
    /// draws the same bytes as the default one.
    @Test func clippingChainWithinTheBudgetDrawsEveryLevel() throws {
        let root = Self.chain(levels: 10, style: .clipping)
        let (image, highWater) = try Self.render(root)
        #expect(highWater == Self.clipLevelsBytes(9))
        for i in 0..<10 { #expect(Self.ring(image, i) == Self.color(i), "ring \(i)") }
        let (exact, exactHighWater) = try Self.render(root, budget: Self.clipLevelsBytes(9))
        #expect(exactHighWater == highWater)
        #expect(Self.bytesDiffering(image, exact) == 0)
    }

    /// A budget just short of k + 1 clipping levels: levels 0…k−1 clip their sublayers, level k
    /// draws its own background into level k−1's surface, counts its clip (1 byte a pixel of its box) but
    /// not its surface, which would pass the budget, so its sublayers are not drawn — rings
    /// past k show level k.
    @Test(arguments: [0, 1, 4]) func clippingChainPastTheBudgetStopsAtTheLastLevelThatFits(_ k: Int) throws {
        let root = Self.chain(levels: 10, style: .clipping)
        let (image, highWater) = try Self.render(root, budget: Self.clipLevelsBytes(k + 1) - 1)
        #expect(highWater == Self.clipLevelsBytes(k) + Self.levelClipBytes(k))
        for i in 0..<10 { #expect(Self.ring(image, i) == Self.color(min(i, k)), "budget of \(k) levels, ring \(i)") }
    }

    /// Ring j of the half-opaque chain over white: level j's colour, then each level l < j's
    /// group composited at 0.5 over level l's own background (c ← (c + c_l) / 2), and the root
    /// group at 0.5 over white.
    static func halfOpaqueRing(_ j: Int) -> [Double] {
        var c = [color(j).r, color(j).g, color(j).b].map(Double.init)
        for l in stride(from: j - 1, through: 0, by: -1) {
            let below = [color(l).r, color(l).g, color(l).b].map(Double.init)
            c = zip(c, below).map { ($0 + $1) / 2 }
        }
        return c.map { ($0 + 255) / 2 }
    }

    /// Groups: within the budget every ring is the closed-form composite (8-bit rounding at each
    /// of up to 7 composites: within 2); with a budget of k groups, level k and below are not
    /// drawn — rings before k keep their bytes, rings from k on show ring k−1's pixel.
    @Test func halfOpaqueChainDrawsWithinAndStopsPastTheBudget() throws {
        let root = Self.chain(levels: 7, style: .halfOpaque)
        let (image, highWater) = try Self.render(root)
        // Levels 0…5 have sublayers: six nested groups, each its level's box; the leaf is a
        // retained bitmap drawn at its opacity.
        #expect(highWater == Self.groupLevelsBytes(6))
        for j in 0..<7 {
            let p = Self.ring(image, j), e = Self.halfOpaqueRing(j)
            #expect(zip([p.r, p.g, p.b].map(Double.init), e).allSatisfy { abs($0 - $1) <= 2 }, "ring \(j): \(p), expected \(e)")
        }
        let k = 3
        let (limited, limitedHighWater) = try Self.render(root, budget: Self.groupLevelsBytes(k + 1) - 1)
        #expect(limitedHighWater == Self.groupLevelsBytes(k))
        for j in 0..<7 {
            let (x, y) = (j, Self.height / 2)
            if j < k {
                #expect(limited.pixel(x: x, y: y) == image.pixel(x: x, y: y), "ring \(j) within the budget")
            } else {
                #expect(limited.pixel(x: x, y: y) == limited.pixel(x: k - 1, y: y), "ring \(j) past the budget")
            }
        }
    }

    /// A chain 500 levels deep (within the nesting limit) of full-target layers, clipping or
    /// half-opaque: what is alive at once never passes the budget of 20 levels (it reaches it
    /// exactly), and the centre shows the deepest clipping level drawn, level 20.
    @Test func deepChainsStayWithinTheBudget() throws {
        let clipping = Self.chain(levels: 500, insetLevels: 0, style: .clipping)
        let budget = 20 * Self.clipLevelBytes
        let (image, highWater) = try Self.render(clipping, budget: budget)
        #expect(highWater == budget)
        let centre = image.pixel(x: Self.width / 2, y: Self.height / 2)
        #expect((centre.r, centre.g, centre.b) == Self.color(20))

        let groups = Self.chain(levels: 500, insetLevels: 0, style: .halfOpaque)
        let (_, groupsHighWater) = try Self.render(groups, budget: 20 * Self.groupLevelBytes)
        #expect(groupsHighWater == 20 * Self.groupLevelBytes)
    }

    /// A masked layer is a group (its box, here the target's, cut to the box of its mask, the
    /// left half one pixel wider: 8 bytes a pixel) whose mask layer is drawn into a surface of
    /// the same size (8 more). With both it shows only
    /// where the mask does (the left half); with its group but not the mask's surface it is not
    /// drawn at all — not drawn unmasked, nor with the mask drawn into its own group.
    @Test func pastTheBudgetAMaskedLayerIsNotDrawn() throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: Self.width, height: Self.height)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let mask = CALayer()
        mask.frame = CGRect(x: 0, y: 0, width: Self.width / 2, height: Self.height)
        mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        layer.mask = mask
        CAMediaClock.setManualTime(0)
        CATransaction.flush()
        let (red, white) = (PremultipliedColor(r: 255, g: 0, b: 0, a: 255), PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        let (left, right) = ((x: 5, y: 15), (x: 35, y: 15))
        let group = Self.surfaceBytes(Self.width / 2 + 1, Self.height)
        let (within, highWater) = try Self.render(layer, budget: 2 * group)
        #expect(highWater == 2 * group)
        #expect(within.pixel(x: left.x, y: left.y) == red && within.pixel(x: right.x, y: right.y) == white)
        let (past, pastHighWater) = try Self.render(layer, budget: 2 * group - 1)
        #expect(pastHighWater == group)
        #expect(past.pixel(x: left.x, y: left.y) == white && past.pixel(x: right.x, y: right.y) == white)
    }

    /// A masksToBounds layer whose clip and surface do not fit leaves its sublayers undrawn —
    /// not drawn unclipped (a sublayer reaching outside its bounds must not show there).
    @Test func pastTheBudgetClippedSublayersAreNotDrawnUnclipped() throws {
        let parent = CALayer()
        parent.frame = CGRect(x: 10, y: 10, width: 20, height: 10)
        parent.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        parent.masksToBounds = true
        let child = CALayer()
        child.frame = CGRect(x: -10, y: -10, width: 40, height: 30)
        child.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        parent.addSublayer(child)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: Self.width, height: Self.height)
        root.addSublayer(parent)
        CAMediaClock.setManualTime(0)
        CATransaction.flush()
        let (within, _) = try Self.render(root)
        // The clip and the surface cover the 20×10 bounds at (10, 10) and a pixel more: 22×12.
        let (past, highWater) = try Self.render(root, budget: Self.surfaceBytes(22, 12) + 22 * 12 - 1)
        #expect(highWater == 22 * 12)   // the clip fitted, its surface did not
        let (inside, outside) = ((x: 20, y: 15), (x: 5, y: 5))
        #expect(within.pixel(x: inside.x, y: inside.y) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        #expect(past.pixel(x: inside.x, y: inside.y) == PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        for image in [within, past] {
            #expect(image.pixel(x: outside.x, y: outside.y) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        }
    }
}
