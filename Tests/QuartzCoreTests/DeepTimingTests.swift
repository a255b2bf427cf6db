import Testing
import QuartzCore

/// Local time in a deep chain of layers with timing of their own (O(1) amortized per
/// layer, no recursion). Expected values are Apple's CAMediaTiming map applied level by level
/// from the root down — local = (parent − beginTime) · speed + timeOffset — computed here,
/// independently of the layer code; the layer's answer must equal it exactly, whatever order
/// the layers are asked in and after any change of an ancestor's timing or of the tree.
extension MediaClockSuite {
    @Suite struct DeepTimingTests {
        /// Timing of level `i`: every tenth level keeps the defaults, the others get a begin
        /// time, a speed a little off 1 and a time offset.
        static func timing(_ i: Int) -> (beginTime: CFTimeInterval, speed: Float, timeOffset: CFTimeInterval) {
            guard i % 10 != 0 else { return (0, 1, 0) }
            return (0.001 * Double(i % 3), 1 + Float(i % 5 - 2) * 1e-6, 0.002 * Double(i % 7))
        }

        /// A chain of `depth` layers, level i with `timing(i)`; returned root first.
        static func timedChain(depth: Int) -> [CALayer] {
            let layers = (0..<depth).map { i -> CALayer in
                let l = CALayer()
                (l.beginTime, l.speed, l.timeOffset) = timing(i)
                return l
            }
            for i in 1..<depth { layers[i - 1].addSublayer(layers[i]) }
            return layers
        }

        /// The local time of every layer of `layers` (root first) at media time `t`, the map
        /// applied level by level.
        static func closedForm(_ layers: [CALayer], at t: CFTimeInterval) -> [CFTimeInterval] {
            var time = t
            return layers.map { l in
                time = (time - l.beginTime) * CFTimeInterval(l.speed) + l.timeOffset
                return time
            }
        }

        /// How many layers' local times at `t`, asked in `order`, differ from the closed form.
        static func mismatches(_ layers: [CALayer], at t: CFTimeInterval, order: [Int]) -> Int {
            let expected = closedForm(layers, at: t)
            return order.filter { layers[$0].convertTime(t, from: nil) != expected[$0] }.count
        }

        @Test func localTimesInAnyOrderEqualTheLevelByLevelMap() {
            let layers = Self.timedChain(depth: 3_000)
            let n = layers.count
            #expect(Self.mismatches(layers, at: 7.25, order: Array((0..<n).reversed())) == 0)   // deepest first
            #expect(Self.mismatches(layers, at: 9.5, order: Array(0..<n)) == 0)                 // root first
            var shuffled = Array(0..<n)
            var rng = SystemRandomNumberGenerator()
            shuffled.shuffle(using: &rng)
            #expect(Self.mismatches(layers, at: 11.75, order: shuffled) == 0)
            // The same time again (cached answers) and a negative one.
            #expect(Self.mismatches(layers, at: 11.75, order: Array((0..<n).reversed())) == 0)
            #expect(Self.mismatches(layers, at: -3, order: Array(stride(from: 0, to: n, by: 7))) == 0)
        }

        @Test func anAncestorsTimingChangeReachesTheDescendantsAtTheSameTime() {
            let layers = Self.timedChain(depth: 1_000)
            let deepest = layers.count - 1
            func deepestIsExact() -> Bool { Self.mismatches(layers, at: 4, order: [deepest]) == 0 }
            #expect(deepestIsExact())
            let before = layers[deepest].convertTime(4, from: nil)
            layers[500].speed = 2
            #expect(deepestIsExact())
            #expect(layers[deepest].convertTime(4, from: nil) > before + 3)   // the lower half now runs twice as fast
            layers[300].setValue(1.5, forKey: "timeOffset")
            #expect(deepestIsExact())
            layers[700].beginTime = -2
            #expect(deepestIsExact())
            layers[0].speed = 0.5
            #expect(Self.mismatches(layers, at: 4, order: Array(0..<layers.count)) == 0)
        }

