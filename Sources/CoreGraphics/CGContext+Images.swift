import Raster

// Drawing images.

extension CGContext {
    /// Draws `image` scaled to fill `rect` (user space), upright in the context's y-up
    /// default space: the image's first row lands along `rect.maxY` (Apple). In a context
    /// flipped to y-down (iOS's `draw(in:)` context, or `origin: .topLeft`), the image
    /// therefore appears upside down, exactly as on iOS. Sampling follows
    /// `interpolationQuality`; the graphics state's alpha, blend mode, clip and shadow apply.
    public func draw(_ image: CGImage, in rect: CGRect) {
        let r = rect.standardized
        guard image.width > 0, image.height > 0, !r.isNull, r.width > 0, r.height > 0,
              r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite else { return }
        // image pixel (u, v), origin top-left → user (minX + u·sx, maxY − v·sy) → device
        let imageToUser = CGAffineTransform(a: r.width / CGFloat(image.width), b: 0, c: 0,
                                            d: -r.height / CGFloat(image.height), tx: r.minX, ty: r.maxY)
        let imageToDevice = imageToUser.concatenating(deviceTransform)
        let pattern = ImagePattern(image: image.pixmap, transform: imageToDevice.rasterTransform,
                                   filter: state.interpolationQuality.rasterFilter, spread: .decal)
        render(devicePath { $0.addRect(r, transform: deviceTransform) }, rule: .nonZero, shader: .image(pattern))
    }
}
