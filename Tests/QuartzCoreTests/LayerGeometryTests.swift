import Testing
import QuartzCore

/// Frame setting through transforms, rect conversion, tree insertion, copying and the layout /
/// display delegate calls, against Apple's documentation and closed-form geometry.
struct LayerGeometryTests {
    /// Apple: `frame` is the bounding box of the transformed bounds; setting it sets the bounds
    /// size and the position. With scale 2 a 200 × 100 frame needs 100 × 50 bounds.
    @Test func settingFrameUnderAScaleTransform() {
        let l = CALayer()
        l.transform = CATransform3DMakeScale(2, 2, 1)
        l.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        #expect(l.bounds.size == CGSize(width: 100, height: 50))
        #expect(l.position == CGPoint(x: 100, y: 50))
        #expect(l.frame == CGRect(x: 0, y: 0, width: 200, height: 100))
    }

    /// A quarter turn swaps the box's sides: a 40 × 100 frame needs 100 × 40 bounds, centred at
    /// the frame's centre (30, 70) with the default anchor.
    @Test func settingFrameUnderAQuarterTurn() {
        let l = CALayer()
        l.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        l.frame = CGRect(x: 10, y: 20, width: 40, height: 100)
        #expect(abs(l.bounds.width - 100) < 1e-9 && abs(l.bounds.height - 40) < 1e-9)
        #expect(abs(l.position.x - 30) < 1e-9 && abs(l.position.y - 70) < 1e-9)
    }

    /// Apple derives `frame` from the layer's own bounds, anchorPoint, position and transform;
    /// the superlayer's sublayerTransform moves what is drawn, not the frame.
    @Test func frameIgnoresTheSuperlayersSublayerTransform() {
        let parent = CALayer(), child = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        parent.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        parent.addSublayer(child)
        child.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        #expect(child.frame == CGRect(x: 10, y: 10, width: 20, height: 20))
        #expect(child.bounds.size == CGSize(width: 20, height: 20) && child.position == CGPoint(x: 20, y: 20))
    }

