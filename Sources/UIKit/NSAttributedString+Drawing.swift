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
/// a `UIColor` or `CGColor`, default black); other attributes (paragraph styles, kerning) are not
/// applied.
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
}
