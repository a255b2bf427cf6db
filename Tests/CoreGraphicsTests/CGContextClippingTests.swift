import Testing
import CoreGraphics

// Expected values: Apple's clipping semantics (clips intersect, are saved with the graphics
// state, `resetClip` removes them) with pixel-aligned geometry.

@Test func rectClipLimitsDrawing() {
    let context = makeBitmapContext()
    context.clip(to: CGRect(x: 0, y: 0, width: 50, height: 100))
    context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.fill(CGRect(x: 0, y: 0, width: 100, height: 100))
    #expect(pixel(context, x: 25, row: 50) == opaqueRed)
    #expect(pixel(context, x: 75, row: 50) == transparent)
    #expect(context.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 50, height: 100))
}

@Test func clipsIntersectAndRestore() {
    let context = makeBitmapContext()
    context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.saveGState()
    context.clip(to: CGRect(x: 0, y: 0, width: 50, height: 100))
    context.clip(to: CGRect(x: 0, y: 0, width: 100, height: 50))  // bottom-left quarter remains
    context.fill(CGRect(x: 0, y: 0, width: 100, height: 100))
    #expect(pixel(context, x: 25, row: 75) == opaqueRed)
    #expect(pixel(context, x: 25, row: 25) == transparent)
    #expect(pixel(context, x: 75, row: 75) == transparent)
    context.restoreGState()
    context.fill(CGRect(x: 60, y: 60, width: 10, height: 10))
    #expect(pixel(context, x: 65, row: 35) == opaqueRed)
}

@Test func pathClipWithEvenOddAndReset() {
    let context = makeBitmapContext()
    context.addRect(CGRect(x: 0, y: 0, width: 100, height: 100))
    context.addRect(CGRect(x: 25, y: 25, width: 50, height: 50))
    context.clip(using: .evenOdd)
    #expect(context.isPathEmpty)
    context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.fill(CGRect(x: 0, y: 0, width: 100, height: 100))
    #expect(pixel(context, x: 50, row: 50) == transparent)
    #expect(pixel(context, x: 10, row: 50) == opaqueRed)
    context.resetClip()
    context.fill(CGRect(x: 0, y: 0, width: 100, height: 100))
    #expect(pixel(context, x: 50, row: 50) == opaqueRed)
}

@Test func ellipseClipIsAntialiased() {
    let context = makeBitmapContext()
    context.addEllipse(in: CGRect(x: 0, y: 0, width: 100, height: 100))
    context.clip()
    context.setFillColor(gray: 0, alpha: 1)
    context.fill(CGRect(x: 0, y: 0, width: 100, height: 100))
    #expect(pixel(context, x: 50, row: 50)[3] == 255)
    #expect(pixel(context, x: 2, row: 2)[3] == 0)
    // Pixel x ∈ [14, 15], y ∈ [14, 15] (memory row 85) straddles the circle at 225°. Its
    // centre is 35.5·√2 − 50 = 0.2046 outside; treating the arc as a straight 45° edge, the
    // covered part is the corner triangle u + v ≥ 1 + 0.2046·√2 of the pixel, legs 0.711,
    // area 0.253 → alpha 64.5 (numerical integration of the disc over the pixel: 64.2).
    // Tolerance 14: the pixel engine flattens curves to chords within 0.05 px, which lie
    // inside the arc, so a 1-px crossing can lose up to 0.05·255 ≈ 13 of coverage.
    let edge = pixel(context, x: 14, row: 85)[3]
    #expect(abs(edge - 64) <= 14)
}
