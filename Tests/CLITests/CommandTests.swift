import Foundation
import Testing

/// `citrine demos`, `citrine info` and `--version`.
@Suite struct CommandTests {
    @Test func demosListsOneLineEach() throws {
        let run = try Citrine.run(["demos"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.output == """
            volume-bars                    160x180  1 s    seed 000: a CAReplicatorLayer of 3 bars, instanceDelay 0.1, transform.scale.y 1 → 0.1 autoreversing
            activity-indicator             140x140  1 s    seed 000: a CAReplicatorLayer of 20 dots turned 2π/20 apart, 1/20 s later each, transform.scale 1 → 0
            reflection                     200x360  0.5 s  seed 000: a view whose layer is a CAReplicatorLayer: an image and its mirror below, colour and alpha 0.1 lower
            fold-image                     240x240  2 s    seed 000: drag down to fold the image's top half (m34 = −1/500) with a gradient shadow; it springs back with damping 0.2
            fold-image-past-90             240x240  2.6 s  seed 000: the fold image dragged 170 pt: the top half turns 153° and lies over the bottom half (depth order), then springs back
            page-curl                      200x240  5 s    seed 000: tap to turn the page: UIView.transition with .transitionCurlUp (a pageCurl CATransition, 2 s)
            path-dots                      320x320  5 s    seed 000: draw a path with a finger; dots follow it in a CAReplicatorLayer with instanceDelay 0.2
            sticky-bubble                  320x240  3.5 s  seeds 000/001: the QQ sticky bubble: drag it; past 80 pt it breaks off with an 8-frame burst, within 80 pt it springs back
            ball-loader                    200x120  3 s    seed 002: three balls: the outer two travel arcs around the middle one (keyframe path), growing from animationDidStart
            carousel                       240x180  7 s    seed 003: swipe the image carousel: a cube CATransition to the next or previous image
            petal-pause                    320x480  7 s    seed 003: tap: a petal falls to the touch while turning; later taps pause and resume it (speed, timeOffset, beginTime)
            falling-petal-jump-back        320x480  6 s    seed 003: tap: the petal moves to the touch (position, 5 s), then jumps back to its model position
            falling-petal-move-rotate      320x480  6 s    seed 003: tap: the petal moves to the touch while transform.rotation.z turns it to 3π/2 and back
            falling-petal-delegate-fix     320x480  6 s    seed 003: tap: the petal moves and stays: animationDidStop sets its position with actions disabled
            falling-petal-keyframe-values  320x480  11 s   seed 003: the petal falls through four keyframe values in 8 s, from 2 s after loading
            falling-petal-keyframe-path    320x480  14 s   seed 003: the petal falls along a cubic Bézier keyframe path in 8 s, from 5 s after loading
            falling-petal-group            320x480  16 s   seed 003: a CAAnimationGroup of the path and the rotation (10 s, from 5 s); the delegate sets the final state
            confetti                       240x180  4 s    no seed: CAEmitterLayer: a line above the top emits four colours of spinning confetti that fall and sway
            fire                           200x240  2 s    no seed: CAEmitterLayer: additive flame particles rise, shrink, redden and fade
            cube                           240x240  4 s    no seed: Lockwood's cube: six bordered die faces in a CATransformLayer turning about y under m34 = −1/500, drawn by depth
            filters                        240x160  2 s    no seed: CALayer filters: a breathing gaussianBlur, a frosted card (backgroundFilters), multiply and screen compositing, monochrome and hue rotation
            scrubbable-card                240x320  6 s    no seed: drag the card up: a paused UIViewPropertyAnimator follows the finger, then finishes or reverses; tap to toggle
            keyframe-bounce                280x200  5.8 s  no seed: tap: the ball drops, squashes and bounces across the floor — one UIView.animateKeyframes block
            dynamics-pile                  320x480  9 s    no seed: UIKit Dynamics: boxes and balls fall, collide and settle (gravity, collision, elasticity, friction); tap drops a box, tap a box kicks it
            parallax-scroll                240x360  7 s    no seed: UIScrollView: flick the list (deceleration 0.998/ms); the header picture moves at half speed and stretches when pulled past the top
            custom-transition              240x360  4.6 s  no seed: a custom present/dismiss transition: tap a card and its detail zooms out of it (.custom, a transitioning delegate's animator); tap to zoom back

            """)
    }

    /// The tree after the first run-loop turn: seed 003's keyframe-path listing adds its
    /// animation at load with beginTime = CACurrentMediaTime() + 5 and duration 8, along the
    /// cubic from (50, 150) with controls (160, 280) and (−30, 300) to (55, 400), whose control
    /// points span (−30, 150) to (160, 400); the 10 × 20 petal sits at (50, 150).
    @Test func infoShowsTheTreeAndTheAnimationsTiming() throws {
        let run = try Citrine.run(["info", "falling-petal-keyframe-path"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output == """
            falling-petal-keyframe-path: seed 003: the petal falls along a cubic Bézier keyframe path in 8 s, from 5 s after loading
            320x480 points, span 14 s

            CALayer  frame (0, 0, 320, 480)  backgroundColor #F7F5ED
            └── CALayer  frame (0, 0, 320, 480)  backgroundColor pattern 64x64 image
                └── CALayer  frame (45, 140, 10, 20)  contents 20x40 image
                      ◆ "KCKeyframeAnimation_Position": CAKeyframeAnimation  position  along a path in (-30, 150, 190, 250)  beginTime 5  duration 8  repeatCount 0  autoreverses false  fillMode removed  timingFunction linear

            """)
    }

    /// Old names still work: `falling-petal` is the group listing, `NAME-live` is `NAME`.
    @Test func aliases() throws {
        let old = try Citrine.run(["info", "falling-petal"])
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.output.hasPrefix("falling-petal-group: seed 003"))
        let live = try Citrine.run(["info", "ball-loader-live"])
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.output.hasPrefix("ball-loader: seed 002"))
        #expect(live.output.contains(#"◆ "animation1": CAKeyframeAnimation  position  along a path"#))
    }

