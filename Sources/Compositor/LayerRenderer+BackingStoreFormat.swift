import QuartzCore
import Raster

/// How a layer's drawn backing store (`draw(in:)`) is stored and placed: `contentsFormat` and
/// `contentsAreFlipped()`.
extension LayerRenderer {
    /// Backing-store pixel → layer point: the store covers the bounds at the renderer's scale,
    /// upside down when the layer's content is flipped (Apple, contentsAreFlipped(): "If the layer
    /// needs to flip its content, it returns true from this method and applies a y-flip transform
    /// to the graphics context before passing it to the layer's draw(in:) method" — under an odd
    /// number of geometry-flipped ancestors, so that what `draw(in:)` draws shows upright).
    /// Citrine flips when compositing the store instead of in the context (the same pixels on
    /// screen; the store needs no redraw when an ancestor's isGeometryFlipped changes).
    static func backingStoreToLayer(_ model: CALayer, _ p: CALayer, scale: CGFloat) -> Transform {
        let s = 1 / Double(scale), b = p.bounds
        return model.contentsAreFlipped()
            ? Transform(a: s, b: 0, c: 0, d: -s, tx: Double(b.minX), ty: Double(b.maxY))
            : Transform(a: s, b: 0, c: 0, d: s, tx: Double(b.minX), ty: Double(b.minY))
    }

    /// `contentsFormat = .gray8Uint` (Apple: "A grayscale format with 8 bits per pixel"): the
    /// drawn colours become grey — each pixel's luma 0.2126·R + 0.7152·G + 0.0722·B of its
    /// (gamma-encoded, premultiplied) channels, the Rec. 709 weights CSS's grayscale() filter
    /// uses. Alpha is kept (Citrine's choice: Apple's format has no alpha channel, but whether a
    /// gray layer's undrawn area then shows black is not documented). `.RGBA16Float` is stored in
    /// 8 bits per channel like `.RGBA8Uint` (the frame is 8-bit; only the precision of blending
    /// inside the backing store could differ).
    static func makeGray(_ pixmap: Pixmap) {
        let words = pixmap.words
        for i in 0..<(pixmap.width * pixmap.height) {
            let w = words[i]
            let r = Double(w & 0xFF), g = Double(w >> 8 & 0xFF), b = Double(w >> 16 & 0xFF)
            let y = UInt32((0.2126 * r + 0.7152 * g + 0.0722 * b).rounded())
            words[i] = y | y << 8 | y << 16 | (w & 0xFF00_0000)
        }
    }
}
