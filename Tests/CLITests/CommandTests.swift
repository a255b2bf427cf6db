import Foundation
import Testing

/// `citrine demos`, `citrine info` and `--version`.
@Suite struct CommandTests {
    @Test func demosListsOneLineEach() throws {
        let run = try Citrine.run(["demos"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.output == """
            falling-petal       160x240  4 s    seed 003: a petal falls along a keyframe path while rotating (CAAnimationGroup)
            volume-bars         160x120  0.6 s  seed 000: CAReplicatorLayer, 3 bars, instanceDelay 0.1, transform.scale.y autoreverses
            activity-indicator  120x120  1 s    seed 000: CAReplicatorLayer of 20 dots rotated 2π/20, transform.scale 1→0
            ball-loader         200x120  1.5 s  seed 002: a ball follows arc + arc + line (CAKeyframeAnimation path, easeInEaseOut)
            sticky-bubble       200x200  1 s    seeds 000/001: the QQ sticky bubble's CAShapeLayer between two circles
            reflection          200x240  2 s    seed 000: CAReplicatorLayer, 2 instances, translate(height) then rotate π about x, colour offsets −0.1
            fold-image          200x220  2 s    seed 000: top half rotated about x with m34 = −1/500, gradient shadow following the fold
            confetti            240x180  4 s    CAEmitterLayer: a line across the top emits four colours of spinning confetti
            fire                200x240  2 s    CAEmitterLayer: additive flame particles that rise, shrink, redden and fade

            """)
    }

    @Test func infoShowsTheTreeAndTheAnimationsTiming() throws {
        let run = try Citrine.run(["info", "falling-petal"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output == """
            falling-petal: seed 003: a petal falls along a keyframe path while rotating (CAAnimationGroup)
            160x240 points, span 4 s

            CALayer  frame (0, 0, 160, 240)
            └── CAShapeLayer  frame (28, 12, 24, 36)  path in (-6, 0, 36, 36)  fillColor #ED7399
                  ◆ "fall": CAAnimationGroup  beginTime 0  duration 4  repeatCount 0  autoreverses false  fillMode forwards  timingFunction linear  removedOnCompletion false
                    ├── CAKeyframeAnimation  position  along a path in (0, 30, 150, 180)  beginTime 0  duration 4  repeatCount 0  autoreverses false  fillMode removed  timingFunction linear
                    └── CABasicAnimation  transform.rotation.z  0 → 6.2832  beginTime 0  duration 4  repeatCount 0  autoreverses false  fillMode removed  timingFunction linear

            """)
    }

    @Test func infoOfARepeatingDemo() throws {
        let run = try Citrine.run(["info", "volume-bars"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.contains("CAReplicatorLayer  frame (20, 10, 130, 100)  instanceCount 3  instanceDelay 0.1  instanceTransform translate(45, 0, 0)"))
        #expect(run.output.contains("""
            ◆ "bounce": CABasicAnimation  transform.scale.y  1 → 0.1  beginTime 0  duration 0.3  repeatCount infinity  autoreverses true  fillMode removed  timingFunction linear
            """))
    }

    @Test func version() throws {
        let run = try Citrine.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output == "0.1.0\n")
    }
}
