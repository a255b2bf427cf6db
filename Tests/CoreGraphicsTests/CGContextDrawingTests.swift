import Testing
import CoreGraphics
import Raster

// Expected values: Apple's bitmap-context coordinate convention (origin bottom-left, y up;
// row 0 of memory is the top of the image), exact coverage of pixel-aligned shapes, and
// 8-bit premultiplication (255·½ → 128 rounded).

@Test func fillingTheOriginRectColoursTheBottomLeftCorner() throws {
    let context = makeBitmapContext()
    context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
    #expect(pixel(context, x: 0, row: 99) == opaqueRed)
    #expect(pixel(context, x: 9, row: 90) == opaqueRed)
    #expect(pixel(context, x: 9, row: 89) == transparent)
    #expect(pixel(context, x: 10, row: 95) == transparent)
    #expect(pixel(context, x: 0, row: 0) == transparent)
    let image = try #require(context.makeImage())
    #expect(image.pixmap.pixel(x: 0, y: 99) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
    #expect(image.pixmap.pixel(x: 0, y: 0) == .transparent)
}

@Test func flippedCTMDrawsFromTheTop() throws {
    let context = makeBitmapContext()
    context.translateBy(x: 0, y: 100)
    context.scaleBy(x: 1, y: -1)
    context.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
    #expect(pixel(context, x: 0, row: 0) == opaqueRed)
    #expect(pixel(context, x: 9, row: 9) == opaqueRed)
    #expect(pixel(context, x: 0, row: 10) == transparent)
    let topLeft = CGContext(pixmap: try Pixmap(width: 20, height: 20), origin: .topLeft)
    topLeft.setFillColor(gray: 1, alpha: 1)
    topLeft.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
    #expect(topLeft.pixmap.pixel(x: 4, y: 4) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
    #expect(topLeft.pixmap.pixel(x: 4, y: 5) == .transparent)
}

@Test func globalAlphaPremultiplies() {
    let context = makeBitmapContext(width: 4, height: 4)
    context.setAlpha(0.5)
    context.setFillColor(gray: 1, alpha: 1)
    context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
    #expect(isClose(pixel(context, x: 1, row: 1), [128, 128, 128, 128]))
}

@Test func pathFillAndEllipse() {
    let context = makeBitmapContext()
    context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.fillEllipse(in: CGRect(x: 0, y: 0, width: 100, height: 100))
    #expect(pixel(context, x: 50, row: 50) == opaqueRed)
    #expect(pixel(context, x: 1, row: 1) == transparent)
    let even = makeBitmapContext()
    even.addRect(CGRect(x: 0, y: 0, width: 100, height: 100))
    even.addRect(CGRect(x: 25, y: 25, width: 50, height: 50))
    even.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    even.fillPath(using: .evenOdd)
    #expect(even.isPathEmpty)
    #expect(pixel(even, x: 50, row: 50) == transparent)
    #expect(pixel(even, x: 10, row: 10) == opaqueRed)
}

@Test func strokeWidthAndDashes() {
    let context = makeBitmapContext()
    context.setStrokeColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.setLineWidth(4)
    context.move(to: CGPoint(x: 10, y: 50))
    context.addLine(to: CGPoint(x: 90, y: 50))
    context.strokePath()
    // y ∈ [48, 52] in user space = rows 48…51 of memory (row = 100 − y).
    #expect(pixel(context, x: 50, row: 48) == opaqueRed && pixel(context, x: 50, row: 51) == opaqueRed)
    #expect(pixel(context, x: 50, row: 47) == transparent && pixel(context, x: 50, row: 52) == transparent)
    #expect(pixel(context, x: 9, row: 50) == transparent)  // butt cap ends at x = 10

    let dashed = makeBitmapContext()
    dashed.setStrokeColor(red: 1, green: 0, blue: 0, alpha: 1)
    dashed.setLineWidth(2)
    dashed.setLineDash(phase: 0, lengths: [10, 10])
    dashed.move(to: CGPoint(x: 0, y: 50))
    dashed.addLine(to: CGPoint(x: 100, y: 50))
    dashed.strokePath()
    #expect(pixel(dashed, x: 5, row: 49) == opaqueRed)
    #expect(pixel(dashed, x: 15, row: 49) == transparent)
    #expect(pixel(dashed, x: 25, row: 49) == opaqueRed)
}

