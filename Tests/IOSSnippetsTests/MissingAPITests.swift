import Foundation
import QuartzCore
import Testing

extension SnippetSuite {
    /// Item 4: the API of Snippets/MissingAPI.swift behaves as Apple documents it.
    @Suite struct MissingAPITests {
        @Test func nsValueBoxesRoundTripAndAnimate() throws {
            let t = CATransform3DMakeRotation(0.5, 0, 0, 1)
            #expect(NSValue(cgPoint: CGPoint(x: 1, y: 2)).cgPointValue == CGPoint(x: 1, y: 2))
            #expect(NSValue(cgSize: CGSize(width: 3, height: 4)).cgSizeValue == CGSize(width: 3, height: 4))
            #expect(NSValue(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4)).cgRectValue == CGRect(x: 1, y: 2, width: 3, height: 4))
            #expect(NSValue(caTransform3D: t).caTransform3DValue == t)
            #expect(NSValue(caTransform3D: t) == NSValue(caTransform3D: t))
            #expect(NSValue(cgPoint: .zero).caTransform3DValue == CATransform3DIdentity)

            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            CATransaction.flush()
            nsValueAnimations(on: layer)
            CATransaction.flush()
            CAMediaClock.setManualTime(0.5)
            let p = try #require(layer.presentation())
            #expect(p.position == CGPoint(x: 50, y: 25))
            // Halfway from the identity to a rotation of π about z: π/2.
            let angle = try #require(p.value(forKeyPath: "transform.rotation.z") as? CGFloat)
            #expect(abs(angle - .pi / 2) < 1e-9)
            let spin = readBoxedValues(try #require(layer.animation(forKey: "spin") as? CABasicAnimation))
            #expect(spin.0 == .zero && spin.1 == CATransform3DMakeRotation(.pi, 0, 0, 1))   // not a point: .zero
            let move = readBoxedValues(try #require(layer.animation(forKey: "move") as? CABasicAnimation))
            #expect(move.0 == .zero && move.1 == CATransform3DIdentity)   // from (0, 0); not a transform
        }

        /// C's values: HUGE_VALF is +∞, MAXFLOAT is FLT_MAX (float.h: 3.40282347e+38F).
        @Test func repeatForeverConstants() {
            #expect(HUGE_VALF == .infinity)
            #expect(MAXFLOAT == 3.40282347e+38)
            #expect(MAXFLOAT == Float.greatestFiniteMagnitude)
        }

        @Test func frameRateRanges() {
            #expect(frameRates())
            #expect(CAFrameRateRangeDefault == CAFrameRateRange(minimum: 0, maximum: 0, preferred: nil))
            #expect(!CAFrameRateRangeIsEqualToRange(CAFrameRateRangeMake(30, 60, 60), CAFrameRateRangeMake(30, 60, 30)))
            let copied = CABasicAnimation()
            copied.preferredFrameRateRange = CAFrameRateRange(minimum: 10, maximum: 20, preferred: 15)
            #expect((copied.copy() as? CABasicAnimation)?.preferredFrameRateRange.preferred == 15)
        }

        /// Apple's SwiftUI `Spring(duration: 0.5, bounce: 0.3)` documentation: stiffness 157.9,
        /// damping 17.6 (mass 1); the perceptual properties read back what was given.
        @Test func perceptualSpringParameters() {
            let spring = perceptualSpring()
            #expect(abs(spring.stiffness - 157.91) < 0.01 && abs(spring.damping - 17.59) < 0.01)
            #expect(abs(spring.perceptualDuration - 0.5) < 1e-9 && abs(spring.bounce - 0.3) < 1e-9)
            let over = CASpringAnimation(perceptualDuration: 1, bounce: -0.5)
            #expect(abs(over.bounce + 0.5) < 1e-9 && abs(over.perceptualDuration - 1) < 1e-9)
            // The defaults (mass 1, stiffness 100, damping 10): period 2π/10, ζ = 0.5.
            let plain = CASpringAnimation()
            #expect(abs(plain.perceptualDuration - 2 * .pi / 10) < 1e-12 && abs(plain.bounce - 0.5) < 1e-12)
            #expect(plain.value(forKey: "bounce") as? CGFloat == plain.bounce)
        }

        @Test func completionBlockTakesAnOrdinaryClosure() {
            CAMediaClock.setManualTime(0)
            let controller = FadeController()
            controller.fadeOut()
            CAMediaClock.setManualTime(0.3)
            CATransaction.flush()
            #expect(controller.finished == 0)
            CAMediaClock.setManualTime(0.6)
            CATransaction.flush()
            #expect(controller.finished == 1)
        }

        @Test func everyPropertyIsReachableByKey() throws {
            let shape = CAShapeLayer()
            #expect(keyValueCoding(shape: shape) as? String == "round")
            #expect(shape.lineCap == .round && shape.lineJoin == .bevel && shape.strokeEnd == 0.5)
            #expect(shape.lineDashPattern == [4, 2])
            #expect(shape.value(forKey: "fillRule") as? String == "non-zero")

            let layer = CALayer()
            let flags = ["opaque", "geometryFlipped", "shouldRasterize", "drawsAsynchronously",
                         "allowsEdgeAntialiasing", "needsDisplayOnBoundsChange", "autoreverses"]
            for key in flags {
                layer.setValue(true, forKey: key)
                #expect(layer.value(forKey: key) as? Bool == true, "\(key)")
            }
            layer.setValue("continuous", forKey: "cornerCurve")
            layer.setValue("center", forKey: "contentsGravity")
            layer.setValue("forwards", forKey: "fillMode")
            layer.setValue("badge", forKey: "name")
            layer.setValue(3, forKey: "maskedCorners")
            layer.setValue(2.5, forKey: "repeatCount")
            #expect(layer.cornerCurve == .continuous && layer.contentsGravity == .center && layer.fillMode == .forwards)
            #expect(layer.name == "badge" && layer.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMinYCorner])
            #expect(layer.repeatCount == 2.5 && layer.isOpaque && layer.isGeometryFlipped)

            let animation = CAKeyframeAnimation(keyPath: "position")
            animation.setValue("paced", forKey: "calculationMode")
            animation.setValue(false, forKey: "removedOnCompletion")
            animation.setValue("both", forKey: "fillMode")
            animation.setValue(NSNumber(value: 2), forKey: "speed")
            animation.setValue([0, 0.5, 1], forKey: "keyTimes")
            #expect(animation.calculationMode == .paced && !animation.isRemovedOnCompletion)
            #expect(animation.fillMode == .both && animation.speed == 2 && animation.keyTimes?.count == 3)
            #expect(animation.value(forKey: "calculationMode") as? String == "paced")
            #expect(animation.value(forKey: "removedOnCompletion") as? Bool == false)
            #expect(animation.value(forKey: "tag") == nil)
            animation.setValue("x", forKey: "tag")
            #expect(animation.value(forKey: "tag") as? String == "x")
        }

        /// Every property CALayer.h declares (CAMediaTiming's included) is reached by its key:
        /// `setValue(_:forKey:)` sets the typed property, `value(forKey:)` reads it back.
        @Test func everyPropertyOfCALayerIsReachableByKey() throws {
            let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let path = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
            let scale = CATransform3DMakeScale(2, 2, 1)
            let sub = CALayer(), mask = CALayer(), delegate = FadeObserver(), image = try #require(confettiImage())
            let cases: [(String, Any, (CALayer) -> Bool)] = [
                ("bounds", CGRect(x: 0, y: 0, width: 10, height: 20), { $0.bounds.height == 20 }),
                ("position", CGPoint(x: 3, y: 4), { $0.position == CGPoint(x: 3, y: 4) }),
                ("frame", CGRect(x: 1, y: 2, width: 30, height: 40), { $0.frame == CGRect(x: 1, y: 2, width: 30, height: 40) }),
                ("zPosition", 2.0, { $0.zPosition == 2 }),
                ("anchorPoint", CGPoint(x: 0, y: 1), { $0.anchorPoint == CGPoint(x: 0, y: 1) }),
                ("anchorPointZ", 1.5, { $0.anchorPointZ == 1.5 }),
                ("transform", NSValue(caTransform3D: scale), { CATransform3DEqualToTransform($0.transform, scale) }),
                ("sublayerTransform", NSValue(caTransform3D: scale), { CATransform3DEqualToTransform($0.sublayerTransform, scale) }),
                ("hidden", true, { $0.isHidden }),
                ("doubleSided", false, { !$0.isDoubleSided }),
                ("geometryFlipped", true, { $0.isGeometryFlipped }),
                ("sublayers", [sub], { $0.sublayers?.first === sub && sub.superlayer === $0 }),
                ("mask", mask, { $0.mask === mask }),
                ("masksToBounds", true, { $0.masksToBounds }),
                ("contents", image, { $0.contents as? CGImage === image }),
                ("contentsRect", CGRect(x: 0, y: 0, width: 0.5, height: 1), { $0.contentsRect.width == 0.5 }),
                ("contentsGravity", "center", { $0.contentsGravity == .center }),
                ("contentsScale", 2.0, { $0.contentsScale == 2 }),
                ("contentsCenter", CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5), { $0.contentsCenter.minX == 0.25 }),
                ("contentsFormat", "RGBAh", { $0.contentsFormat == .RGBA16Float }),   // kCAContentsFormatRGBA16Float
                ("minificationFilter", "nearest", { $0.minificationFilter == .nearest }),
                ("magnificationFilter", "trilinear", { $0.magnificationFilter == .trilinear }),
                ("minificationFilterBias", 0.5, { $0.minificationFilterBias == 0.5 }),
                ("opaque", true, { $0.isOpaque }),
                ("needsDisplayOnBoundsChange", true, { $0.needsDisplayOnBoundsChange }),
                ("drawsAsynchronously", true, { $0.drawsAsynchronously }),
                ("edgeAntialiasingMask", 1, { $0.edgeAntialiasingMask == .layerLeftEdge }),
                ("allowsEdgeAntialiasing", false, { !$0.allowsEdgeAntialiasing }),
                ("backgroundColor", red, { $0.backgroundColor == red }),
                ("cornerRadius", 6.0, { $0.cornerRadius == 6 }),
                ("maskedCorners", 2, { $0.maskedCorners == .layerMaxXMinYCorner }),
                ("cornerCurve", "continuous", { $0.cornerCurve == .continuous }),
                ("borderWidth", 2.0, { $0.borderWidth == 2 }),
                ("borderColor", red, { $0.borderColor == red }),
                ("opacity", 0.5, { $0.opacity == 0.5 }),
                ("allowsGroupOpacity", false, { !$0.allowsGroupOpacity }),
                ("compositingFilter", "multiplyBlendMode", { $0.compositingFilter as? String == "multiplyBlendMode" }),
                ("filters", [CAFilter(type: "gaussianBlur")], { $0.filters?.count == 1 }),
                ("backgroundFilters", [CAFilter(type: "gaussianBlur")], { $0.backgroundFilters?.count == 1 }),
                ("shouldRasterize", true, { $0.shouldRasterize }),
                ("rasterizationScale", 2.0, { $0.rasterizationScale == 2 }),
                ("shadowColor", red, { $0.shadowColor == red }),
                ("shadowOpacity", 0.75, { $0.shadowOpacity == 0.75 }),
                ("shadowOffset", CGSize(width: 1, height: 2), { $0.shadowOffset == CGSize(width: 1, height: 2) }),
                ("shadowRadius", 5.0, { $0.shadowRadius == 5 }),
                ("shadowPath", path, { $0.shadowPath == path }),
                ("actions", ["position": NSNull()] as [String: CAAction], { $0.actions?["position"] is NSNull }),
                ("name", "ring", { $0.name == "ring" }),
                ("delegate", delegate, { $0.delegate === delegate }),
                ("style", ["tag": 1] as [AnyHashable: Any], { $0.style?["tag"] as? Int == 1 }),
                ("beginTime", 1.5, { $0.beginTime == 1.5 }),
                ("duration", 3.0, { $0.duration == 3 }),
                ("speed", 2.0, { $0.speed == 2 }),
                ("timeOffset", 0.25, { $0.timeOffset == 0.25 }),
                ("repeatCount", 4.0, { $0.repeatCount == 4 }),
                ("repeatDuration", 6.0, { $0.repeatDuration == 6 }),
                ("autoreverses", true, { $0.autoreverses }),
                ("fillMode", "both", { $0.fillMode == .both }),
            ]
            for (key, value, check) in cases {
                let layer = CALayer()
                layer.setValue(value, forKey: key)
                #expect(check(layer), "\(key)")
                #expect(layer.value(forKey: key) != nil, "\(key)")
            }
        }

        @Test func delegatesMayBeNSObjects() throws {
            CAMediaClock.setManualTime(0)
            let observer = FadeObserver()
            let layer = CALayer()
            layer.delegate = observer
            CATransaction.flush()
            observer.fadeOut(layer, duration: 0.5)
            CAMediaClock.setManualTime(0.6)
            CATransaction.flush()
            #expect(observer.stops == 1 && observer.completions == 1 && layer.delegate === observer)
        }

        @Test func copiesOfAnimationsAndPaths() throws {
            let animation = CABasicAnimation(keyPath: "opacity")
            animation.toValue = 0.5
            animation.duration = 2
            let path = CGMutablePath()
            path.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
            let (copy, mutable, pathCopy, mutablePath) = copies(animation, path)
            #expect(copy !== animation && copy.keyPath == "opacity" && copy.toValue as? Double == 0.5 && copy.duration == 2)
            mutable.duration = 3
            #expect(animation.duration == 2 && mutable.duration == 3)
            #expect(pathCopy == path && mutablePath == path)
            mutablePath?.addLine(to: CGPoint(x: 20, y: 20))
            #expect(mutablePath != path)
        }
    }
}
