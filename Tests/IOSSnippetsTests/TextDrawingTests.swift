import UIKit
import CoreText
import Foundation
import QuartzCore
import Raster
import TestSupport
import Testing

extension SnippetSuite {
    /// Item 6: text drawn into a CGContext (Core Text and UIKit string drawing) lands where the
    /// font's metrics put it. Expected values come from the font file Citrine's font policy
    /// resolves for "Helvetica" on this machine (Nimbus Sans or Liberation Sans when installed,
    /// else DejaVu Sans), read independently of Citrine (`FontTables`, fontTools): `hhea` ascent A,
    /// descent D and line gap G, 'H' and space advances, 'H''s outline bounds (x0…x1, y0…y1 above
    /// the baseline). Ink is compared as the pixels more than half covered (`FontTables.pixels`).
    @Suite struct TextDrawingTests {
        static let size = 51.2

        /// The tables of the font that draws "Helvetica" here.
        static func helvetica() throws -> FontTables {
            let file = try #require(resolvedFont("Helvetica"))
            return try FontTables.read(file.file, index: file.index, text: "H …")
        }

        /// The box of pixels more than half covered (alpha > 127): (minX, minY, maxX, maxY), rows
        /// counted from the top of the bitmap.
        static func inkBox(_ pixmap: Pixmap) -> (Int, Int, Int, Int)? {
            var box: (Int, Int, Int, Int)?
            for y in 0..<pixmap.height {
                for x in 0..<pixmap.width where pixmap.pixel(x: x, y: y).a > 127 {
                    box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
                }
            }
            return box
        }

        /// Whether `box` is the pixels more than half covered by ink spanning x `left…right` and
        /// y `top…bottom` (y-down pixel space), one pixel of slack on an edge within 0.05 px of
        /// a pixel's middle.
        static func matches(_ box: (Int, Int, Int, Int)?, left: Double, top: Double, right: Double, bottom: Double) -> Bool {
            guard let box else { return false }
            let x = FontTables.pixels(left, right), y = FontTables.pixels(top, bottom)
            let slackX = x.ambiguous ? 1 : 0, slackY = y.ambiguous ? 1 : 0
            return abs(box.0 - x.first) <= slackX && abs(box.2 - x.last) <= slackX
                && abs(box.1 - y.first) <= slackY && abs(box.3 - y.last) <= slackY
        }

        /// Every fully covered pixel has `colour`, and there is one.
        static func solidInk(_ pixmap: Pixmap, is colour: PremultipliedColor) -> Bool {
            var found = false
            for y in 0..<pixmap.height {
                for x in 0..<pixmap.width where pixmap.pixel(x: x, y: y).a == 255 {
                    guard pixmap.pixel(x: x, y: y) == colour else { return false }
                    found = true
                }
            }
            return found
        }

        /// 'H' drawn with its baseline origin at (10, 20) of a y-up space 100 × 80 points: ink
        /// x 10 + x0 … 10 + x1 and y-up 20 + y0 … 20 + y1, i.e. rows 60 − y1 … 60 − y0 from the top.
        static func isInkOfH(_ box: (Int, Int, Int, Int)?, _ f: FontTables) -> Bool {
            let h = f.box("H", size: size)
            return matches(box, left: 10 + h.minX, top: 60 - h.maxY, right: 10 + h.maxX, bottom: 60 - h.minY)
        }

        @Test func ctLineDrawPutsTheBaselineAtTheTextPosition() throws {
            let f = try Self.helvetica()
            let context = CGContext(pixmap: try Pixmap(width: 100, height: 80))   // y up, like Core Text
            let font = CTFontCreateWithName("Helvetica" as CFString, 51.2, nil)
            let line = CTLineCreateWithAttributedString(NSAttributedString(string: "H", attributes: [.font: font]))
            context.textPosition = CGPoint(x: 10, y: 20)
            CTLineDraw(line, context)
            #expect(Self.isInkOfH(Self.inkBox(context.pixmap), f), "\(String(describing: Self.inkBox(context.pixmap)))")
            // Black by default (Core Text's foreground colour), and the context's fill colour untouched.
            #expect(Self.solidInk(context.pixmap, is: .init(r: 0, g: 0, b: 0, a: 255)))
        }

