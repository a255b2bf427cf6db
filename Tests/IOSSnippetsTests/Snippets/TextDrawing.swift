// Text drawn into a CGContext as iOS code draws it: Core Text in a layer's
// draw(in:), and UIKit's string drawing in a view's draw(_:). (`import UIKit` is the
// deviation for `import UIKit`, README.)
import UIKit
import CoreText
import QuartzCore

/// A layer that draws one line with Core Text: the context iOS gives `draw(in:)` is y-down, so
/// the usual flip to Core Text's y-up space first, identity text matrix, then the baseline.
final class CoreTextLineLayer: CALayer {
    var text = "H"
    var fontSize: CGFloat = 51.2
    var baselineOrigin = CGPoint(x: 10, y: 20)

    override func draw(in ctx: CGContext) {
        let font = CTFontCreateWithName("Helvetica" as CFString, fontSize, nil)
        let attributes: [NSAttributedString.Key: Any] = [
            .font: font,
            .foregroundColor: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
        ]
        let attributed = NSAttributedString(string: text, attributes: attributes)
        let line = CTLineCreateWithAttributedString(attributed as CFAttributedString)

        ctx.saveGState()
        ctx.translateBy(x: 0, y: bounds.height)
        ctx.scaleBy(x: 1, y: -1)
        ctx.textMatrix = .identity
        ctx.textPosition = baselineOrigin
        CTLineDraw(line, ctx)
        ctx.restoreGState()
    }
}

/// The width, ascent, descent and leading of a line, as iOS code measures a label.
func measuredLine(_ text: String, size: CGFloat) -> (width: Double, ascent: CGFloat, descent: CGFloat, leading: CGFloat) {
    let font = CTFontCreateWithName("Helvetica" as CFString, size, nil)
    let line = CTLineCreateWithAttributedString(NSAttributedString(string: text, attributes: [.font: font]))
    var ascent: CGFloat = 0, descent: CGFloat = 0, leading: CGFloat = 0
    let width = CTLineGetTypographicBounds(line, &ascent, &descent, &leading)
    return (width, ascent, descent, leading)
}

/// A paragraph laid out in a rectangle with a framesetter (Core Text's y-up user space).
func drawParagraph(_ text: String, size: CGFloat, in rect: CGRect, context: CGContext) -> CTFrame {
    let font = CTFontCreateWithName("Helvetica" as CFString, size, nil)
    let attributed = NSAttributedString(string: text, attributes: [.font: font])
    let framesetter = CTFramesetterCreateWithAttributedString(attributed as CFAttributedString)
    let path = CGPath(rect: rect, transform: nil)
    let frame = CTFramesetterCreateFrame(framesetter, CFRangeMake(0, 0), path, nil)
    context.textMatrix = .identity
    CTFrameDraw(frame, context)
    return frame
}

/// A view that draws a string with UIKit's string drawing (y-down, top-left of the line at the point).
final class BadgeView: UIView {
    var label = "H"
    var labelOrigin = CGPoint(x: 10, y: 5)

    override func draw(_ rect: CGRect) {
        label.draw(at: labelOrigin, withAttributes: [
            .font: UIFont(name: "Helvetica", size: 51.2)!,
            .foregroundColor: UIColor.red,
        ])
    }
}