@Test func clearMakesPixelsTransparent() {
    let context = makeBitmapContext(width: 10, height: 10)
    context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
    context.clear(CGRect(x: 0, y: 0, width: 5, height: 10))
    #expect(pixel(context, x: 2, row: 5) == transparent)
    #expect(pixel(context, x: 7, row: 5) == opaqueRed)
}

@Test func imagesAreDrawnUpright() throws {
    // A 2×2 image whose top-left pixel is red and the rest blue, drawn at the origin.
    let pixmap = try Pixmap(width: 2, height: 2)
    pixmap.fill(with: PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
    pixmap.setPixel(x: 0, y: 0, PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
    let context = makeBitmapContext(width: 10, height: 10)
    context.interpolationQuality = .none
    context.draw(CGImage(pixmap: pixmap), in: CGRect(x: 0, y: 0, width: 2, height: 2))
    // Upright: the image's top row is at user y ∈ [1, 2] = memory row 8.
    #expect(pixel(context, x: 0, row: 8) == opaqueRed)
    #expect(pixel(context, x: 0, row: 9) == [0, 0, 255, 255])
    #expect(pixel(context, x: 1, row: 8) == [0, 0, 255, 255])
    #expect(pixel(context, x: 0, row: 7) == transparent)
}

@Test func linearGradientAndItsOptions() {
    let colors = [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)] as CFArray
    let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors, locations: nil)!
    let context = makeBitmapContext()
    context.drawLinearGradient(gradient, start: CGPoint(x: 25, y: 0), end: CGPoint(x: 75, y: 0), options: [])
    // Pixel 50's centre is at x = 50.5: t = 25.5/50 = 0.51 → 130 (±2 for the engine's ramp).
    #expect(isClose(pixel(context, x: 50, row: 50), [130, 130, 130, 255], 2))
    #expect(pixel(context, x: 10, row: 50) == transparent)   // before the start: not drawn
    #expect(pixel(context, x: 90, row: 50) == transparent)   // after the end: not drawn
    let extended = makeBitmapContext()
    extended.drawLinearGradient(gradient, start: CGPoint(x: 25, y: 0), end: CGPoint(x: 75, y: 0),
                                options: [.drawsAfterEndLocation])
    #expect(pixel(extended, x: 10, row: 50) == transparent)
    #expect(isClose(pixel(extended, x: 90, row: 50), [255, 255, 255, 255], 1))
}

@Test func radialGradientCentreAndOutside() {
    let colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)] as CFArray
    let gradient = CGGradient(colorsSpace: nil, colors: colors, locations: nil)!
    let context = makeBitmapContext()
    let centre = CGPoint(x: 50, y: 50)
    context.drawRadialGradient(gradient, startCenter: centre, startRadius: 0, endCenter: centre, endRadius: 40,
                               options: [])
    #expect(isClose(pixel(context, x: 50, row: 49), opaqueRed, 12))
    #expect(pixel(context, x: 2, row: 2) == transparent)
    let extended = makeBitmapContext()
    extended.drawRadialGradient(gradient, startCenter: centre, startRadius: 0, endCenter: centre, endRadius: 40,
                                options: [.drawsAfterEndLocation])
    #expect(isClose(pixel(extended, x: 2, row: 2), [0, 0, 255, 255], 1))
}

