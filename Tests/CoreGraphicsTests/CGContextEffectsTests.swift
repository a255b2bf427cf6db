import Testing
import CoreGraphics

// Expected values: Apple's documented shadow (base-space offset, y up) and transparency-layer
// semantics (the layer is composited once with the alpha in effect at begin).

@Test func unblurredShadowIsOffsetInBaseSpace() {
    let context = makeBitmapContext()
    context.setShadow(offset: CGSize(width: 10, height: -10), blur: 0,
                      color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
    context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.fill(CGRect(x: 40, y: 40, width: 20, height: 20))
    // Shape: user x, y ∈ [40, 60]; shadow: x ∈ [50, 70], y ∈ [30, 50].
    #expect(pixel(context, x: 45, row: 100 - 45) == opaqueRed)
    #expect(pixel(context, x: 65, row: 100 - 35) == [0, 0, 255, 255])
    #expect(pixel(context, x: 55, row: 100 - 55) == opaqueRed)  // shape over its shadow
    #expect(pixel(context, x: 45, row: 100 - 35) == transparent)
    context.setShadow(offset: .zero, blur: 0, color: nil)
    context.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
    #expect(pixel(context, x: 7, row: 97) == transparent)
}

@Test func transparencyLayerCompositesOnce() {
    let context = makeBitmapContext(width: 20, height: 10)
    context.setAlpha(0.5)
    context.beginTransparencyLayer(auxiliaryInfo: nil)
    context.setFillColor(gray: 1, alpha: 1)
    context.fill(CGRect(x: 0, y: 0, width: 15, height: 10))
    context.fill(CGRect(x: 5, y: 0, width: 15, height: 10))
    context.endTransparencyLayer()
    // Without the layer the overlap would be 1 − ½·½ = ¾ opaque; with it, ½ everywhere.
    #expect(isClose(pixel(context, x: 10, row: 5), [128, 128, 128, 128]))
    #expect(isClose(pixel(context, x: 2, row: 5), [128, 128, 128, 128]))
}

@Test func blurredShadowFollowsTheGaussianEdgeProfile() {
    // Blur 8 → σ = 4 (the documented mapping σ = blur/2). Outside a straight edge of an opaque
    // shape, a Gaussian-blurred shadow has alpha ½·erfc(d / (σ√2)) at distance d.
    let context = makeBitmapContext()
    context.setShadow(offset: .zero, blur: 8, color: CGColor(gray: 0, alpha: 1))
    context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.fill(CGRect(x: 30, y: 30, width: 40, height: 40))
    for (x, d) in [(70, 0.5), (72, 2.5), (74, 4.5), (77, 7.5)] {
        let expected = 255 * 0.5 * erfc(d / (4 * 2.0.squareRoot()))
        let alpha = pixel(context, x: x, row: 50)[3]
        #expect(abs(Double(alpha) - expected) <= 3, "x = \(x): \(alpha) vs \(expected)")
    }
    #expect(pixel(context, x: 50, row: 50) == opaqueRed)
}

@Test func transparencyLayerCastsOneShadowThroughTheClip() {
    // Apple's example use of transparency layers: overlapping shapes get one combined shadow.
    let context = makeBitmapContext()
    context.clip(to: CGRect(x: 0, y: 0, width: 90, height: 100))
    context.setShadow(offset: CGSize(width: 10, height: -10), blur: 0, color: CGColor(gray: 0, alpha: 0.5))
    context.beginTransparencyLayer(auxiliaryInfo: nil)
    context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.fill(CGRect(x: 20, y: 40, width: 40, height: 20))
    context.fill(CGRect(x: 40, y: 40, width: 40, height: 20))
    context.endTransparencyLayer()
    // Shadow at x ∈ [30, 90], y ∈ [30, 50]; where the two shapes overlap it is still ½ alpha.
    #expect(isClose(pixel(context, x: 55, row: 100 - 35), [0, 0, 0, 128]))
    #expect(isClose(pixel(context, x: 85, row: 100 - 35), [0, 0, 0, 128]))
    #expect(pixel(context, x: 50, row: 100 - 45) == opaqueRed)
    #expect(pixel(context, x: 92, row: 100 - 35) == transparent)  // clipped away (x ≥ 90)
}

/// A dashed stroke with a shadow is drawn dash by dash for the shadow too (it was
/// built as one outline). Butt dashes [1, 1] of width 4 along y = 70 from x = 30 to 170 are 70
/// pixel-aligned 1 × 4 squares, 280 px² (closed form); the shadow, 40 points lower in base space
/// and unblurred, is the unshadowed stroke moved by that offset, pixel for pixel; blurred
/// (blur 6, σ = 3), it keeps its alpha mass, 280 · α.
@Test func dashedStrokeShadowIsTheStrokeMovedByItsOffset() {
    func stroke(_ context: CGContext) {
        context.setStrokeColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.setLineWidth(4)
        context.setLineDash(phase: 0, lengths: [1, 1])
        context.move(to: CGPoint(x: 30, y: 70))
        context.addLine(to: CGPoint(x: 170, y: 70))
        context.strokePath()
    }
    /// Σ channel / 255 over the rows `rows` (memory order).
    func sum(_ context: CGContext, rows: Range<Int>, channel: Int) -> Double {
        rows.reduce(0.0) { total, row in (0..<200).reduce(total) { $0 + Double(pixel(context, x: $1, row: row)[channel]) } } / 255
    }
    let plain = makeBitmapContext(width: 200, height: 100)
    stroke(plain)
    let shadowed = makeBitmapContext(width: 200, height: 100)
    shadowed.setShadow(offset: CGSize(width: 0, height: -40), blur: 0, color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
    stroke(shadowed)
    #expect(abs(sum(plain, rows: 0..<100, channel: 3) - 280) < 0.5)
    // The stroke covers rows 28…31 (y up: row = 100 − y), its shadow rows 68…71.
    var mismatches = 0
    for row in 0..<50 {
        for x in 0..<200 {
            let shape = pixel(plain, x: x, row: row)
            if pixel(shadowed, x: x, row: row) != shape { mismatches += 1 }
            if pixel(shadowed, x: x, row: row + 40) != [0, 0, shape[3], shape[3]] { mismatches += 1 }
        }
    }
    #expect(mismatches == 0)

    let blurred = makeBitmapContext(width: 200, height: 100)
    blurred.setShadow(offset: CGSize(width: 0, height: -40), blur: 6, color: CGColor(red: 0, green: 0, blue: 1, alpha: 0.5))
    stroke(blurred)
    #expect(abs(sum(blurred, rows: 50..<100, channel: 3) - 280 * 0.5) < 2)
    #expect(abs(sum(blurred, rows: 0..<50, channel: 0) - 280) < 0.5)
}
