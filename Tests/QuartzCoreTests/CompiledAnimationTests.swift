import Testing
import QuartzCore

/// Plain `CABasicAnimation`s and linear `CAKeyframeAnimation`s of number and point properties,
/// and of the numbers among the transform's parts, are evaluated by a compiled fast path;
/// subclasses take the general path. These differential tests run the same animation both ways
/// (a do-nothing subclass forces the general path, whose values the other suites check against
/// Apple's numbers), check that the first did run compiled, and require identical presentations
/// at many times, across timing functions, key times, repeats, autoreverse, speed and fill modes.
extension MediaClockSuite {
    @Suite struct CompiledAnimationTests {
        final class GeneralBasic: CABasicAnimation {}
        final class GeneralKeyframe: CAKeyframeAnimation {}

        static func configure(_ a: CAAnimation, _ variant: Int) {
            a.duration = 1.5
            switch variant {
            case 1: a.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
            case 2: a.repeatCount = 2.5; a.autoreverses = true
            case 3: a.speed = 2; a.fillMode = .both; a.beginTime = 0.3   // relative to the commit time below
            case 4: a.timingFunction = CAMediaTimingFunction(controlPoints: 0.3, -0.6, 0.7, 1.6)   // overshoots
            default: break
            }
        }

        /// Presentations of two layers, one per animation, sampled over 6 s.
        static func samples(_ fast: CAAnimation, _ general: CAAnimation, model: (CALayer) -> Void = { _ in },
                            read: (CALayer) -> [Double]) -> [([Double], [Double])] {
            samples([fast], [general], model: model, read: read)
        }

        /// Presentations of two layers, one per list of animations (added in order), sampled over
        /// 6 s; `model` sets both layers' model values further.
        static func samples(_ fast: [CAAnimation], _ general: [CAAnimation], model: (CALayer) -> Void = { _ in },
                            read: (CALayer) -> [Double]) -> [([Double], [Double])] {
            CAMediaClock.setManualTime(50)
            let a = CALayer(), b = CALayer()
            for l in [a, b] {
                l.position = CGPoint(x: 3, y: 4)
                l.opacity = 0.7
                model(l)
            }
            CATransaction.flush()
            for (layer, animations) in [(a, fast), (b, general)] {
                for (k, anim) in animations.enumerated() {
                    if anim.beginTime != 0 { anim.beginTime += a.convertTime(50, from: nil) }
                    layer.add(anim, forKey: "k\(k)")
                }
            }
            CATransaction.flush()
            var timesAnimated = 0, timesCompiled = 0
            let pairs = stride(from: 49.9, through: 56, by: 0.0625).map { t in
                CAMediaClock.setManualTime(t)
                let pair = (read(a.presentation()!), read(b.presentation()!))
                if a.animationKeys() != nil {
                    timesAnimated += 1
                    if a._animationsAreCompiled && !b._animationsAreCompiled { timesCompiled += 1 }
                }
                return pair
            }
            // Only the first layer ran compiled, whenever it had animations.
            #expect(timesAnimated > 0 && timesCompiled == timesAnimated)
            return pairs
        }