@Test func callerMemoryIsKeptInSync() {
    let bytesPerRow = 4 * 8 + 16
    var buffer = [UInt8](repeating: 0, count: bytesPerRow * 8)
    buffer.withUnsafeMutableBytes { raw in
        let context = CGContext(data: raw.baseAddress, width: 8, height: 8, bitsPerComponent: 8,
                                bytesPerRow: bytesPerRow, space: CGColorSpaceCreateDeviceRGB(),
                                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        context.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
    }
    let last = 7 * bytesPerRow  // bottom-left pixel = last row of memory
    #expect(Array(buffer[last..<last + 4]) == [0, 255, 0, 255])
    #expect(Array(buffer[0..<4]) == [0, 0, 0, 0])
}

@Test func strokedPathCanBeFilled() {
    let context = makeBitmapContext()
    context.setLineWidth(10)
    context.move(to: CGPoint(x: 0, y: 50))
    context.addLine(to: CGPoint(x: 100, y: 50))
    context.replacePathWithStrokedPath()
    // The outline of a 10-wide horizontal stroke: y ∈ [45, 55].
    #expect(isClose(context.boundingBoxOfPath, CGRect(x: 0, y: 45, width: 100, height: 10), 1e-9))
    #expect(context.pathContains(CGPoint(x: 50, y: 54), mode: .fill))
    #expect(!context.pathContains(CGPoint(x: 50, y: 56), mode: .fill))
}

@Test func antialiasingCoversHalfPixels() {
    // A rect edge through the middle of a pixel column covers it half: alpha 255/2 ≈ 128.
    let context = makeBitmapContext(width: 20, height: 20)
    context.setFillColor(gray: 0, alpha: 1)
    context.fill(CGRect(x: 0, y: 0, width: 10.5, height: 20))
    #expect(abs(pixel(context, x: 10, row: 5)[3] - 128) <= 1)
    #expect(pixel(context, x: 9, row: 5)[3] == 255 && pixel(context, x: 11, row: 5)[3] == 0)
    // Aliased: a pixel is in exactly when its centre is.
    let aliased = makeBitmapContext(width: 20, height: 20)
    aliased.setShouldAntialias(false)
    aliased.setFillColor(gray: 0, alpha: 1)
    aliased.fill(CGRect(x: 0, y: 0, width: 10.6, height: 20))
    aliased.fill(CGRect(x: 15, y: 0, width: 0.4, height: 20))
    #expect(pixel(aliased, x: 10, row: 5)[3] == 255)
    #expect(pixel(aliased, x: 15, row: 5)[3] == 0)
}

@Test func lineWidthIsInUserSpaceAtStrokeTime() {
    let context = makeBitmapContext()
    context.setStrokeColor(gray: 0, alpha: 1)
    context.move(to: CGPoint(x: 5, y: 25))
    context.addLine(to: CGPoint(x: 45, y: 25))
    context.scaleBy(x: 2, y: 2)  // after building: the path stays, the pen doubles
    context.setLineWidth(2)
    context.strokePath()
    // Device width 4 around y = 25: user rows y ∈ [23, 27] = memory rows 73…76.
    #expect(pixel(context, x: 20, row: 73)[3] == 255 && pixel(context, x: 20, row: 76)[3] == 255)
    #expect(pixel(context, x: 20, row: 72)[3] == 0 && pixel(context, x: 20, row: 77)[3] == 0)
}

@Test func drawPathFillsThenStrokes() {
    let context = makeBitmapContext()
    context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
    context.setStrokeColor(red: 0, green: 0, blue: 1, alpha: 1)
    context.setLineWidth(4)
    context.addRect(CGRect(x: 20, y: 20, width: 60, height: 60))
    context.drawPath(using: .fillStroke)
    #expect(context.isPathEmpty)
    #expect(pixel(context, x: 50, row: 50) == opaqueRed)
    #expect(pixel(context, x: 20, row: 50) == [0, 0, 255, 255])   // stroke over the edge x = 20
    #expect(pixel(context, x: 17, row: 50) == transparent)        // beyond the half width
}

@Test func blendModeMultiply() {
    // Multiply over opaque white: result = source (s·d with d = 1).
    let context = makeBitmapContext(width: 4, height: 4)
    context.setFillColor(gray: 1, alpha: 1)
    context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
    context.setBlendMode(.multiply)
    context.setFillColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
    #expect(isClose(pixel(context, x: 1, row: 1), [255, 128, 0, 255]))
    // Copy replaces, alpha included.
    context.setBlendMode(.copy)
    context.setFillColor(gray: 0, alpha: 0.5)
    context.fill(CGRect(x: 0, y: 0, width: 2, height: 4))
    #expect(isClose(pixel(context, x: 0, row: 1), [0, 0, 0, 128]))
}

@Test func radialGradientHoleAndBeforeStart() {
    // Concentric circles r = 10 → 40: without options the inside of the start circle has no
    // t in 0…1 and stays empty; with drawsBeforeStartLocation it takes the first colour.
    let colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)] as CFArray
    let gradient = CGGradient(colorsSpace: nil, colors: colors, locations: nil)!
    let centre = CGPoint(x: 50, y: 50)
    let plain = makeBitmapContext()
    plain.drawRadialGradient(gradient, startCenter: centre, startRadius: 10, endCenter: centre, endRadius: 40, options: [])
    #expect(pixel(plain, x: 50, row: 49) == transparent)
    #expect(pixel(plain, x: 75, row: 49)[3] == 255)  // r = 25.5: inside the ring
    let before = makeBitmapContext()
    before.drawRadialGradient(gradient, startCenter: centre, startRadius: 10, endCenter: centre, endRadius: 40,
                              options: [.drawsBeforeStartLocation])
    #expect(isClose(pixel(before, x: 50, row: 49), opaqueRed, 1))
    #expect(pixel(before, x: 2, row: 2) == transparent)
}