        /// The iOS idiom in `draw(in:)` (flip the y-down layer context, identity text matrix,
        /// then the text position) draws the same glyph at the same place, here in red.
        @Test func layerDrawInContextWithCoreTextMatchesTheFontMetrics() throws {
            let f = try Self.helvetica()
            let layer = CoreTextLineLayer()
            layer.frame = CGRect(x: 0, y: 0, width: 100, height: 80)
            layer.setNeedsDisplay()
            let image = try CARenderer.image(of: layer, size: CGSize(width: 100, height: 80), at: 0)
            #expect(Self.isInkOfH(Self.inkBox(image.pixmap), f))
            #expect(Self.solidInk(image.pixmap, is: .init(r: 255, g: 0, b: 0, a: 255)))
        }

        /// The text matrix maps text space to user space: scaling it by 2 doubles the glyph about
        /// the text position (ink x 10 + 2·x0 … 10 + 2·x1, y-up 20 + 2·y0 … 20 + 2·y1).
        @Test func textMatrixScalesGlyphsAboutTheTextPosition() throws {
            let h = try Self.helvetica().box("H", size: Self.size)
            let context = CGContext(pixmap: try Pixmap(width: 100, height: 120))
            let font = CTFontCreateWithName("Helvetica" as CFString, 51.2, nil)
            let line = CTLineCreateWithAttributedString(NSAttributedString(string: "H", attributes: [.font: font]))
            context.textMatrix = CGAffineTransform(scaleX: 2, y: 2)
            context.textPosition = CGPoint(x: 10, y: 20)
            CTLineDraw(line, context)
            #expect(Self.matches(Self.inkBox(context.pixmap), left: 10 + 2 * h.minX, top: 100 - 2 * h.maxY,
                                 right: 10 + 2 * h.maxX, bottom: 100 - 2 * h.minY))
        }

        /// Core Text's typographic bounds: the advances' sum, the font's ascent, descent and line gap.
        @Test func typographicBoundsAreTheFontsMetrics() throws {
            let f = try Self.helvetica()
            let m = measuredLine("HH", size: 51.2)
            #expect(abs(m.width - f.width("HH", size: Self.size)) < 1e-9)
            #expect(abs(m.ascent - f.ascent(Self.size)) < 1e-9 && abs(m.descent - f.descent(Self.size)) < 1e-9)
            #expect(abs(m.leading - f.gap(Self.size)) < 1e-9)
            #expect(abs(lineWidth("HH", size: 51.2) - f.width("HH", size: Self.size)) < 1e-9)   // the `import CoreText`-only snippet
        }

        /// "H H H" in a 200 × 130 frame wrapped at 80 points: "H H" is wider than 80 in each
        /// candidate font (checked below), so each H has its own line; baselines A and A + L below
        /// the top (L = A + D + G), and a line is kept while its baseline + D fits the 130 points.
        /// Origins are y-up from the frame's bottom.
        @Test func framesetterBreaksLinesAndPlacesThemFromTheTop() throws {
            let f = try Self.helvetica()
            let a = f.ascent(Self.size), d = f.descent(Self.size), l = f.lineHeight(Self.size)
            try #require(f.width("H H", size: Self.size) > 80 && f.width("H", size: Self.size) <= 80)
            try #require(a + l + d <= 130 && a + 2 * l + d > 130)   // two lines fit, three do not
            let context = CGContext(pixmap: try Pixmap(width: 200, height: 130))
            let frame = drawParagraph("H H H", size: 51.2, in: CGRect(x: 0, y: 0, width: 80, height: 130), context: context)
            let lines = CTFrameGetLines(frame)
            #expect(lines.count == 2 && lines.allSatisfy { $0 is CTLine })
            var origins = [CGPoint](repeating: .zero, count: 2)
            CTFrameGetLineOrigins(frame, CFRangeMake(0, 0), &origins)
            #expect(abs(origins[0].y - (130 - a)) < 1e-9 && abs(origins[1].y - (130 - a - l)) < 1e-9)
            #expect(origins.allSatisfy { $0.x == 0 })
            // The first line's H inks rows A − y1 … A − y0 and columns x0 … x1; the second is L lower.
            let h = f.box("H", size: Self.size)
            #expect(Self.matches(Self.inkBox(context.pixmap), left: h.minX, top: a - h.maxY, right: h.maxX, bottom: a + l - h.minY))
            let framesetter = CTFramesetterCreateWithAttributedString(
                NSAttributedString(string: "H H", attributes: [.font: CTFontCreateWithName("Helvetica" as CFString, 51.2, nil)]))
            let size = CTFramesetterSuggestFrameSizeWithConstraints(framesetter, CFRangeMake(0, 0), nil,
                                                                    CGSize(width: 200, height: CGFloat.greatestFiniteMagnitude), nil)
            #expect(abs(size.width - f.width("H H", size: Self.size)) < 1e-9 && abs(size.height - (a + d)) < 1e-9)
        }

        /// UIKit's string drawing is y-down: `draw(at:)` puts the top of the line at the point, so
        /// the baseline is at 5 + A and 'H' inks rows 5 + A − y1 … 5 + A − y0, columns 10 + x0 …
        /// 10 + x1; `size(withAttributes:)` is the advances by the line height A + D + G.
        @Test func uikitStringDrawingIsYDownFromTheTopOfTheLine() throws {
            let f = try Self.helvetica()
            let a = f.ascent(Self.size), h = f.box("H", size: Self.size)
            let view = BadgeView(frame: CGRect(x: 0, y: 0, width: 100, height: 80))
            let renderer = UIGraphicsImageRenderer(size: view.bounds.size, format: Self.scaleOne)
            let image = renderer.image { _ in view.draw(view.bounds) }
            let pixmap = try #require(image.cgImage?.pixmap)
            #expect(Self.matches(Self.inkBox(pixmap), left: 10 + h.minX, top: 5 + a - h.maxY, right: 10 + h.maxX, bottom: 5 + a - h.minY))
            #expect(Self.solidInk(pixmap, is: .init(r: 255, g: 0, b: 0, a: 255)))
            let size = "H".size(withAttributes: [.font: UIFont(name: "Helvetica", size: 51.2)!])
            #expect(abs(size.width - f.width("H", size: Self.size)) < 1e-9 && abs(size.height - f.lineHeight(Self.size)) < 1e-9)
        }

        /// `draw(in:)` wraps at the rectangle's width and clips to it: lines at baselines A and
        /// A + L; the rectangle ends halfway up the second line's H, which is clipped there.
        @Test func uikitDrawInRectWrapsAndClips() throws {
            let f = try Self.helvetica()
            let a = f.ascent(Self.size), l = f.lineHeight(Self.size), h = f.box("H", size: Self.size)
            let bottom = (a + l - h.maxY / 2).rounded()
            let renderer = UIGraphicsImageRenderer(size: CGSize(width: 200, height: 130), format: Self.scaleOne)
            let image = renderer.image { _ in
                NSAttributedString(string: "H H H", attributes: [.font: UIFont(name: "Helvetica", size: 51.2)!])
                    .draw(in: CGRect(x: 0, y: 0, width: 80, height: bottom))
            }
            let pixmap = try #require(image.cgImage?.pixmap)
            #expect(Self.matches(Self.inkBox(pixmap), left: h.minX, top: a - h.maxY, right: h.maxX, bottom: bottom))
        }

        static var scaleOne: UIGraphicsImageRendererFormat {
            let format = UIGraphicsImageRendererFormat()
            format.scale = 1
            return format
        }
    }
}
