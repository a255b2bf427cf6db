import UIKit
import CoreText
import Foundation
import QuartzCore
import Raster
import Testing

extension SnippetSuite {
    /// Item 6: text drawn into a CGContext (Core Text and UIKit string drawing) lands where the
    /// font's metrics put it. Expected values come from the font file fontconfig picks for
    /// "Helvetica" here, DejaVu Sans (its tables, read independently of Citrine): 2048 units per
    /// em; `hhea` ascender 1901, descender −483, line gap 0; 'H' advance 1540 with outline box
    /// x 201…1339, y 0…1493; space advance 651. At 51.2 points one unit is 0.025 point, so 'H'
    /// inks x 5.025…33.475 and y 0…37.325 from its pen origin, ascent 47.525, descent 12.075,
    /// line height 59.6.
    @Suite struct TextDrawingTests {
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

        /// 'H' drawn with its baseline origin at (10, 20) of a y-up space 100 × 80 points: ink
        /// x 15.025…43.475 (columns 15…42 more than half covered) and y 20…57.325, i.e. rows
        /// 80 − 57.325 = 22.675 … 60 from the top (rows 23…59).
        static let expectedInkOfH = (15, 23, 42, 59)

        @Test func ctLineDrawPutsTheBaselineAtTheTextPosition() throws {
            let context = CGContext(pixmap: try Pixmap(width: 100, height: 80))   // y up, like Core Text
            let font = CTFontCreateWithName("Helvetica" as CFString, 51.2, nil)
            let line = CTLineCreateWithAttributedString(NSAttributedString(string: "H", attributes: [.font: font]))
            context.textPosition = CGPoint(x: 10, y: 20)
            CTLineDraw(line, context)
            let box = try #require(Self.inkBox(context.pixmap))
            #expect(box == Self.expectedInkOfH)
            // Black by default (Core Text's foreground colour), and the context's fill colour untouched.
            #expect(context.pixmap.pixel(x: 18, y: 40) == .init(r: 0, g: 0, b: 0, a: 255))
        }

        /// The iOS idiom in `draw(in:)` (flip the y-down layer context, identity text matrix,
        /// then the text position) draws the same glyph at the same place, here in red.
        @Test func layerDrawInContextWithCoreTextMatchesTheFontMetrics() throws {
            let layer = CoreTextLineLayer()
            layer.frame = CGRect(x: 0, y: 0, width: 100, height: 80)
            layer.setNeedsDisplay()
            let image = try CARenderer.image(of: layer, size: CGSize(width: 100, height: 80), at: 0)
            #expect(Self.inkBox(image.pixmap).map { $0 == Self.expectedInkOfH } == true)
            #expect(image.pixmap.pixel(x: 18, y: 40) == .init(r: 255, g: 0, b: 0, a: 255))
        }

        /// The text matrix maps text space to user space: scaling it by 2 doubles the glyph about
        /// the text position (ink x 10 + 2·5.025 … 10 + 2·33.475, y 20 … 20 + 2·37.325 in y-up).
        @Test func textMatrixScalesGlyphsAboutTheTextPosition() throws {
            let context = CGContext(pixmap: try Pixmap(width: 100, height: 120))
            let font = CTFontCreateWithName("Helvetica" as CFString, 51.2, nil)
            let line = CTLineCreateWithAttributedString(NSAttributedString(string: "H", attributes: [.font: font]))
            context.textMatrix = CGAffineTransform(scaleX: 2, y: 2)
            context.textPosition = CGPoint(x: 10, y: 20)
            CTLineDraw(line, context)
            // x 20.05…76.95 → columns 20…76; y 20…94.65 → rows 120 − 94.65 = 25.35 … 100 → 25…99.
            #expect(Self.inkBox(context.pixmap).map { $0 == (20, 25, 76, 99) } == true)
        }

        @Test func typographicBoundsAreTheFontsMetrics() {
            let m = measuredLine("HH", size: 51.2)
            #expect(abs(m.width - 77) < 1e-9)                   // 2 × 1540 × 0.025
            #expect(abs(m.ascent - 47.525) < 1e-9 && abs(m.descent - 12.075) < 1e-9 && m.leading == 0)
            #expect(abs(lineWidth("HH", size: 51.2) - 77) < 1e-9)   // the `import CoreText`-only snippet
        }

