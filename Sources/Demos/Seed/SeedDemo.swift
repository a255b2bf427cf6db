import CitrineUI

// The seed tutorials' interactive demos, on CitrineUI (issue 14): each one builds a window of
// views exactly as the seed's iOS code builds its view controller, and carries a scripted input
// timeline that drives it headless through `UIApplication`'s one input path
// (`UIEventTimeline.play`, which steps the media clock and calls `UIApplication.advance(to:)`).
// These are separate from `Gallery.demos` (the layer-only still demos the CLI lists).

/// One interactive seed demo.
public struct SeedDemo: Sendable {
    /// Short name, e.g. "sticky-bubble-live".
    public let name: String
    /// The seed tutorials it comes from (`../shared/seeds/`), by number.
    public let seeds: [Int]
    /// Size of the window in points.
    public let size: CGSize
    /// Builds the demo's window (made key and visible) with its views. Keep the window: the
    /// application holds windows weakly.
    public let build: @Sendable () -> UIWindow
    /// The default scripted input (times in seconds of media time from 0).
    public let timeline: UIEventTimeline
    /// Seconds to play the timeline for (past its last event, so the animations it starts end).
    public let span: CFTimeInterval

    public init(name: String, seeds: [Int], size: CGSize, span: CFTimeInterval, timeline: UIEventTimeline,
                build: @escaping @Sendable () -> UIWindow) {
        self.name = name
        self.seeds = seeds
        self.size = size
        self.span = span
        self.timeline = timeline
        self.build = build
    }

    /// The interactive demos, in the order they were ported.
    public static let all: [SeedDemo] = [stickyBubble, foldImage, pathDots, ballLoader, carousel, pageCurl, petalPause, reflection, volumeBars, activityIndicator] + fallingPetals

    /// The demo called `name`, if any.
    public static func named(_ name: String) -> SeedDemo? { all.first { $0.name == name } }

    /// A window of `size`, key and visible, with the gallery's background colour.
    static func window(_ size: CGSize) -> UIWindow {
        let window = UIWindow(frame: CGRect(origin: .zero, size: size))
        window.backgroundColor = UIColor(cgColor: Gallery.background)
        window.makeKeyAndVisible()
        return window
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
