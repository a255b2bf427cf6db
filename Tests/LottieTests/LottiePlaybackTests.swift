import Foundation
import Lottie
import QuartzCore
import Testing
import UIKit

/// Playback through lottie-ios's API, on the manual media clock: a 30 fps, 1 s animation whose
/// layer's x is 10 × the frame. lottie-ios's documented semantics: `loop` starts over,
/// `autoReverse` plays back, `repeat(n)` plays n times, `pause()` keeps the frame, `stop()`
/// returns to the start, completions get false when interrupted.
@Suite(.serialized) struct LottiePlaybackTests {
    static func view() throws -> LottieAnimationView {
        let doc = Doc.comp([Doc.shapeLayer([], ks: Doc.ks(p: Doc.keyframed([["t": 0, "s": [0, 0]], ["t": 30, "s": [300, 0]]])),
                                           name: "mover")], fr: 30, op: 30)
        return LottieAnimationView(animation: try Doc.animation(doc))
    }

    /// Media time `t`, and the display frames due by then (a new display link's first pump
    /// only starts its frame count).
    static func advance(to t: CFTimeInterval) {
        CAMediaClock.setManualTime(t)
        CADisplayLink.pump()
    }

    @Test func loopStartsOverAndTheTreeShowsTheFrame() throws {
        defer { CAMediaClock.useSystemTime() }
        let view = try Self.view()
        view.loopMode = .loop
        Self.advance(to: 0)
        view.play()
        Self.advance(to: 0)
        #expect(view.isAnimationPlaying)
        Self.advance(to: 0.5)
        #expect(abs(view.currentFrame - 15) < 1e-6)
        #expect(abs(view.currentProgress - 0.5) < 1e-6)
        let mover = try #require(Doc.find("mover", in: view.animationLayer))
        #expect(abs((mover.presentation()?.position.x ?? -1) - 150) < 1e-6)
        Self.advance(to: 1.25)
        #expect(abs(view.currentFrame - 7.5) < 1e-6)
        view.pause()
        #expect(!view.isAnimationPlaying)
        Self.advance(to: 1.5)
        #expect(abs(view.currentFrame - 7.5) < 1e-6, "paused")
        view.stop()
        #expect(view.currentFrame == 0)
    }

    @Test func playOnceEndsAtTheLastFrameAndCompletes() throws {
        defer { CAMediaClock.useSystemTime() }
        let view = try Self.view()
        var completed: [Bool] = []
        Self.advance(to: 0)
        view.play(fromFrame: 6, toFrame: 24, loopMode: .playOnce) { completed.append($0) }
        Self.advance(to: 0)
        Self.advance(to: 0.3)
        #expect(abs(view.currentFrame - 15) < 1e-6)        // 6 + 0.3 s · 30 fps
        Self.advance(to: 1)
        #expect(view.currentFrame == 24)
        #expect(!view.isAnimationPlaying)
        #expect(completed == [true])
    }

    @Test func autoReverseRepeatAndSpeed() throws {
        defer { CAMediaClock.useSystemTime() }
        let view = try Self.view()
        Self.advance(to: 0)
        view.play(fromProgress: 0, toProgress: 1, loopMode: .autoReverse)
        Self.advance(to: 0)
        Self.advance(to: 1.25)
        #expect(abs(view.currentFrame - 22.5) < 1e-6)      // a quarter of the way back
        var completed: [Bool] = []
        view.animationSpeed = 2
        view.play(fromFrame: 0, toFrame: 30, loopMode: .repeat(2)) { completed.append($0) }
        #expect(abs(view.currentFrame - 0) < 1e-6)
        Self.advance(to: 1.25)
        Self.advance(to: 1.5)
        #expect(abs(view.currentFrame - 15) < 1e-6)        // 0.25 s at twice the rate
        Self.advance(to: 2.5)
        #expect(view.currentFrame == 30)
        #expect(completed == [true])
    }
}
