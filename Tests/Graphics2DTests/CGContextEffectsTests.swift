import Testing
import Graphics2D

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
