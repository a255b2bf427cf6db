import Testing
import QuartzCore

/// Layer defaults, tree, geometry and key-value coding against Apple's documentation.
struct LayerModelTests {
    @Test func defaultsAreApples() {
        let l = CALayer()
        #expect(l.anchorPoint == CGPoint(x: 0.5, y: 0.5) && l.opacity == 1)
        #expect(l.shadowOffset == CGSize(width: 0, height: -3) && l.shadowRadius == 3 && l.shadowOpacity == 0)
        #expect(l.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1) && l.contentsGravity == .resize)
        // duration +∞: measured on Apple (GNUstep libs-quartzcore CAMediaTiming/timing.m).
        #expect(l.isDoubleSided && !l.masksToBounds && l.duration == .infinity)
        #expect(CATransform3DIsIdentity(l.transform))
        let s = CAShapeLayer()
        #expect(s.fillColor == CGColor(red: 0, green: 0, blue: 0, alpha: 1) && s.strokeColor == nil)
        #expect(s.lineWidth == 1 && s.miterLimit == 10 && s.lineCap == .butt && s.fillRule.rawValue == "non-zero")
        let g = CAGradientLayer()
        #expect(g.startPoint == CGPoint(x: 0.5, y: 0) && g.endPoint == CGPoint(x: 0.5, y: 1) && g.type.rawValue == "axial")
        #expect(CATextLayer().fontSize == 36)
        #expect(CAReplicatorLayer().instanceCount == 1)
    }

    @Test func frameFollowsPositionAnchorAndTransform() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
        l.position = CGPoint(x: 200, y: 100)
        #expect(l.frame == CGRect(x: 150, y: 80, width: 100, height: 40))
        l.anchorPoint = CGPoint(x: 0, y: 0)
        #expect(l.frame == CGRect(x: 200, y: 100, width: 100, height: 40))
        l.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let f = l.frame   // rotated about the top-left anchor: x ∈ [160, 200], y ∈ [100, 200]
        #expect(abs(f.minX - 160) < 1e-9 && abs(f.minY - 100) < 1e-9 && abs(f.width - 40) < 1e-9 && abs(f.height - 100) < 1e-9)
    }

    @Test func convertPointsThroughTheTree() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
        root.position = CGPoint(x: 200, y: 200)
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        child.position = CGPoint(x: 100, y: 100)
        child.transform = CATransform3DMakeScale(2, 2, 1)
        root.addSublayer(child)
        // Child (0,0) is 50 px (scaled: 100) left/up of its centre at (100, 100) → (0, 0) in root.
        #expect(child.convert(CGPoint(x: 0, y: 0), to: root) == CGPoint(x: 0, y: 0))
        #expect(child.convert(CGPoint(x: 100, y: 100), to: root) == CGPoint(x: 200, y: 200))
        #expect(child.convert(CGPoint(x: 200, y: 200), from: root) == CGPoint(x: 100, y: 100))
        #expect(root.hitTest(CGPoint(x: 150, y: 150)) === child)
        #expect(root.hitTest(CGPoint(x: 350, y: 350)) === root)
    }

    /// Overlapping siblings: the one drawn in front wins — the later sibling, unless an earlier
    /// one has a higher zPosition (Core Animation draws siblings by zPosition, then order).
    @Test func hitTestFollowsDrawingOrder() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        let back = CALayer(), front = CALayer()
        for l in [back, front] {
            l.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
            l.position = CGPoint(x: 50, y: 50)
            root.addSublayer(l)
        }
        #expect(root.hitTest(CGPoint(x: 50, y: 50)) === front)
        back.zPosition = 1
        #expect(root.hitTest(CGPoint(x: 50, y: 50)) === back)
    }

    @Test func treeOperationsAndCycles() {
        let a = CALayer(), b = CALayer(), c = CALayer()
        a.addSublayer(b)
        a.insertSublayer(c, below: b)
        #expect(a.sublayers!.map { $0 === c } == [true, false])
        b.addSublayer(a)   // would be a cycle: refused
        #expect(a.superlayer == nil && b.sublayers == nil)
        a.replaceSublayer(c, with: CALayer())
        #expect(c.superlayer == nil && a.sublayers!.count == 2)
        b.removeFromSuperlayer()
        #expect(a.sublayers!.count == 1)
    }

    @Test func keyValueCodingOfKeyPaths() {
        let l = CALayer()
        l.setValue(CGPoint(x: 3, y: 4), forKey: "position")
        #expect(l.value(forKeyPath: "position.y") as? CGFloat == 4)
        l.setValue(12, forKeyPath: "bounds.size.width")
        #expect(l.bounds.width == 12)
        l.setValue(CGFloat.pi / 2, forKeyPath: "transform.rotation.z")
        #expect(abs((l.value(forKeyPath: "transform.rotation") as! CGFloat) - .pi / 2) < 1e-12)
        l.setValue(2, forKeyPath: "transform.scale")
        #expect(abs((l.value(forKeyPath: "transform.scale.x") as! CGFloat) - 2) < 1e-12)
        #expect(abs((l.value(forKeyPath: "transform.rotation.z") as! CGFloat) - .pi / 2) < 1e-12)
        l.setValue(NSNumber(value: 0.5), forKey: "opacity")
        #expect(l.opacity == 0.5)
        l.setValue("anything", forKey: "myOwnKey")
        #expect(l.value(forKey: "myOwnKey") as? String == "anything")
        #expect(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint == CGPoint(x: 0.5, y: 0.5))
    }
}