    /// `info --fonts --font-dir DIR`: with a folder holding one DejaVu file, every Apple name is
    /// drawn with that file (the policy's last resort: fontconfig's best match among the
    /// folder's fonts); without the folder, `fc-match` gives each row's file.
    @Test func infoFontsPrintsTheResolvedTable() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fonts = folder.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        let source = try Self.fcMatch("DejaVu Sans Mono")
        let copy = fonts.appendingPathComponent("DejaVuSansMono.ttf").path
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        let run = try Citrine.run(["info", "--fonts", "--font-dir", "fonts"], in: folder)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let rows = run.output.split(separator: "\n").filter { $0.hasSuffix(".ttf") || $0.hasSuffix(".otf") }
        #expect(rows.count == 10 && rows.allSatisfy { $0.contains("DejaVu Sans Mono") && $0.hasSuffix(copy) }, "\(run.output)")
        let here = try Citrine.run(["info", "--fonts"])
        #expect(here.status == 0, "\(here.stderr)")
        let helvetica = try #require(here.output.split(separator: "\n").first { $0.hasPrefix("Helvetica ") })
        let family = try #require(["Nimbus Sans", "TeX Gyre Heros", "Liberation Sans", "DejaVu Sans"].first { helvetica.contains($0) })
        #expect(helvetica.hasSuffix(try Self.fcMatch(family)))
        let bad = try Citrine.run(["info", "--fonts", "--font-dir", "missing"], in: folder)
        #expect(bad.status == 1 && bad.stderr.contains("--font-dir missing: not a folder"))
    }

    static func fcMatch(_ family: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["fc-match", "-f", "%{file}", family]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func version() throws {
        let run = try Citrine.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output == "0.1.0\n")
    }
}
