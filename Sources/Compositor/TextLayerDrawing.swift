import CoreText
import Foundation
import QuartzCore
import Raster

/// A `CATextLayer`'s text, laid out and drawn by Core Text's layout (`TextRenderer`, `TextLayout`
/// in CoreText): a `String`/`NSString` in the layer's `font`, `fontSize` and `foregroundColor`,
/// or an `NSAttributedString` whose runs carry their own font and colour (Apple: the layer's
/// font, size and colour are then unused).
///
/// The text is drawn within the layer's bounds: Apple draws a text layer's content into a
/// backing store the size of its bounds, so glyphs crossing an edge are cut there (accents
/// above the top of a `CATextLayer` are cropped: t0rst's measurements, Stack Overflow question
/// 12591192, "Unwanted vertical padding from iOS 6 on CATextLayer"). Only the lines and glyphs
/// that can reach the bounds are laid out and outlined (`TextLayout`).
extension TextRenderer {
    /// Fills `glyphs` (layer space) through `transform`, clipped by `clip`.
    static func draw(_ glyphs: [(Path, CGColor)], transform: Transform, clip: Mask?, into canvas: Pixmap) {
        for (path, color) in glyphs {
            canvas.fill(path, paint: Paint(color: color.rasterColor), transform: transform, clip: clip)
        }
    }

    /// Whether `glyphs` (their control points, which enclose their curves) reach outside `area`.
    static func leave(_ glyphs: [(Path, CGColor)], _ area: CGRect) -> Bool {
        glyphs.contains { path, _ in
            guard let box = Rect.bounding(path.points) else { return false }
            return !area.contains(CGRect(x: box.x, y: box.y, width: box.width, height: box.height))
        }
    }

    /// The runs `layer` draws: its attributed string's, or its plain string in its own font.
    static func runs(of layer: CATextLayer) -> [Run] {
        if let attributed = layer.string as? NSAttributedString { return runs(of: attributed) }
        guard let text = (layer.string as? String) ?? (layer.string as? NSString).map({ $0 as String }) else { return [] }
        return [Run(text: text, font: fontPattern(of: layer.font), size: layer.fontSize, color: layer.foregroundColor)]
    }

    /// The laid-out glyph outlines of `layer`'s text in layer space (points, y-down), one path per
    /// colour in order of first use; empty when it draws nothing.
    static func glyphs(of layer: CATextLayer) -> [(Path, CGColor)] {
        glyphs(of: runs(of: layer), bounds: layer.bounds, alignment: TextAlignment(layer.alignmentMode),
               isWrapped: layer.isWrapped, truncationMode: TextTruncation(layer.truncationMode), visible: layer.bounds)
    }
}

extension TextAlignment {
    /// A layer's alignment mode; a raw value Apple does not define aligns left.
    init(_ mode: CATextLayerAlignmentMode) {
        switch mode {
        case .natural: self = .natural
        case .right: self = .right
        case .center: self = .center
        case .justified: self = .justified
        default: self = .left
        }
    }
}

extension TextTruncation {
    /// A layer's truncation mode; a raw value Apple does not define truncates at the end.
    init(_ mode: CATextLayerTruncationMode) {
        switch mode {
        case .none: self = .none
        case .start: self = .start
        case .middle: self = .middle
        default: self = .end
        }
    }
}
