import Testing
import QuartzCore

/// CAMediaTimingFunction against Apple's documented control points and values measured on Apple
/// hardware (easeIn at x = 0.25 / 0.5 / 0.75 → 0.093465 / 0.315357 / 0.621861).
struct TimingFunctionTests {
    @Test func easeInMatchesAppleHardware() {
        let f = CAMediaTimingFunction(name: .easeIn)
        #expect(abs(f._solve(forInput: 0.25) - 0.093465) < 1e-6)
        #expect(abs(f._solve(forInput: 0.5) - 0.315357) < 1e-6)
        #expect(abs(f._solve(forInput: 0.75) - 0.621861) < 1e-6)
    }

    @Test func namedControlPoints() {
        func points(_ n: CAMediaTimingFunctionName) -> [Float] {
            let f = CAMediaTimingFunction(name: n)
            var out: [Float] = []
            for i in 1...2 {
                var v: [Float] = [0, 0]
                v.withUnsafeMutableBufferPointer { f.getControlPoint(at: i, values: $0.baseAddress!) }
                out += v
            }
            return out
        }
        // Apple's documentation of the named functions.
        #expect(points(.linear) == [0, 0, 1, 1])
        #expect(points(.easeIn) == [0.42, 0, 1, 1])
        #expect(points(.easeOut) == [0, 0, 0.58, 1])
        #expect(points(.easeInEaseOut) == [0.42, 0, 0.58, 1])
        #expect(points(.default) == [0.25, 0.1, 0.25, 1])
    }

    @Test func symmetricCurveIsHalfAtHalf() {
        // easeInEaseOut is point-symmetric about (0.5, 0.5): f(0.5) = 0.5, f(x) + f(1 − x) = 1.
        let f = CAMediaTimingFunction(name: .easeInEaseOut)
        #expect(abs(f._solve(forInput: 0.5) - 0.5) < 1e-12)
        #expect(abs(f._solve(forInput: 0.2) + f._solve(forInput: 0.8) - 1) < 1e-12)
        #expect(CAMediaTimingFunction(name: .linear)._solve(forInput: 0.3) == 0.3)
    }
}
