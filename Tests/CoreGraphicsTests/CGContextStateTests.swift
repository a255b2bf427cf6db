import Testing
import CoreGraphics
import Raster

// Expected values: Apple's CGContext documentation (bitmap context formats, CTM operations
// prepend to the CTM, the path is transformed when built, save/restore semantics).

private func makeContext(width: Int = 100, height: Int = 100) -> CGContext {
    CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
              space: CGColorSpaceCreateDeviceRGB(),
              bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
}

@Test func bitmapContextFormats() {
    let rgb = CGColorSpaceCreateDeviceRGB()
    let premultipliedLast = CGImageAlphaInfo.premultipliedLast.rawValue
    let context = makeContext(width: 30, height: 20)
    #expect(context.width == 30 && context.height == 20)
    #expect(context.bytesPerRow == 120 && context.bitsPerPixel == 32)
    #expect(context.data != nil)
    #expect(context.ctm.isIdentity)
    // Unsupported formats and sizes are refused with nil.
    #expect(CGContext(data: nil, width: 10, height: 10, bitsPerComponent: 16, bytesPerRow: 0, space: rgb,
                      bitmapInfo: premultipliedLast) == nil)
    #expect(CGContext(data: nil, width: 10, height: 10, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                      bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue
                          | CGBitmapInfo.byteOrder32Little.rawValue) == nil)
    #expect(CGContext(data: nil, width: 10, height: 10, bitsPerComponent: 8, bytesPerRow: 0,
                      space: CGColorSpaceCreateDeviceGray(), bitmapInfo: premultipliedLast) == nil)
    #expect(CGContext(data: nil, width: 10, height: 10, bitsPerComponent: 8, bytesPerRow: 20, space: rgb,
                      bitmapInfo: premultipliedLast) == nil)
    #expect(CGContext(data: nil, width: 1 << 20, height: 1 << 20, bitsPerComponent: 8, bytesPerRow: 0,
                      space: rgb, bitmapInfo: premultipliedLast) == nil)
    #expect(CGContext(data: nil, width: -1, height: 10, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                      bitmapInfo: premultipliedLast) == nil)
}

@Test func ctmOperationsPrependAndSaveRestore() {
    let context = makeContext()
    context.translateBy(x: 10, y: 20)
    context.scaleBy(x: 2, y: 3)
    // CGContextScaleCTM after translate: a user point is scaled first, then translated.
    #expect(CGPoint(x: 1, y: 1).applying(context.ctm) == CGPoint(x: 12, y: 23))
    context.saveGState()
    context.rotate(by: .pi / 2)
    context.concatenate(CGAffineTransform(translationX: 1, y: 0))
    let p = CGPoint(x: 0, y: 0).applying(context.ctm)  // (1,0) → rotate → (0,1) → scale → (0,3) → +(10,20)
    #expect(isClose(p, CGPoint(x: 10, y: 23), 1e-12))
    context.restoreGState()
    #expect(context.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: 20))
    context.restoreGState()  // unbalanced restore: ignored
    #expect(context.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: 20))
}

@Test func pathIsTransformedWhenBuilt() {
    let context = makeContext()
    #expect(context.isPathEmpty)
    #expect(context.boundingBoxOfPath.isNull)
    context.translateBy(x: 50, y: 0)
    context.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
    #expect(context.boundingBoxOfPath == CGRect(x: 0, y: 0, width: 10, height: 10))
    context.translateBy(x: -50, y: 0)
    // The rect stays where it was built: in the new user space it sits at x = 50.
    #expect(context.boundingBoxOfPath == CGRect(x: 50, y: 0, width: 10, height: 10))
    context.move(to: CGPoint(x: 3, y: 4))
    #expect(context.currentPointOfPath == CGPoint(x: 3, y: 4))
    #expect(context.path?.boundingBox == CGRect(x: 3, y: 0, width: 57, height: 10))
    context.beginPath()
    #expect(context.isPathEmpty && context.path == nil)
}

@Test func topLeftOriginContextLooksLikeIOSDrawInContext() throws {
    let pixmap = try Pixmap(width: 40, height: 30)
    let context = CGContext(pixmap: pixmap, origin: .topLeft, scale: 2)
    // iOS reports the flip in the CTM: (scale, 0, 0, −scale, 0, height in pixels).
    #expect(context.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: -2, tx: 0, ty: 30))
    #expect(CGPoint(x: 0, y: 0).applying(context.ctm) == CGPoint(x: 0, y: 30))
    context.restoreGState()
    #expect(context.ctm.d == -2)
}
