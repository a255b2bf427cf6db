import Compositor
import Foundation
import QuartzCore
import Raster
import Testing

/// A replicator's instances cost what they draw. Instances that cannot reach the
/// target are not drawn — the pixels are those of a render where nothing is culled — and a
/// translation step finds the visible ones in closed form, so 10⁷ or Int.max instances cost what
/// the ~20 on the target cost (`CARenderer._replicatorInstancesVisited`, an operation count). Expected
/// positions are closed form: instance i of a replicator at the origin with a translation step
/// (dx, dy) is its sublayer moved by (i·dx, i·dy); at time t with instanceDelay δ it shows its
/// sublayer as presented at t − i·δ.
@Suite(.serialized) struct ReplicatorCullingTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

    /// A replicator at `origin` (frame 2000×2000) of `count` 6×6 squares, the first at (2, 3)
    /// of it, each `step` from the one before; `shadow`: the square casts a shadow 24 points
    /// below it, blurred with σ = shadowRadius = 3 pixels (reach 9 + 2 pixels); `zScale`: the
    /// step's m33.
    static func translated(count: Int, step: (x: CGFloat, y: CGFloat), origin: CGPoint = .zero,
                           shadow: Bool = false, zScale: CGFloat = 1) -> CAReplicatorLayer {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: origin.x, y: origin.y, width: 2000, height: 2000)
        r.instanceCount = count
        var t = CATransform3DMakeTranslation(step.x, step.y, 0)
        t.m33 = zScale
        r.instanceTransform = t
        let square = CALayer()
        square.frame = CGRect(x: 2, y: 3, width: 6, height: 6)
        square.backgroundColor = red
        if shadow {
            square.shadowOpacity = 0.8
            square.shadowRadius = 3
            square.shadowOffset = CGSize(width: 0, height: 24)
        }
        r.addSublayer(square)
        return r
    }

    /// A root of `size` points holding `content`.
    static func root(_ size: CGSize, _ content: CALayer) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.addSublayer(content)
        return root
    }

    /// `root` drawn at time `t` into a `size` renderer; its pixels and the instances visited.
    static func render(_ root: CALayer, _ size: CGSize, at t: CFTimeInterval = 0) throws -> (Pixmap, visited: Int) {
        CAMediaClock.setManualTime(t)
        let r = try CARenderer(width: Int(size.width), height: Int(size.height))
        r.layer = root
        r._reusesBitmapsAcrossFrames = false
        r.beginFrame(atTime: t)
        r.render()
        r.endFrame()
        return (r.pixmap, r._replicatorInstancesVisited)
    }

    /// The `width`×`height` pixels of `p` from (x, y), as bytes.
    static func bytes(_ p: Pixmap, x: Int = 0, y: Int = 0, width: Int, height: Int) -> [UInt8] {
        var out: [UInt8] = []
        for row in y ..< y + height {
            for col in x ..< x + width {
                let c = p.pixel(x: col, y: row)
                out += [c.r, c.g, c.b, c.a]
            }
        }
        return out
    }

    /// Saves `p` for a look (ReplicatorCulling-NAME.png in the temporary folder).
    static func save(_ p: Pixmap, _ name: String) throws {
        try TinyPNG.encode(p).write(to: FileManager.default.temporaryDirectory.appendingPathComponent("ReplicatorCulling-\(name).png"))
    }

    /// How many bytes of two equal-length buffers differ.
    static func differing(_ a: [UInt8], _ b: [UInt8]) -> Int { zip(a, b).filter { $0 != $1 }.count }

    // MARK: - Culling changes no pixel

    /// A 96×96 window onto a shadowed translation replicator, drawn on its own (most instances
    /// culled), is byte for byte the same window cropped from a 900×900 render that holds every
    /// instance (none culled by the canvas) — within 12 pixels of the window's edges, where a
    /// shadow whose shape the edge cuts is blurred from the part on the canvas (an existing
    /// approximation of `drawShadow`, not culling). Instance 12's square (134…140, 87…93) lies
    /// just above the window (100, 93); only its shadow (rows 111…117) reaches in, and shows.
    @Test func culledWindowMatchesUnculledRender() throws {
        let window = CGPoint(x: 100, y: 93), size = CGSize(width: 96, height: 96)
        let small = try Self.render(Self.root(size, Self.translated(count: 60, step: (11, 7), origin: CGPoint(x: -window.x, y: -window.y),
                                                                       shadow: true)), size)
        let large = try Self.render(Self.root(CGSize(width: 900, height: 900), Self.translated(count: 60, step: (11, 7), shadow: true)),
                                    CGSize(width: 900, height: 900))
        try Self.save(small.0, "window")
        try Self.save(large.0, "whole")
        let a = Self.bytes(small.0, x: 12, y: 12, width: 72, height: 72)
        let b = Self.bytes(large.0, x: Int(window.x) + 12, y: Int(window.y) + 12, width: 72, height: 72)
        #expect(Self.differing(a, b) == 0)
        #expect(small.0.pixel(x: 37, y: 21).a > 40, "instance 12's shadow: \(small.0.pixel(x: 37, y: 21))")
        #expect(small.visited < 20, "visited \(small.visited) of 60")
        #expect(large.visited == 60)
    }

    /// With masksToBounds the instances outside the replicator's bounds are culled too: the same
    /// pixels as the 700×700 render cropped (no shadow: the whole window compares).
    @Test func clippedReplicatorCullsOutsideItsBounds() throws {
        func scene(_ origin: CGPoint) -> CAReplicatorLayer {
            let r = Self.translated(count: 60, step: (11, 7), origin: origin)
            r.bounds = CGRect(x: 0, y: 0, width: 180, height: 120)
            r.position = CGPoint(x: origin.x + 90, y: origin.y + 60)
            r.masksToBounds = true
            return r
        }
        let window = CGPoint(x: 150, y: 90), size = CGSize(width: 64, height: 64)
        let small = try Self.render(Self.root(size, scene(CGPoint(x: -window.x, y: -window.y))), size)
        let large = try Self.render(Self.root(CGSize(width: 700, height: 700), scene(.zero)), CGSize(width: 700, height: 700))
        #expect(Self.differing(Self.bytes(small.0, width: 64, height: 64),
                               Self.bytes(large.0, x: Int(window.x), y: Int(window.y), width: 64, height: 64)) == 0)
        // 180×120 points hold instances 0…16 (x = 2 + 11·i < 180); the window sees a few of them.
        #expect(small.visited < 10, "visited \(small.visited)")
        #expect(large.visited <= 20, "visited \(large.visited)")   // and up to three to spare
    }

    /// The closed-form range (Int.max instances) draws exactly what testing every instance of the
    /// same scene draws: the step with a z scale of 2 (no effect on flat sublayers, but not a
    /// plane translation) takes the instance-by-instance path.
    @Test func closedFormRangeMatchesInstanceByInstance() throws {
        let size = CGSize(width: 64, height: 64)
        let origin = CGPoint(x: -150, y: -90)
        let ranged = try Self.render(Self.root(size, Self.translated(count: .max, step: (11, 7), origin: origin)), size)
        let tested = try Self.render(Self.root(size, Self.translated(count: 400, step: (11, 7), origin: origin, zScale: 2)), size)
        #expect(Self.differing(Self.bytes(ranged.0, width: 64, height: 64), Self.bytes(tested.0, width: 64, height: 64)) == 0)
        #expect(tested.visited == 400)
        #expect(ranged.visited < 20, "visited \(ranged.visited)")
    }

    // MARK: - Cost follows what is drawn

    /// 10⁷ and Int.max instances stepping 3 points right along a 64-point canvas: 20 instances
    /// of the 6-point squares touch it (x = 2 + 3i < 64 + margin), and only those and a few at
    /// the ends of the range are visited. Each shows where the closed form puts it.
    @Test(arguments: [10_000_000, Int.max])
    func hugeTranslationReplicatorVisitsWhatIsVisible(count: Int) throws {
        let size = CGSize(width: 64, height: 16)
        let started = Date()
        let (pixels, visited) = try Self.render(Self.root(size, Self.translated(count: count, step: (3, 0))), size)
        #expect(visited <= 26, "visited \(visited)")
        #expect(Date().timeIntervalSince(started) < 20, "generous guard: a debug build on a shared machine")
        // Square i covers x ∈ [2 + 3i, 8 + 3i), y ∈ [3, 9): its left column's centre is red for i ≤ 20.
        for i in 0 ... 20 {
            #expect(pixels.pixel(x: 2 + 3 * i, y: 5) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "instance \(i)")
        }
        #expect(pixels.pixel(x: 1, y: 5).a == 0 && pixels.pixel(x: 30, y: 12).a == 0)
    }

    /// Growing and shrinking steps stop once later instances cannot show: Int.max instances of a
    /// spiral inwards (turn 20°, scale 0.8) visit as many as it takes to fall below 1/32 pixel,
    /// outwards (turn 20°, scale 1.25) as many as it takes to leave the target — and draw the
    /// same pixels as the same spirals instance by instance (z scale 2, see above) to 400.
    /// `nested`: the square sits in a plain container the replicator's size (which draws
    /// nothing of its own, so it does not hold the spiral's centre), drawn from a retained
    /// bitmap.
    @Test(arguments: [0.8, 1.25], [false, true])
    func spiralsStopWhenLaterInstancesCannotShow(scale: CGFloat, nested: Bool) throws {
        func spiral(_ count: Int, zScale: CGFloat) -> CALayer {
            let r = CAReplicatorLayer()
            r.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
            r.instanceCount = count
            var t = CATransform3DScale(CATransform3DMakeRotation(.pi / 9, 0, 0, 1), scale, scale, 1)
            t.m33 = zScale
            r.instanceTransform = t
            let square = CALayer()
            square.frame = CGRect(x: 36, y: 30, width: 10, height: 4)
            square.backgroundColor = Self.red
            // Nested, the square is drawn untinted within its tinted container (a retained bitmap).
            let container = CALayer()
            container.frame = r.bounds
            container.addSublayer(square)
            r.addSublayer(nested ? container : square)
            return r
        }
        let size = CGSize(width: 64, height: 64)
        let stopped = try Self.render(Self.root(size, spiral(.max, zScale: 1)), size)
        let every = try Self.render(Self.root(size, spiral(400, zScale: 2)), size)
        try Self.save(stopped.0, "spiral-\(scale)-\(nested)")
        #expect(stopped.visited < 120, "visited \(stopped.visited)")
        #expect(Self.differing(Self.bytes(stopped.0, width: 64, height: 64), Self.bytes(every.0, width: 64, height: 64)) == 0)
    }

    // MARK: - Nesting and time

    /// A replicator of rows (step (0, 10), 4 rows) of a replicator of squares (step (12, 0), 5
    /// per row): square (i, j) at (2 + 12j, 3 + 10i). With Int.max rows and columns the window
    /// shows the same 4 × 5 and the visits stay few.
    @Test(arguments: [(4, 5), (Int.max, Int.max)])
    func nestedReplicatorsPlaceInstancesInClosedForm(rows: Int, columns: Int) throws {
        let inner = Self.translated(count: columns, step: (12, 0))
        let outer = CAReplicatorLayer()
        outer.frame = CGRect(x: 0, y: 0, width: 2000, height: 2000)
        outer.instanceCount = rows
        outer.instanceTransform = CATransform3DMakeTranslation(0, 10, 0)
        outer.addSublayer(inner)
        let size = CGSize(width: 60, height: 40)
        let (pixels, visited) = try Self.render(Self.root(size, outer), size)
        if rows == Int.max { try Self.save(pixels, "nested") }
        for i in 0 ..< 4 {
            for j in 0 ..< 5 {
                #expect(pixels.pixel(x: 5 + 12 * j, y: 6 + 10 * i) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "(\(i), \(j))")
                #expect(pixels.pixel(x: 11 + 12 * j, y: 6 + 10 * i).a == 0, "gap after (\(i), \(j))")
            }
        }
        // The rows that can reach the target (and one or two to spare), each visiting the
        // columns that can (and one or two to spare).
        #expect(visited <= 80, "visited \(visited)")
    }

    /// instanceDelay 0.1 s with a sublayer moving right at 100 points/s from x = 0 (linear, 1 s):
    /// at t = 0.5 instance i (step (0, 8)) shows it at x = 100 · (0.5 − 0.1 i) for i ≤ 5, before
    /// the animation began (x = 0, its model value) after. 1 000 instances: the sublayer
    /// changes with time, so the moving instances are bounded each at its own time, the rest
    /// once (`ReplicatorDelayedCullingTests`); the target holds 8 rows.
    @Test func delayedInstancesOfAnAnimatedSublayerAreInTheirPlaces() throws {
        CAMediaClock.setManualTime(0)
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 2000, height: 2000)
        r.instanceCount = 1000
        r.instanceDelay = 0.1
        r.instanceTransform = CATransform3DMakeTranslation(0, 8, 0)
        let square = CALayer()
        square.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        square.anchorPoint = .zero
        square.position = .zero
        square.backgroundColor = Self.red
        r.addSublayer(square)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0
        move.toValue = 100
        move.duration = 1
        square.add(move, forKey: "move")
        let size = CGSize(width: 64, height: 64)
        let root = Self.root(size, r)
        CATransaction.flush()
        let (pixels, visited) = try Self.render(root, size, at: 0.5)
        try Self.save(pixels, "delay")
        for i in 0 ..< 8 {
            let x = max(0, 100 * (0.5 - 0.1 * Double(i)) - 0.01)
            #expect(pixels.pixel(x: Int(x) + 2, y: 8 * i + 2).a == 255, "instance \(i) at x = \(x)")
            if x >= 8 { #expect(pixels.pixel(x: 1, y: 8 * i + 2).a == 0, "instance \(i) not at 0") }
        }
        // The moving instances (times 0.5 − 0.1·i within the animation's 0…1: i ≤ 5) are bounded
        // at their own times; the later ones all show the square before its begin, and only the
        // 8 rows on the canvas (and a few to spare) are visited of them, not 1000.
        #expect(visited < 20, "visited \(visited)")
    }

    /// A one-sided sublayer turned away from the viewer (half a turn about y) is culled in the
    /// first instance but not in the second, whose instance transform (half a turn about y,
    /// about the replicator's centre x = 32) turns it back: the second draws it mirrored, at
    /// x = 64 − 18 … 64 − 10 (Apple, isDoubleSided: "When the value is false, the layer hides
    /// its content when facing away from the viewer").
    @Test func instanceTurningABackFaceRoundDrawsIt() throws {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        r.instanceCount = 2
        r.instanceTransform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        let square = CALayer()
        square.frame = CGRect(x: 10, y: 28, width: 8, height: 8)
        square.backgroundColor = Self.red
        square.isDoubleSided = false
        square.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        r.addSublayer(square)
        let size = CGSize(width: 64, height: 64)
        let (pixels, _) = try Self.render(Self.root(size, r), size)
        #expect(pixels.pixel(x: 50, y: 32).a == 255, "the second instance faces the viewer")
        #expect(pixels.pixel(x: 14, y: 32).a == 0, "the first faces away")
    }
}