        /// "H H H" in a 200 × 130 frame wrapped at 80 points: "H H" is 38.5 + 16.275 + 38.5 = 93.275
        /// wide, so each H has its own line; baselines 47.525 and 47.525 + 59.6 = 107.125 below the
        /// top, and the third (166.725) does not fit. Origins are y-up from the frame's bottom.
        @Test func framesetterBreaksLinesAndPlacesThemFromTheTop() throws {
            let context = CGContext(pixmap: try Pixmap(width: 200, height: 130))
            let frame = drawParagraph("H H H", size: 51.2, in: CGRect(x: 0, y: 0, width: 80, height: 130), context: context)
            let lines = CTFrameGetLines(frame)
            #expect(lines.count == 2 && lines.allSatisfy { $0 is CTLine })
            var origins = [CGPoint](repeating: .zero, count: 2)
            CTFrameGetLineOrigins(frame, CFRangeMake(0, 0), &origins)
            #expect(abs(origins[0].y - (130 - 47.525)) < 1e-9 && abs(origins[1].y - (130 - 107.125)) < 1e-9)
            #expect(origins.allSatisfy { $0.x == 0 })
            // The first line's H: baseline 47.525 from the top, so its ink spans rows 10.2 … 47.525
            // (10…47) and columns 5.025 … 33.475 (5…32); the second is 59.6 lower (rows 69.8 … 107.125).
            let box = try #require(Self.inkBox(context.pixmap))
            #expect(box == (5, 10, 32, 106))
            var size = CGSize.zero
            let framesetter = CTFramesetterCreateWithAttributedString(
                NSAttributedString(string: "H H", attributes: [.font: CTFontCreateWithName("Helvetica" as CFString, 51.2, nil)]))
            size = CTFramesetterSuggestFrameSizeWithConstraints(framesetter, CFRangeMake(0, 0), nil,
                                                                CGSize(width: 200, height: CGFloat.greatestFiniteMagnitude), nil)
            #expect(abs(size.width - 93.275) < 1e-9 && abs(size.height - (47.525 + 12.075)) < 1e-9)
        }

        /// UIKit's string drawing is y-down: `draw(at:)` puts the top of the line at the point, so
        /// the baseline is at 5 + 47.525 = 52.525 and 'H' inks rows 15.2 … 52.525 (15…52),
        /// columns 15.025 … 43.475 (15…42).
        @Test func uikitStringDrawingIsYDownFromTheTopOfTheLine() throws {
            let view = BadgeView(frame: CGRect(x: 0, y: 0, width: 100, height: 80))
            let renderer = UIGraphicsImageRenderer(size: view.bounds.size, format: Self.scaleOne)
            let image = renderer.image { _ in view.draw(view.bounds) }
            let pixmap = try #require(image.cgImage?.pixmap)
            #expect(Self.inkBox(pixmap).map { $0 == (15, 15, 42, 52) } == true)
            #expect(pixmap.pixel(x: 18, y: 30) == .init(r: 255, g: 0, b: 0, a: 255))
            let size = "H".size(withAttributes: [.font: UIFont(name: "Helvetica", size: 51.2)!])
            #expect(abs(size.width - 38.5) < 1e-9 && abs(size.height - 59.6) < 1e-9)
        }

        /// `draw(in:)` wraps at the rectangle's width and clips to it.
        @Test func uikitDrawInRectWrapsAndClips() throws {
            let renderer = UIGraphicsImageRenderer(size: CGSize(width: 200, height: 130), format: Self.scaleOne)
            let image = renderer.image { _ in
                NSAttributedString(string: "H H H", attributes: [.font: UIFont(name: "Helvetica", size: 51.2)!])
                    .draw(in: CGRect(x: 0, y: 0, width: 80, height: 100))
            }
            let pixmap = try #require(image.cgImage?.pixmap)
            // Lines at baselines 47.525 and 107.125; the second is clipped at y = 100.
            #expect(Self.inkBox(pixmap).map { $0 == (5, 10, 32, 99) } == true)
        }

        static var scaleOne: UIGraphicsImageRendererFormat {
            let format = UIGraphicsImageRendererFormat()
            format.scale = 1
            return format
        }
    }
}
