import Foundation
import CoreGraphics
import Testing

/// A dashed stroke is one fill of all its dashes' outlines, however many batches the pixel
/// engine hands them over in. The expected picture is built independently: the
/// dashes as closed-form rectangles in one path, filled non-zero.
struct CGContextDashTests {
    static let side = 512
    /// Rows of dashes at user y = 8r + 4.375 (r < 64), x from 6 to 504: [2, 1] dashes, width 4,
    /// butt caps, 166 a row (the pattern restarts at each subpath, as Quartz's PDF imaging model
    /// has it), dash k covering x ∈ [6 + 3k, 8 + 3k].
    static let rows = 64, dashesPerRow = 166

    static func rowY(_ r: Int) -> CGFloat { 8 * CGFloat(r) + 4.375 }

    /// The context after `draw`, opaque white paint on transparent.
    static func drawn(_ draw: (CGContext) -> Void) -> CGContext {
        let context = makeBitmapContext(width: side, height: side)
        context.setFillColor(red: 1, green: 1, blue: 1, alpha: 1)
        context.setStrokeColor(red: 1, green: 1, blue: 1, alpha: 1)
        draw(context)
        return context
    }

    static func alphas(_ context: CGContext) -> [UInt8] {
        let bytes = context.data!.assumingMemoryBound(to: UInt8.self)
        return (0..<side).flatMap { row in (0..<side).map { bytes[row * context.bytesPerRow + $0 * 4 + 3] } }
    }

    /// Every row stroked twice in one path (two subpaths over each row): 21 248 dashes, 84 992
    /// outline points, more than one batch of 65 536, so the second copy of most dashes is
    /// rasterized in another batch than the first. The stroke equals one fill of all 21 248
    /// rectangles byte for byte; in the pixel rows the dashes cover 0.375 of, that fill counts
    /// both copies, 0.75 (level 191), on 2 columns per dash.
    @Test func dashesOverlappingAcrossBatchesFillAsOneOutline() {
        let stroked = Self.drawn { context in
            context.setLineWidth(4)
            context.setLineCap(.butt)
            context.setLineDash(phase: 0, lengths: [2, 1])
            for _ in 0..<2 {
                for r in 0..<Self.rows {
                    context.move(to: CGPoint(x: 6, y: Self.rowY(r)))
                    context.addLine(to: CGPoint(x: 504, y: Self.rowY(r)))
                }
            }
            context.strokePath()
        }
        let filled = Self.drawn { context in
            for _ in 0..<2 {
                for r in 0..<Self.rows {
                    for k in 0..<Self.dashesPerRow {
                        context.addRect(CGRect(x: 6 + 3 * CGFloat(k), y: Self.rowY(r) - 2, width: 2, height: 4))
                    }
                }
            }
            context.fillPath()
        }
        let strokedAlphas = Self.alphas(stroked)
        let same = strokedAlphas == Self.alphas(filled)
        #expect(same, "the stroke's coverage differs from one fill of its dashes' rectangles")
        #expect(strokedAlphas.filter { $0 == 191 }.count == Self.rows * Self.dashesPerRow * 2)
        #expect(strokedAlphas.allSatisfy { $0 == 0 || $0 == 191 || $0 == 255 })
    }
}
