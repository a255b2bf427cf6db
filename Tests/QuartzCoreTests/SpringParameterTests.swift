import Testing
import QuartzCore

/// The perceptual spring parameters against the numbers in Apple's SwiftUI `Spring`
/// documentation: `Spring(duration: 0.5, bounce: 0.3)` has mass 1, stiffness 157.9, damping 17.6,
/// and `Spring(mass: 1, stiffness: 100, damping: 10)` has duration 0.63, bounce 0.5.
struct SpringParameterTests {
    @Test func perceptualDurationAndBounceMatchApplesExample() {
        let s = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.3)
        #expect(s.mass == 1)
        #expect(abs(s.stiffness - 157.9) < 0.05)
        #expect(abs(s.damping - 17.6) < 0.05)
        // The inverse example: stiffness 100, damping 10 is the spring of duration 2π/10 ≈ 0.63
        // and bounce 0.5.
        let t = CASpringAnimation(perceptualDuration: 2 * .pi / 10, bounce: 0.5)
        #expect(abs(t.stiffness - 100) < 1e-9 && abs(t.damping - 10) < 1e-9)
    }
}