        @Test func movingASubtreeChangesItsTime() {
            let layers = Self.timedChain(depth: 600)
            let other = CALayer()
            other.beginTime = 1; other.speed = 3; other.timeOffset = 0.5
            #expect(Self.mismatches(layers, at: 2, order: [599]) == 0)
            // Levels 400… move under `other`: their times now start from its local time.
            other.addSublayer(layers[400])
            #expect(Self.mismatches([other] + Array(layers[400...]), at: 2, order: [200]) == 0)
            #expect(Self.mismatches(Array(layers[..<400]), at: 2, order: [399]) == 0)
            layers[400].removeFromSuperlayer()
            #expect(Self.mismatches(Array(layers[400...]), at: 2, order: [199, 0]) == 0)
        }

        @Test func presentationFollowsAnAncestorsSpeedChange() {
            CAMediaClock.setManualTime(0)
            let layers = Self.timedChain(depth: 2_000)
            let leaf = layers[layers.count - 1]
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = 0; move.toValue = 1_000; move.duration = 1_000
            leaf.add(move, forKey: "move")
            CATransaction.flush()
            let begin = Self.closedForm(layers, at: 0).last!   // the animation starts at the commit
            func x(at t: CFTimeInterval) -> CGFloat {
                CAMediaClock.setManualTime(t)
                return leaf.presentation()!.position.x
            }
            #expect(abs(x(at: 3) - (Self.closedForm(layers, at: 3).last! - begin)) < 1e-9)
            layers[1_000].speed = 4
            #expect(abs(x(at: 3) - (Self.closedForm(layers, at: 3).last! - begin)) < 1e-9)
            #expect(x(at: 3) > 10)
        }

        /// Distance between `a` and `b` in units in the last place of `b`.
        static func ulps(_ a: CFTimeInterval, _ b: CFTimeInterval) -> Double { abs(a - b) / b.ulp }

        /// The largest distance, in ulps of `media`, between `media` and the media time each of
        /// the `levels` gives back for its own local time at `media` (`convertTime(_:to: nil)`,
        /// i.e. mediaTime(fromLocal:)), the local time taken from the closed form.
        static func worstRoundTrip(_ layers: [CALayer], at media: CFTimeInterval, levels: [Int]) -> Double {
            let local = closedForm(layers, at: media)
            return levels.map { ulps(layers[$0].convertTime(local[$0], to: nil), media) }.max() ?? 0
        }

        /// mediaTime(fromLocal:) inverts local time along a 3 000-deep chain, deep layers through
        /// the cache's affine inverse (rounding may differ from the exact level-by-level inverse
        /// by a few ulps per level crossed: each level's map rounds once or twice), shallow ones
        /// (the first `CALayer.exactInverseDepth` levels) exactly; and it follows changes of an
        /// ancestor's timing (each a cache invalidation).
        @Test func mediaTimeFromLocalInvertsLocalTimeAcrossInvalidations() {
            let layers = Self.timedChain(depth: 3_000)
            let n = layers.count
            let levels = [0, 5, 15, 16, 17, 100, 1_499, 1_500, 2_999] + Array(stride(from: 0, to: n, by: 37))
            let bound = 2 * Double(n)
            #expect(Self.worstRoundTrip(layers, at: 6.5, levels: levels) <= bound)
            #expect(Self.worstRoundTrip(layers, at: 6.5, levels: Array(0..<15)) == 0)
            // The deepest layer's own time: its begin 10 s later in its local time is 10 s later
            // in media time to within the chain's rate (speeds within 2e-6 of 1 per level).
            let later = layers[n - 1].convertTime(Self.closedForm(layers, at: 6.5)[n - 1] + 10, to: nil)
            #expect(abs(later - 16.5) < 10 * 2e-6 * Double(n))
            layers[1_000].speed = 2
            #expect(Self.worstRoundTrip(layers, at: 8.25, levels: levels) <= bound)
            layers[0].beginTime = -1.5
            layers[2_000].timeOffset = 3
            #expect(Self.worstRoundTrip(layers, at: 4, levels: levels.reversed()) <= bound)
            // Through the cache for a layer asked after its ancestors were (other media time).
            _ = layers[10].convertTime(1, from: nil)
            #expect(Self.worstRoundTrip(layers, at: 4, levels: [2_999, 1_234]) <= bound)
        }
    }
}
