import Compositor
import Foundation
import QuartzCore
import Raster
import Testing

/// A replicator whose sublayers are animated under an instanceDelay. Instance i shows
/// them at t − i·instanceDelay (Apple, `instanceDelay`: "Specifies the delay, in seconds,
/// between replicated copies"), so only the instances whose shifted time falls within the
/// animations' active periods differ; those before all show the picture before the begin, those
/// after all the picture after the end. The renderer finds the visible instances of those two
/// runs in closed form, and the pixels are those of the same scene built by hand: instance i as
/// its own copy of the sublayers, moved by i times the step, its timing container's timeOffset
/// lowered by speed·i·delay (the same local time, closed form).
@Suite(.serialized) struct ReplicatorDelayedCullingTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    /// The target: the squares at rest before the begin (y 3…9, or 7…13 filled backwards) are on it, those at rest after
    /// the end with a forwards fill (y 39…45) below it — a run given the other's extent would
    /// lose its squares.
    static let size = CGSize(width: 64, height: 24)

    /// One scene: the delay, the frame time, the square's animation fill and removal, its
    /// container's timing, and whether the replicator animates its own step.
    struct Scene: CustomTestStringConvertible, Sendable {
        var delay: CFTimeInterval
        var time: CFTimeInterval
        var fill: CAMediaTimingFillMode = .removed
        var removedOnCompletion = false
        var speed: Float = 1
        var timeOffset: CFTimeInterval = 0
        /// The replicator's instanceTransform animates from x 2 to 6 over media 0.3125…4.3125, so
        /// at time 2.3125 it is a translation by 4, the step of the other scenes.
        var animatesStep = false
        /// The step's m33 (2: not a plane translation, so the instances are tested in order).
        var zScale: CGFloat = 1
        var count = Int.max
        var testDescription: String {
            "delay \(delay) at \(time), fill \(fill.rawValue)\(removedOnCompletion ? ", removed" : ""), speed \(speed) offset "
                + "\(timeOffset)\(animatesStep ? ", animated step" : "")\(zScale != 1 ? ", z scale \(zScale)" : "")"
        }
    }

    static let scenes: [Scene] = [
        // Instances 0…2 after the end (times 2.3125, 2.1875, 2.0625), 3…10 moving, 11… before the begin.
        Scene(delay: 0.125, time: 2.3125),
        Scene(delay: 0.125, time: 2.3125, fill: .forwards),
        // Negative delay: 0…2 before the begin, 3…10 moving, 11… after the end (removed there).
        Scene(delay: -0.125, time: 0.6875, fill: .both, removedOnCompletion: true),
        Scene(delay: -0.125, time: 0.6875, fill: .forwards),
        // The container's local time 2·(t − i·delay) − 1.5 = 2.125 − i/4: 0 after the end, 1…4 moving, 5… before.
        Scene(delay: 0.125, time: 1.8125, fill: .backwards, speed: 2, timeOffset: -1.5),
        Scene(delay: 0.125, time: 2.3125, animatesStep: true),
        Scene(delay: 0.125, time: 2.3125, fill: .both, zScale: 2, count: 40),
    ]

    /// A 6×6 red square at (2, 3) in a zero-size container at `origin` with the scene's timing
    /// (its timeOffset lowered by `shift` seconds of media time), moving down from y 10 to 42
    /// over its local times 1…2. The scenes' times put every square on whole points (4 points
    /// apart at a delay of 1/8 s): a retained layer bitmap drawn at one sub-pixel phase and
    /// resampled at another blurs its edges by a level or two, which would depend on which
    /// instance happens to be drawn first, not on culling.
    static func square(_ scene: Scene, origin: CGPoint, shift: CFTimeInterval) -> CALayer {
        let container = CALayer()
        container.bounds = .zero
        container.position = origin
        container.speed = scene.speed
        container.timeOffset = scene.timeOffset - CFTimeInterval(scene.speed) * shift
        let square = CALayer()
        square.frame = CGRect(x: 2, y: 3, width: 6, height: 6)
        square.backgroundColor = red
        let move = CABasicAnimation(keyPath: "position.y")
        move.fromValue = 10
        move.toValue = 42
        move.beginTime = 1
        move.duration = 1
        move.fillMode = scene.fill
        move.isRemovedOnCompletion = scene.removedOnCompletion
        square.add(move, forKey: "move")
        container.addSublayer(square)
        return container
    }

    /// The scene as a replicator of the square, stepping 4 points right.
    static func replicated(_ scene: Scene) -> CALayer {
        let r = CAReplicatorLayer()
        r.frame = CGRect(origin: .zero, size: size)
        r.instanceCount = scene.count
        r.instanceDelay = scene.delay
        var step = CATransform3DMakeTranslation(4, 0, 0)
        step.m33 = scene.zScale
        r.instanceTransform = step
        if scene.animatesStep {
            let grow = CABasicAnimation(keyPath: "instanceTransform")
            grow.fromValue = CATransform3DMakeTranslation(2, 0, 0)
            grow.toValue = CATransform3DMakeTranslation(6, 0, 0)
            grow.beginTime = 0.3125
            grow.duration = 4
            r.add(grow, forKey: "grow")
        }
        r.addSublayer(square(scene, origin: .zero, shift: 0))
        return r
    }

    /// The scene built by hand: the first 20 instances (instance 16 lies past the right edge),
    /// each its own square at i·4 with its time shifted by i·delay.
    static func byHand(_ scene: Scene) -> CALayer {
        let layer = CALayer()
        layer.frame = CGRect(origin: .zero, size: size)
        for i in 0 ..< 20 {
            layer.addSublayer(square(scene, origin: CGPoint(x: 4 * CGFloat(i), y: 0), shift: CFTimeInterval(i) * scene.delay))
        }
        return layer
    }

    @Test(arguments: scenes)
    func delayedAnimatedInstancesMatchTheSceneBuiltByHand(_ scene: Scene) throws {
        let (replicated, visited) = try ReplicatorCullingTests.render(ReplicatorCullingTests.root(Self.size, Self.replicated(scene)),
                                                                      Self.size, at: scene.time)
        let (expected, _) = try ReplicatorCullingTests.render(ReplicatorCullingTests.root(Self.size, Self.byHand(scene)), Self.size,
                                                              at: scene.time)
        let a = ReplicatorCullingTests.bytes(replicated, width: 64, height: 24)
        let b = ReplicatorCullingTests.bytes(expected, width: 64, height: 24)
        let differing = ReplicatorCullingTests.differing(a, b)
        if differing != 0 {
            try ReplicatorCullingTests.save(replicated, "delayed-replicated")
            try ReplicatorCullingTests.save(expected, "delayed-by-hand")
        }
        let first = stride(from: 0, to: a.count, by: 4).filter { a[$0 ..< $0 + 4] != b[$0 ..< $0 + 4] }.prefix(4)
            .map { "(\($0 / 4 % 64), \($0 / 4 / 64)): \(Array(a[$0 ..< $0 + 4])) vs \(Array(b[$0 ..< $0 + 4]))" }
        #expect(differing == 0, "\(differing) bytes differ, first at \(first)")
        #expect(stride(from: 0, to: a.count, by: 4).filter { a[$0] == 255 && a[$0 + 3] == 255 }.count > 100, "red squares drawn")
        #expect(visited < 100, "visited \(visited)")
    }

    /// Closed form for one moving instance: at 2.3 with a delay of 0.125, instance 4 shows time
    /// 1.8, 80 % of the way from y 10 to 42: its square covers x 18…24, y 32.6…38.6.
    @Test func aMovingInstanceIsWhereItsShiftedTimePutsIt() throws {
        let tall = CGSize(width: 64, height: 48)
        let (pixels, _) = try ReplicatorCullingTests.render(
            ReplicatorCullingTests.root(tall, Self.replicated(Scene(delay: 0.125, time: 2.3))), tall, at: 2.3)
        #expect(pixels.pixel(x: 21, y: 35).a == 255)
        #expect(pixels.pixel(x: 21, y: 30).a == 0)
        #expect(pixels.pixel(x: 21, y: 40).a == 0)
    }

    /// A 64×16 stripe: `count` 8×8 squares 20 points apart under `delay`, the square animated by
    /// `animation` from its local time 1 for 1 s; drawn at 1.5, it returns the instances visited.
    static func stripeVisits(count: Int, delay: CFTimeInterval, _ animation: CABasicAnimation) throws -> Int {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 64, height: 16)
        r.instanceCount = count
        r.instanceDelay = delay
        r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        let square = CALayer()
        square.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        square.backgroundColor = Self.red
        animation.beginTime = 1
        animation.duration = 1
        square.add(animation, forKey: "move")
        r.addSublayer(square)
        let size = CGSize(width: 64, height: 16)
        return try ReplicatorCullingTests.render(ReplicatorCullingTests.root(size, r), size, at: 1.5).visited
    }

    /// Int.max instances of a sublayer animated under a delay, stepping 20 points: the moving
    /// ones (times within the 1-second animation: about 10 at a delay of 0.1) and the visible
    /// ones of the runs either side are visited, not 2²⁰.
    @Test(arguments: [0.1, -0.1])
    func intMaxDelayedAnimatedTranslationVisitsFewInstances(delay: CFTimeInterval) throws {
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0
        move.toValue = 100
        let visited = try Self.stripeVisits(count: .max, delay: delay, move)
        #expect(visited < 40, "visited \(visited)")
    }

    /// An animation that repeats forever has no end: with a positive delay the instances before
    /// its begin still form a run of one picture (Int.max costs little); with a negative one every
    /// later instance may differ, and they are tested one by one as before (a shorter count here).
    @Test func foreverRepeatingAnimationBoundsOnlyItsBeginSide() throws {
        func spin() -> CABasicAnimation {
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.toValue = CGFloat.pi
            spin.repeatCount = .infinity
            return spin
        }
        let positive = try Self.stripeVisits(count: .max, delay: 0.1, spin())
        #expect(positive < 40, "visited \(positive)")
        #expect(try Self.stripeVisits(count: 5000, delay: -0.1, spin()) == 5000)
    }
}
