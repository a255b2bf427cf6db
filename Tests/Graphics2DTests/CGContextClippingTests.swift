import Testing
import Graphics2D

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
