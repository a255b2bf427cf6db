import Scene
import UIKit

// The seed tutorials' demos, on UIKit: each one builds a window of views exactly as the seed's
// iOS code builds its view controller, and carries a scripted input (`SceneScript`) that drives
// it headless through the Scene module's driver and `UIApplication`'s one input path — the
// window host and the exporter drive `makeScene()` the same way. `SeedDemo.all` is the one list
// the `citrine` commands use: `demos` lists it, `gallery` renders it, `render`, `play` and
// `info` take its names (or an alias). `LayerDemo` keeps layer-only scenes of some of the same
// examples for the export benchmark and the renderer's golden images.

/// One seed demo.
public struct SeedDemo: Sendable {
    /// Short name, e.g. "sticky-bubble".
    public let name: String
    /// The seed tutorials it comes from (`../shared/seeds/`), by number.
    public let seeds: [Int]
    /// What it shows and how to interact with it, in one line.
    public let description: String
    /// Size of the window in points.
    public let size: CGSize
    /// Builds the demo's window (made key and visible) with its views. Keep the window: the
    /// application holds windows weakly.
    public let build: @Sendable () -> UIWindow
    /// The default scripted input (times in seconds of media time from 0).
    public let timeline: SceneScript
    /// Seconds to play the timeline for (past its last event, so the animations it starts end).
    public let span: CFTimeInterval

    public init(name: String, seeds: [Int], description: String, size: CGSize, span: CFTimeInterval,
                timeline: SceneScript, build: @escaping @Sendable () -> UIWindow) {
        self.name = name
        self.seeds = seeds
        self.description = description
        self.size = size
        self.span = span
        self.timeline = timeline
        self.build = build
    }

    /// Every seed example once, in the seeds' order, then the particle scenes, the 3D scenes, the
    /// layer filters and UIKit's animation toolbox.
    public static let all: [SeedDemo] = [volumeBars, activityIndicator, reflection, foldImage, foldImagePast90, pageCurl, pathDots,
                                         stickyBubble, ballLoader, carousel, petalPause] + fallingPetals + particles + depth + filters
        + animators + [dynamicsPile] + scrollAndTransitions

    /// Names that earlier versions used, to the demo's name now: the interactive demos were
    /// `NAME-live` beside layer-only demos of the same examples; `falling-petal` was the group.
    public static let aliases: [String: String] = Dictionary(uniqueKeysWithValues: all.map { ($0.name + "-live", $0.name) })
        .merging(["falling-petal": "falling-petal-" + SeedFallingPetalView.Variant.group.rawValue]) { old, _ in old }

    /// The demo called `name` (or aliased so), if any.
    public static func named(_ name: String) -> SeedDemo? {
        let canonical = aliases[name] ?? name
        return all.first { $0.name == canonical }
    }

    /// The seeds by name: "seed 003", "seeds 000/001"; "no seed" for the particle, 3D and filter scenes.
    public var seedLabel: String {
        if seeds.isEmpty { return "no seed" }
        let numbers = seeds.map { String(repeating: "0", count: max(0, 3 - String($0).count)) + String($0) }
        return (seeds.count == 1 ? "seed " : "seeds ") + numbers.joined(separator: "/")
    }

    /// "seed 003: a petal falls …".
    public var summary: String { "\(seedLabel): \(description)" }

    /// A window of `size`, key and visible, with the gallery's background colour.
    static func window(_ size: CGSize) -> UIWindow {
        let window = UIWindow(frame: CGRect(origin: .zero, size: size))
        window.backgroundColor = UIColor(cgColor: Gallery.background)
        window.makeKeyAndVisible()
        return window
    }

    /// The demo as a scene (`citrine play`, `render`, `info`): its window built now and
    /// committed. `UIApplication.shared` is one per process: two such scenes must not be alive at
    /// once (export it with `scenesShareState`).
    public func makeScene() -> any HostedScene {
        let scene = WindowScene(window: build(), size: size)
        CATransaction.flush()
        return scene
    }

    /// Builds the demo at media time 0 and plays its timeline headless through `span`, calling
    /// `frame(t)` after each run-loop turn (render `window.layer` there). Returns the window.
    @discardableResult
    public func play(framesPerSecond: Double = 60, frame: (UIWindow, CFTimeInterval) throws -> Void = { _, _ in }) rethrows -> UIWindow {
        CAMediaClock.setManualTime(0)
        let window = build()
        CATransaction.flush()
        try timeline.play(in: window, from: 0, through: span, framesPerSecond: framesPerSecond) { t in
            try frame(window, t)
        }
        return window
    }
}