        /// A transform's sixteen entries, row by row.
        static func entries(_ t: CATransform3D) -> [Double] {
            [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
             t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map { Double($0) }
        }

        /// A model transform with every part set (scale, rotation about each axis, translation)
        /// and a perspective entry, which the parts' animations must keep.
        static let turnedModel: CATransform3D = {
            var t = CATransform3DMakeScale(1.5, 0.8, 1.2)
            t = CATransform3DRotate(t, 0.3, 1, 0, 0)
            t = CATransform3DRotate(t, -0.2, 0, 1, 0)
            t = CATransform3DRotate(t, 0.7, 0, 0, 1)
            t = CATransform3DTranslate(t, 12, -7, 3)
            t.m34 = -1.0 / 500
            return t
        }()

        /// The numbers among the transform's parts (Apple's Key-Value Coding Extensions), every
        /// combination of fromValue / toValue / byValue, on a model transform with every part set:
        /// both paths decompose the transform, replace the part and compose it again.
        @Test(arguments: 0..<8) func transformParts(mask: Int) {
            let keyPaths = ["transform.rotation.z", "transform.rotation", "transform.rotation.x", "transform.rotation.y",
                            "transform.scale", "transform.scale.x", "transform.scale.y", "transform.scale.z",
                            "transform.translation.x", "transform.translation.y", "transform.translation.z"]
            for keyPath in keyPaths {
                let fast = CABasicAnimation(keyPath: keyPath), general = GeneralBasic(keyPath: keyPath)
                for a in [fast, general] {
                    Self.configure(a, mask % 5)
                    if mask & 1 != 0 { a.fromValue = 0.4 }
                    if mask & 2 != 0 { a.toValue = 2.5 }
                    if mask & 4 != 0 { a.byValue = -1.1 }
                }
                let pairs = Self.samples(fast, general, model: { $0.transform = Self.turnedModel },
                                         read: { Self.entries($0.transform) })
                for (x, y) in pairs { #expect(x == y, "\(keyPath)") }
            }
        }

        /// Several animations of the transform's parts and one of the position on a layer: each
        /// part's animation starts from the transform the earlier ones left (a by-only spin from
        /// the model's rotation, then keyframed scale, then a delayed translation), the same on
        /// both paths.
        @Test func severalTransformParts() {
            func animations(general: Bool) -> [CAAnimation] {
                let spin = general ? GeneralBasic(keyPath: "transform.rotation.z") : CABasicAnimation(keyPath: "transform.rotation.z")
                spin.byValue = CGFloat.pi / 2
                spin.duration = 3
                spin.repeatCount = .infinity
                let pulse = general ? GeneralKeyframe(keyPath: "transform.scale") : CAKeyframeAnimation(keyPath: "transform.scale")
                pulse.values = [1, 1.4, 0.9, 1]
                pulse.duration = 1.2
                pulse.autoreverses = true
                let slide = general ? GeneralBasic(keyPath: "transform.translation.x") : CABasicAnimation(keyPath: "transform.translation.x")
                slide.toValue = 40
                slide.duration = 1
                slide.beginTime = 0.5   // relative to the commit time, as in `configure`
                slide.fillMode = .both
                let drift = general ? GeneralBasic(keyPath: "position") : CABasicAnimation(keyPath: "position")
                drift.byValue = CGPoint(x: 40, y: 20)
                drift.duration = 2
                return [spin, pulse, slide, drift]
            }
            let pairs = Self.samples(animations(general: false), animations(general: true),
                                     model: { $0.transform = Self.turnedModel },
                                     read: { Self.entries($0.transform) + [$0.position.x, $0.position.y] })
            for (x, y) in pairs { #expect(x == y) }
        }

        @Test(arguments: 0..<5) func basicNumbersAndPoints(variant: Int) {
            for keyPath in ["opacity", "position"] {
                let fast = CABasicAnimation(keyPath: keyPath), general = GeneralBasic(keyPath: keyPath)
                for a in [fast, general] {
                    Self.configure(a, variant)
                    if keyPath == "opacity" { a.fromValue = 0.1; a.byValue = 0.8 }
                    else { a.fromValue = CGPoint(x: -20, y: 5); a.toValue = CGPoint(x: 140, y: 90) }
                }
                for (x, y) in Self.samples(fast, general, read: { [Double($0.opacity), $0.position.x, $0.position.y] }) {
                    #expect(x == y)
                }
            }
        }

        /// Every combination of fromValue / toValue / byValue (CABasicAnimation's table), the
        /// missing ends taken from the current (model) value.
        @Test(arguments: 0..<8) func basicEndpointCombinations(mask: Int) {
            for keyPath in ["opacity", "position"] {
                let fast = CABasicAnimation(keyPath: keyPath), general = GeneralBasic(keyPath: keyPath)
                for a in [fast, general] {
                    a.duration = 1.5
                    let point = keyPath == "position"
                    if mask & 1 != 0 { a.fromValue = point ? CGPoint(x: -20, y: 5) as Any : 0.2 as Any }
                    if mask & 2 != 0 { a.toValue = point ? CGPoint(x: 140, y: 90) as Any : 0.9 as Any }
                    if mask & 4 != 0 { a.byValue = point ? CGPoint(x: 30, y: -15) as Any : -0.3 as Any }
                }
                for (x, y) in Self.samples(fast, general, read: { [Double($0.opacity), $0.position.x, $0.position.y] }) {
                    #expect(x == y)
                }
            }
        }

        @Test(arguments: 0..<5) func linearKeyframes(variant: Int) {
            for withTimes in [false, true] {
                let fast = CAKeyframeAnimation(keyPath: "position"), general = GeneralKeyframe(keyPath: "position")
                for a in [fast, general] {
                    Self.configure(a, variant)
                    a.values = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 40), CGPoint(x: 110, y: 0), CGPoint(x: 60, y: 60)]
                    if withTimes { a.keyTimes = [0, 0.1, 0.7, 1] }
                    a.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut)]
                }
                for (x, y) in Self.samples(fast, general, read: { [$0.position.x, $0.position.y] }) {
                    #expect(x == y)
                }
            }
        }

