import Foundation
import CoreText
import QuartzCore

/// UIKit's string drawing (NSStringDrawing): draws into the current UIKit context
/// (`UIGraphicsGetCurrentContext()`: a view's `draw(_:)`, `UIGraphicsImageRenderer`, a pushed
/// context), whose user space is y-down, origin top-left — unlike Core Text (`CTLineDraw`), which
/// draws in a y-up text space at the context's text position. With no current context nothing
/// is drawn, as on iOS.
///
/// `draw(at:)` puts the top-left corner of the first line's box at the point (its baseline the
/// font's ascent lower) and breaks lines only at newlines; `draw(in:)` also wraps at spaces to
/// the rectangle's width and clips to the rectangle. Fonts and colours are read as `CATextLayer`
/// reads them (`.font`: a `UIFont`, `CTFont` or `CGFont`, default Helvetica 12; `.foregroundColor`:
/// a `UIColor` or `CGColor`, default black; `.kern` and `.ligature` as Core Text reads them);
/// paragraph styles are not applied.
extension NSAttributedString {
    public func draw(at point: CGPoint) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        StringDrawing.draw(self, in: CGRect(origin: point, size: .zero), isWrapped: false, into: context)
    }

    public func draw(in rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        StringDrawing.draw(self, in: rect, isWrapped: true, into: context)
    }

    /// The size `draw(at:)` covers: the widest line and the lines' total height (points).
    public func size() -> CGSize { StringDrawing.size(of: self, width: nil) }

    /// The rectangle the string takes when drawn within `size` (Apple's
    /// `boundingRect(with:options:context:)`), in points, not rounded (Apple: round up with
    /// `ceil` to size views).
    ///
    /// With `.usesLineFragmentOrigin` (Apple: needed for multi-line text) the text is laid out
    /// as `draw(in:)` lays it out: wrapped at spaces to `size.width` (unless it is 0 or
    /// infinite), lines broken at newlines; the rectangle's origin is (0, 0) and its size the
    /// widest line by the lines' total height, which may exceed `size.height` (Apple's result
    /// is not clipped either). Without it, as Apple documents, the string is one line measured
    /// from its baseline origin: only the first paragraph, no wrapping, and the rectangle's
    /// origin is (0, −ascent) in UIKit's y-down space (the text rises above the baseline).
    /// `context`, when given, gets the rectangle as its `totalBounds`.
    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = [],
                             context: NSStringDrawingContext?) -> CGRect {
        let rect: CGRect
        if options.contains(.usesLineFragmentOrigin) {
            let width = size.width > 0 && size.width.isFinite ? size.width : nil
            rect = CGRect(origin: .zero, size: StringDrawing.size(of: self, width: width))
        } else {
            let ns = string as NSString
            let end = ns.rangeOfCharacter(from: .newlines).location
            let first = end == NSNotFound ? self : attributedSubstring(from: NSRange(location: 0, length: end))
            let font = length > 0 ? attribute(.font, at: 0, effectiveRange: nil) as? UIFont : nil
            let ascent = (font ?? .systemFont(ofSize: 12)).ascender
            rect = CGRect(origin: CGPoint(x: 0, y: -ascent), size: StringDrawing.size(of: first, width: nil))
        }
        context?.totalBounds = rect
        return rect
    }
}

extension NSString {
    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        NSAttributedString(string: self as String, attributes: attrs).draw(at: point)
    }

    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        NSAttributedString(string: self as String, attributes: attrs).draw(in: rect)
    }

    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        NSAttributedString(string: self as String, attributes: attrs).size()
    }

    /// The rectangle the string takes with `attributes` (see
    /// `NSAttributedString.boundingRect(with:options:context:)`).
    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = [],
                             attributes: [NSAttributedString.Key: Any]? = nil,
                             context: NSStringDrawingContext?) -> CGRect {
        NSAttributedString(string: self as String, attributes: attributes)
            .boundingRect(with: size, options: options, context: context)
    }
}

/// The same for Swift strings (on iOS they reach NSString's methods through bridging).
extension String {
    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        (self as NSString).draw(at: point, withAttributes: attrs)
    }

    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        (self as NSString).draw(in: rect, withAttributes: attrs)
    }

    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        (self as NSString).size(withAttributes: attrs)
    }

    /// The rectangle the string takes with `attributes` (see
    /// `NSAttributedString.boundingRect(with:options:context:)`).
    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = [],
                             attributes: [NSAttributedString.Key: Any]? = nil,
                             context: NSStringDrawingContext?) -> CGRect {
        (self as NSString).boundingRect(with: size, options: options, attributes: attributes, context: context)
    }
}
