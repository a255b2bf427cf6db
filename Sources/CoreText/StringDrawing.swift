import Foundation
import CoreGraphics

/// Attributed-string drawing into a context whose user space is y-down (UIKit's
/// `NSAttributedString.draw(at:)` / `draw(in:)` / `size()`, which the UI layer offers on top of
/// this), with `CATextLayer`'s layout (`TextLayout`: fonts, colours and wrapping as in `CTLine`).
/// The first line's top is at the given point or rectangle's top, its baseline the line's ascent
/// lower; each next baseline the previous line's height lower.
package enum StringDrawing {
    /// Draws `string` with its first line's top-left corner at `rect.origin` in the context's
    /// (y-down) user space: wrapped at spaces to `rect.width` and clipped to `rect` when
    /// `isWrapped`, one unbroken line per paragraph otherwise. Only the glyphs that can reach the
    /// context's clip (and `rect` when wrapped) are laid out and outlined.
    package static func draw(_ string: NSAttributedString, in rect: CGRect, isWrapped: Bool, into context: CGContext) {
        let clip = context.boundingBoxOfClipPath
        let outlines = TextRenderer.glyphs(of: TextRenderer.runs(of: string), bounds: rect, alignment: .natural,
                                           isWrapped: isWrapped, truncationMode: .none,
                                           visible: isWrapped ? clip.intersection(rect) : clip)
        guard !outlines.isEmpty else { return }
        context.saveGState()
        if isWrapped { context.clip(to: rect) }
        for (path, color) in outlines {
            context.setFillColor(color)
            context.addPath(CGPath(rasterPath: path))
            context.fillPath()
        }
        context.restoreGState()
    }

    /// The size `string` takes when drawn unwrapped (`width` nil) or wrapped to `width`: the
    /// widest line's width and the lines' total height (each line's height is its largest font's
    /// line spacing; see `TextRenderer.measuredSize`).
    package static func size(of string: NSAttributedString, width: CGFloat?) -> CGSize {
        TextRenderer.measuredSize(of: TextRenderer.runs(of: string), width: width, isWrapped: width != nil, lastLineLeading: true)
    }
}