@Test func linearGradientBeforeStartOnly() {
    let colors = [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)] as CFArray
    let gradient = CGGradient(colorsSpace: nil, colors: colors, locations: nil)!
    let context = makeBitmapContext()
    context.drawLinearGradient(gradient, start: CGPoint(x: 25, y: 0), end: CGPoint(x: 75, y: 0),
                               options: [.drawsBeforeStartLocation])
    #expect(isClose(pixel(context, x: 10, row: 50), [0, 0, 0, 255], 1))
    #expect(pixel(context, x: 90, row: 50) == transparent)
}

@Test func imagesInAFlippedContextAppearUpsideDown() throws {
    // Apple: draw(_:in:) draws upright in the y-up space, so under a y-down CTM (iOS's
    // draw(in:) context) the image comes out vertically mirrored.
    let pixmap = try Pixmap(width: 1, height: 2)
    pixmap.setPixel(x: 0, y: 0, PremultipliedColor(r: 255, g: 0, b: 0, a: 255))  // top: red
    pixmap.setPixel(x: 0, y: 1, PremultipliedColor(r: 0, g: 0, b: 255, a: 255))  // bottom: blue
    let context = CGContext(pixmap: try Pixmap(width: 1, height: 2), origin: .topLeft)
    context.interpolationQuality = .none
    context.draw(CGImage(pixmap: pixmap), in: CGRect(x: 0, y: 0, width: 1, height: 2))
    #expect(context.pixmap.pixel(x: 0, y: 0) == PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
    #expect(context.pixmap.pixel(x: 0, y: 1) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
}

@Test func badGeometryDrawsNothingOrClips() {
    let context = makeBitmapContext(width: 10, height: 10)
    context.setFillColor(gray: 0, alpha: 1)
    context.fill(CGRect(x: CGFloat.nan, y: 0, width: 5, height: 5))
    context.fill(.null)
    context.strokeEllipse(in: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 5))
    context.scaleBy(x: 0, y: 0)  // singular CTM: strokes cannot be computed
    context.stroke(CGRect(x: 1, y: 1, width: 3, height: 3))
    #expect((0..<10).allSatisfy { pixel(context, x: $0, row: $0) == transparent })
    let huge = makeBitmapContext(width: 10, height: 10)
    huge.setFillColor(gray: 0, alpha: 1)
    huge.fill(CGRect.infinite)  // huge but finite: clipped to the bitmap
    #expect(pixel(huge, x: 5, row: 5) == [0, 0, 0, 255])
}
