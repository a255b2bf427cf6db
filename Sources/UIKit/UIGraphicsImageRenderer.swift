import Foundation
import ImageCodecs

/// How a `UIGraphicsImageRenderer` makes its bitmap (Apple's `UIGraphicsImageRendererFormat`).
/// Defaults: the main screen's scale, not opaque.
open class UIGraphicsImageRendererFormat {
    /// Pixels per point.
    public var scale: CGFloat
    /// Accepted for source compatibility: the bitmap always has alpha and starts transparent.
    public var opaque: Bool
    public init() {
        scale = UIScreen.main.scale
        opaque = false
    }
    /// The default format (main screen scale).
    open class func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
    /// iOS 11's preferred format (the same as `default()` here).
    open class func preferred() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// The context handed to a `UIGraphicsImageRenderer`'s actions (Apple's
/// `UIGraphicsImageRendererContext`): its `cgContext` is also the current UIGraphics context
/// while the actions run.
open class UIGraphicsImageRendererContext {
    public let cgContext: CGContext
    public let format: UIGraphicsImageRendererFormat

    init(cgContext: CGContext, format: UIGraphicsImageRendererFormat) {
        self.cgContext = cgContext
        self.format = format
    }

    /// What has been drawn so far.
    public var currentImage: UIImage {
        guard let image = cgContext.makeImage() else {
            return UIImage(cgImage: CGImage(pixmap: cgContext.pixmap), scale: format.scale, orientation: .up)
        }
        return UIImage(cgImage: image, scale: format.scale, orientation: .up)
    }

    /// Fills `rect` with the current fill colour.
    public func fill(_ rect: CGRect) { cgContext.fill(rect) }
    /// Fills `rect` with the current fill colour and `blendMode`.
    public func fill(_ rect: CGRect, blendMode: CGBlendMode) {
        cgContext.saveGState()
        cgContext.setBlendMode(blendMode)
        cgContext.fill(rect)
        cgContext.restoreGState()
    }
    /// Strokes `rect` with the current stroke colour and line width.
    public func stroke(_ rect: CGRect) { cgContext.stroke(rect) }
    /// Intersects the clip with `rect`.
    public func clip(to rect: CGRect) { cgContext.clip(to: rect) }
}

/// Draws images with a block (Apple's `UIGraphicsImageRenderer`): each call of `image(actions:)`
/// makes a fresh bitmap of `bounds` at the format's scale, y-down with `bounds.origin` at the
/// top-left, makes it the current context, runs the actions and returns the image.
open class UIGraphicsImageRenderer {
    public let format: UIGraphicsImageRendererFormat
    /// The drawing area in points.
    public let bounds: CGRect

    public convenience init(size: CGSize) { self.init(size: size, format: .default()) }
    public convenience init(size: CGSize, format: UIGraphicsImageRendererFormat) {
        self.init(bounds: CGRect(origin: .zero, size: size), format: format)
    }
    public convenience init(bounds: CGRect) { self.init(bounds: bounds, format: .default()) }
    public init(bounds: CGRect, format: UIGraphicsImageRendererFormat) {
        self.bounds = bounds
        self.format = format
    }

    /// An image drawn by `actions`. A size with no pixels (or beyond the pixel engine's limits)
    /// runs no actions and returns a 1×1 transparent image.
    open func image(actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage {
        let scale = format.scale > 0 && format.scale.isFinite ? format.scale : 1
        guard let ctx = makeImageContext(size: bounds.size, scale: scale) else {
            let empty = makeImageContext(size: CGSize(width: 1, height: 1), scale: 1)!
            return UIImage(cgImage: empty.makeImage()!, scale: 1, orientation: .up)
        }
        ctx.translateBy(x: -bounds.minX, y: -bounds.minY)
        let rendererContext = UIGraphicsImageRendererContext(cgContext: ctx, format: format)
        UIGraphicsPushContext(ctx)
        actions(rendererContext)
        UIGraphicsPopContext()
        return rendererContext.currentImage
    }

    /// PNG data of the image drawn by `actions`.
    open func pngData(actions: (UIGraphicsImageRendererContext) -> Void) -> Data {
        image(actions: actions).pngData() ?? Data()
    }
}
