// UIKit's graphics-context functions. The current context is the top of the calling thread's
// stack (as on iOS since 4.0, these functions may be used from any thread). During
// `UIView.draw(_:)` the view's layer context is current; image contexts are bitmap contexts
// with UIKit's top-left, y-down user space (`CGContext(pixmap:origin: .topLeft, scale:)`), one
// point = `scale` pixels.

/// The current graphics context, or nil when none is current.
public func UIGraphicsGetCurrentContext() -> CGContext? {
    PerThread.current.graphicsContexts.last?.context
}

/// Makes `context` the current context (until `UIGraphicsPopContext()`).
public func UIGraphicsPushContext(_ context: CGContext) {
    PerThread.current.graphicsContexts.append(UIGraphicsContextEntry(context: context, imageScale: nil))
}

/// Restores the context that was current before the last `UIGraphicsPushContext`.
public func UIGraphicsPopContext() {
    _ = PerThread.current.graphicsContexts.popLast()
}

/// Starts an image context of `size` points at scale 1, opaque false.
public func UIGraphicsBeginImageContext(_ size: CGSize) {
    UIGraphicsBeginImageContextWithOptions(size, false, 1)
}

/// Starts an image context of `size` points at `scale` pixels per point (0: the main screen's
/// scale) and makes it current. The bitmap always has an alpha channel (`opaque` is accepted
/// for source compatibility) and starts transparent. A size with no pixels, or more than the
/// pixel engine allows, makes no context: `UIGraphicsGetCurrentContext()` is then nil until
/// `UIGraphicsEndImageContext()`, as on iOS.
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    let s = scale > 0 && scale.isFinite ? scale : UIScreen.main.scale
    PerThread.current.graphicsContexts.append(UIGraphicsContextEntry(context: makeImageContext(size: size, scale: s), imageScale: s))
}

/// An image of the current image context's pixels, or nil when the current context is not an
/// image context.
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    guard let entry = PerThread.current.graphicsContexts.last, let scale = entry.imageScale,
          let image = entry.context?.makeImage() else { return nil }
    return UIImage(cgImage: image, scale: scale, orientation: .up)
}

/// Ends the current image context (pops it from the stack; nothing happens when the current
/// context is not an image context).
public func UIGraphicsEndImageContext() {
    let state = PerThread.current
    if state.graphicsContexts.last?.imageScale != nil { state.graphicsContexts.removeLast() }
}

/// Fills `rect` with the current context's fill colour.
public func UIRectFill(_ rect: CGRect) {
    UIGraphicsGetCurrentContext()?.fill(rect)
}

/// Strokes the inside of `rect`'s outline, one point wide, with the current fill colour (UIKit
/// draws the frame with the fill colour).
public func UIRectFrame(_ rect: CGRect) {
    guard let ctx = UIGraphicsGetCurrentContext() else { return }
    ctx.saveGState()
    let inner = rect.insetBy(dx: 1, dy: 1)
    let path = CGMutablePath()
    path.addRect(rect)
    if inner.width > 0, inner.height > 0 { path.addRect(inner) }
    ctx.addPath(path)
    ctx.fillPath(using: .evenOdd)
    ctx.restoreGState()
}

/// A bitmap context of `size` points at `scale`, y-down with the origin at the top-left (the CTM
/// holds the flip, as in the context iOS hands to `draw(_:)`); nil when the size has no pixels
/// or exceeds the pixel engine's limits.
func makeImageContext(size: CGSize, scale: CGFloat) -> CGContext? {
    let w = (size.width * scale).rounded(.up), h = (size.height * scale).rounded(.up)
    guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= CGFloat(Int32.max), h <= CGFloat(Int32.max),
          let ctx = CGContext(data: nil, width: Int(w), height: Int(h), bitsPerComponent: 8, bytesPerRow: 0,
                              space: CGColorSpaceCreateDeviceRGB(),
                              bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else { return nil }
    ctx.translateBy(x: 0, y: h)
    ctx.scaleBy(x: scale, y: -scale)
    return ctx
}