        /// Two animations of one property and one of another on a layer: the later animation of
        /// `position` overrides the earlier where both apply, and a by-only one starts from the
        /// value the earlier one left (CABasicAnimation's "current presentation value"), the same
        /// on both paths before, during, between and after the overlapping periods.
        @Test func severalAnimationsOfOneProperty() {
            func animations(general: Bool) -> [CAAnimation] {
                let path = general ? GeneralKeyframe(keyPath: "position") : CAKeyframeAnimation(keyPath: "position")
                path.values = [CGPoint(x: 0, y: 0), CGPoint(x: 50, y: 20), CGPoint(x: 10, y: 90)]
                path.duration = 2
                path.fillMode = .forwards
                path.isRemovedOnCompletion = false
                let nudge = general ? GeneralBasic(keyPath: "position") : CABasicAnimation(keyPath: "position")
                nudge.byValue = CGPoint(x: 7, y: -3)
                nudge.duration = 1
                nudge.beginTime = 0.5   // relative to the commit time, as in `configure`
                nudge.autoreverses = true
                let fade = general ? GeneralBasic(keyPath: "opacity") : CABasicAnimation(keyPath: "opacity")
                fade.toValue = 0.1
                fade.duration = 1.2
                fade.repeatCount = 2
                return [path, nudge, fade]
            }
            for (x, y) in Self.samples(animations(general: false), animations(general: true),
                                       read: { [Double($0.opacity), $0.position.x, $0.position.y] }) {
                #expect(x == y)
            }
        }

        /// Layers whose animations are equal share one compiled program and the values it last
        /// evaluated: each layer must still show its own model value where the animations do
        /// not apply (before a delayed start without fill) and its own local time where they do
        /// (a layer's time offset), whichever sibling is evaluated first at each time.
        @Test func layersSharingAnimations() {
            func animations(general: Bool, begin: CFTimeInterval) -> [CAAnimation] {
                let move = general ? GeneralBasic(keyPath: "position") : CABasicAnimation(keyPath: "position")
                move.fromValue = CGPoint(x: -20, y: 5)
                move.toValue = CGPoint(x: 140, y: 90)
                move.duration = 1.5
                move.beginTime = begin
                move.repeatCount = 2
                let fade = general ? GeneralKeyframe(keyPath: "opacity") : CAKeyframeAnimation(keyPath: "opacity")
                fade.values = [1, 0.2, 1]
                fade.keyTimes = [0, 0.3, 1]
                fade.duration = 0.8
                fade.beginTime = begin
                fade.timingFunction = CAMediaTimingFunction(name: .easeIn)
                return [move, fade]
            }
            CAMediaClock.setManualTime(50)
            let root = CALayer()
            func make() -> [CALayer] {
                (0..<5).map { i in
                    let l = CALayer()
                    l.position = CGPoint(x: Double(i), y: 2 * Double(i))
                    l.opacity = 0.1 * Float(i + 1)
                    l.timeOffset = i == 3 ? 0.4 : 0
                    root.addSublayer(l)
                    return l
                }
            }
            let shared = make(), twins = make()
            CATransaction.flush()
            let begin = root.convertTime(50, from: nil) + 0.5
            for (layers, general) in [(shared, false), (twins, true)] {
                for l in layers {
                    for (k, a) in animations(general: general, begin: begin).enumerated() { l.add(a, forKey: "k\(k)") }
                }
            }
            CATransaction.flush()
            for (step, t) in stride(from: 49.9, through: 55, by: 0.0625).enumerated() {
                CAMediaClock.setManualTime(t)
                let order = step % 2 == 0 ? Array(shared.indices) : shared.indices.reversed()
                let fast = order.map { shared[$0].presentation()! }
                for (n, i) in order.enumerated() {
                    let general = twins[i].presentation()!
                    #expect([Double(fast[n].opacity), fast[n].position.x, fast[n].position.y]
                            == [Double(general.opacity), general.position.x, general.position.y])
                }
            }
        }
    }
}