    @Test func convertRectsBetweenSiblings() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 300, height: 300)
        let a = CALayer(), b = CALayer()
        a.frame = CGRect(x: 10, y: 20, width: 50, height: 50)
        b.frame = CGRect(x: 100, y: 100, width: 50, height: 50)
        b.bounds.origin = CGPoint(x: 5, y: 5)   // shifts b's coordinate system by (5, 5)
        root.addSublayer(a)
        root.addSublayer(b)
        // a's (0,0) is root's (10,20), which is b's (10−100+5, 20−100+5) = (−85, −75).
        let r = a.convert(CGRect(x: 0, y: 0, width: 10, height: 10), to: b)
        #expect(r == CGRect(x: -85, y: -75, width: 10, height: 10))
        #expect(b.convert(r, to: a) == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(a.contains(CGPoint(x: 49, y: 49)) && !a.contains(CGPoint(x: 51, y: 0)))
    }

    @Test func insertAtIndexAboveAndMovesWithinTheSameParent() {
        let p = CALayer(), x = CALayer(), y = CALayer(), z = CALayer()
        p.addSublayer(x)
        p.addSublayer(y)
        p.insertSublayer(z, at: 0)
        #expect(p.sublayers!.map(ObjectIdentifier.init) == [z, x, y].map(ObjectIdentifier.init))
        p.insertSublayer(z, above: y)     // moving, not duplicating
        #expect(p.sublayers!.map(ObjectIdentifier.init) == [x, y, z].map(ObjectIdentifier.init))
        let other = CALayer()
        other.addSublayer(x)              // re-parenting removes it from p
        #expect(x.superlayer === other && p.sublayers!.count == 2)
        p.addSublayer(p)                  // a layer cannot contain itself
        #expect(p.superlayer == nil && p.sublayers!.count == 2)
    }

    @Test func initWithLayerCopiesTheProperties() {
        let l = CAShapeLayer()
        l.position = CGPoint(x: 7, y: 8)
        l.opacity = 0.25
        l.lineWidth = 4
        l.name = "petal"
        let c = CAShapeLayer(layer: l)
        #expect(c.position == CGPoint(x: 7, y: 8) && c.opacity == 0.25 && c.lineWidth == 4 && c.name == "petal")
        #expect(c.superlayer == nil && c.model() === c)
    }

    final class Recorder: CALayerDelegate {
        var calls: [String] = []
        func display(_ layer: CALayer) { calls.append("display") }
        func layoutSublayers(of layer: CALayer) { calls.append("layout") }
    }

    /// Apple: `layoutIfNeeded` lays out when `setNeedsLayout` was called, `display()` asks the
    /// delegate's `display(_:)`; the delegate is weak.
    @Test func layoutAndDisplayGoThroughTheDelegate() {
        let r = Recorder()
        let l = CALayer()
        l.delegate = r
        l.layoutIfNeeded()
        #expect(r.calls.isEmpty)
        l.setNeedsLayout()
        #expect(l.needsLayout())
        l.layoutIfNeeded()
        #expect(r.calls == ["layout"] && !l.needsLayout())
        l.setNeedsDisplay()
        l.displayIfNeeded()
        l.displayIfNeeded()
        #expect(r.calls == ["layout", "display"])
        weak var gone: Recorder?
        do { let t = Recorder(); gone = t; l.delegate = t }
        #expect(gone == nil && l.delegate == nil)
    }

    /// Apple (`layoutIfNeeded`): "If the receiver or any of its sublayers are marked as needing
    /// layout, lays them out", each layer before its sublayers. A mark deep in the tree is found
    /// from the root; a layer moved in with a marked subtree is laid out with it (Apple: changing
    /// the sublayers marks the superlayer); layers not marked are not laid out.
    @Test func layoutFindsMarkedLayersAnywhereBelow() {
        final class Names: CALayerDelegate {
            var laidOut: [String] = []
            func layoutSublayers(of layer: CALayer) { laidOut.append(layer.name ?? "?") }
        }
        let names = Names()
        func layer(_ name: String, in parent: CALayer?) -> CALayer {
            let l = CALayer()
            l.name = name
            l.delegate = names
            parent?.addSublayer(l)
            return l
        }
        let root = layer("root", in: nil), a = layer("a", in: root), b = layer("b", in: a), c = layer("c", in: b)
        let d = layer("d", in: root)
        root.layoutIfNeeded()
        #expect(names.laidOut == ["root", "a", "b"])   // each marked by its sublayer's arrival
        names.laidOut = []
        root.layoutIfNeeded()
        #expect(names.laidOut.isEmpty)
        c.setNeedsLayout()
        root.layoutIfNeeded()
        #expect(names.laidOut == ["c"])
        names.laidOut = []
        let e = layer("e", in: nil), f = layer("f", in: e)
        e.layoutIfNeeded()   // e was marked when f arrived
        f.setNeedsLayout()
        d.addSublayer(e)
        c.setNeedsLayout()
        names.laidOut = []
        root.layoutIfNeeded()
        #expect(names.laidOut == ["c", "d", "f"])
        #expect(![root, a, b, c, d, e, f].contains { $0.needsLayout() })
    }

    /// Apple: with needsDisplayOnBoundsChange, a bounds size change marks the layer for display;
    /// any size change marks it for layout.
    @Test func boundsChangesMarkDisplayAndLayout() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(!l.needsDisplay() && l.needsLayout())
        l.needsDisplayOnBoundsChange = true
        l.bounds.origin = CGPoint(x: 5, y: 5)
        #expect(!l.needsDisplay())
        l.bounds.size = CGSize(width: 20, height: 10)
        #expect(l.needsDisplay())
    }

    /// Apple's Core Animation Programming Guide (Key-Value Coding Extensions, table C-2):
    /// "transform.scale" is the average of all three scale factors; setting it scales all three.
    @Test func transformScaleIsTheAverageOfThreeFactors() {
        let l = CALayer()
        l.transform = CATransform3DMakeScale(2, 4, 3)
        #expect(abs((l.value(forKeyPath: "transform.scale") as! CGFloat) - 3) < 1e-12)
        l.setValue(0.5, forKeyPath: "transform.scale")
        #expect(abs(l.transform.m11 - 0.5) < 1e-12 && abs(l.transform.m22 - 0.5) < 1e-12 && abs(l.transform.m33 - 0.5) < 1e-12)
    }

    @Test func keyValueCodingOfSubKeyPathsAndNSValues() {
        let l = CALayer()
        l.setValue(NSNumber(value: 30), forKeyPath: "position.x")
        l.setValue(5, forKeyPath: "shadowOffset.height")
        l.setValue(3, forKeyPath: "bounds.origin.x")
        l.setValue(10, forKeyPath: "transform.translation.y")
        #expect(l.position.x == 30 && l.shadowOffset == CGSize(width: 0, height: 5) && l.bounds.minX == 3)
        #expect(l.transform.m42 == 10)
        #expect(l.value(forKeyPath: "transform.translation.y") as? CGFloat == 10)
        #expect(CALayer.defaultValue(forKey: "shadowOpacity") as? Float == 0)
        #expect(CALayer.defaultValue(forKey: "cornerRadius") as? CGFloat == 0)
    }
}
