import Testing
import QuartzCore

/// Appearance options' defaults and raw strings, from Apple's CALayer reference
/// (cornerCurve, edgeAntialiasingMask, minification/magnificationFilter, contentsFormat).
struct LayerAppearanceTests {
    @Test func defaultsAndRawStrings() {
        let l = CALayer()
        #expect(l.cornerCurve == .circular && CALayerCornerCurve.continuous.rawValue == "continuous")
        #expect(l.edgeAntialiasingMask == [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge])
        #expect(l.minificationFilter.rawValue == "linear" && l.magnificationFilter == .linear)
        #expect(CALayerContentsFilter.nearest.rawValue == "nearest" && CALayerContentsFilter.trilinear.rawValue == "trilinear")
        #expect(l.minificationFilterBias == 0 && l.contentsFormat.rawValue == "RGBA8" && !l.drawsAsynchronously)
        #expect(l.maskedCorners.rawValue == 15 && l.contentsScale == 1 && !l.needsDisplayOnBoundsChange)
        #expect(l.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1) && l.cornerRadius == 0)
        #expect(l.shadowColor == CGColor(red: 0, green: 0, blue: 0, alpha: 1))
    }

    @Test func copiesKeepTheOptions() {
        let l = CALayer()
        l.cornerCurve = .continuous
        l.magnificationFilter = .nearest
        l.edgeAntialiasingMask = [.layerTopEdge]
        let c = CALayer(layer: l)
        #expect(c.cornerCurve == .continuous && c.magnificationFilter == .nearest && c.edgeAntialiasingMask == [.layerTopEdge])
    }

    /// The affine accessors round-trip a scale + translation; preferredFrameSize of a 100 × 50
    /// layer under scale (2, 3) is 200 × 150.
    @Test func affineTransformAndPreferredSize() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.setAffineTransform(CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 4, ty: 5))
        #expect(l.transform.m11 == 2 && l.transform.m22 == 3 && l.transform.m41 == 4 && l.transform.m42 == 5)
        #expect(l.affineTransform() == CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 4, ty: 5))
        #expect(l.preferredFrameSize() == CGSize(width: 200, height: 150))
    }
}
