import Foundation
import CoreGraphics

/// Lays an attributed string out in frames (Core Text's `CTFramesetter`): lines broken at spaces
/// to fit a width, as `CATextLayer` wraps (`TextLayout`; see `CTLine` for fonts and colours).
public final class CTFramesetter: @unchecked Sendable {
    let string: NSAttributedString

    init(string: NSAttributedString) { self.string = NSAttributedString(attributedString: string) }

    /// The runs of `range` (Core Text: length 0 means to the end of the string).
    func runs(in range: CFRange) -> [TextRenderer.Run] {
        let length = string.length
        let start = min(max(0, range.location), length)
        let end = range.length > 0 ? start + min(length - start, range.length) : length
        return TextRenderer.runs(of: string.attributedSubstring(from: NSRange(location: start, length: end - start)))
    }
}

/// The lines of a frame (Core Text's `CTFrame`) and their origins.
public final class CTFrame: @unchecked Sendable {
    /// The frame's rectangle in user space (y up).
    let rect: CGRect
    let lines: [CTLine]
    /// Each line's baseline origin relative to `rect`'s bottom-left corner (y up), as
    /// `CTFrameGetLineOrigins` gives them.
    let origins: [CGPoint]

    init(rect: CGRect, lines: [CTLine], origins: [CGPoint]) {
        self.rect = rect
        self.lines = lines
        self.origins = origins
    }
}

/// Core Text: a framesetter for `attrString`.
public func CTFramesetterCreateWithAttributedString(_ attrString: CFAttributedString) -> CTFramesetter {
    CTFramesetter(string: attrString)
}

/// Core Text: the lines of `stringRange` (length 0: to the end) that fit `path`, which Citrine
/// reads as its bounding box (a rectangle, in user space with y up, as Core Text's frames are).
/// The first line's top touches the rectangle's top; each next baseline lies the previous
/// line's height lower; lines whose descent would cross the rectangle's bottom are left out.
/// `frameAttributes` is accepted for source compatibility and not read.
public func CTFramesetterCreateFrame(_ framesetter: CTFramesetter, _ stringRange: CFRange, _ path: CGPath,
                                     _ frameAttributes: CFDictionary?) -> CTFrame {
    let box = path.boundingBox
    guard !box.isNull, box.width.isFinite, box.height.isFinite else { return CTFrame(rect: .zero, lines: [], origins: []) }
    let laidOut = TextRenderer.typesetLines(framesetter.runs(in: stringRange),
                                            bounds: CGRect(origin: .zero, size: box.size), isWrapped: true)
    let fitting = laidOut.filter { Double($0.origin.y) + $0.line.descent <= Double(box.height) + 1e-9 }
    return CTFrame(rect: box, lines: fitting.map(\.line),
                   origins: fitting.map { CGPoint(x: $0.origin.x, y: box.height - $0.origin.y) })
}

/// Core Text: the size the text of `stringRange` needs when wrapped to `constraints.width`
/// (`.greatestFiniteMagnitude` for no limit): the widest line's width and the lines' total
/// height, the last line counted to its descent. `fitRange`, when given, receives the range laid
/// out: `stringRange` within the string.
public func CTFramesetterSuggestFrameSizeWithConstraints(_ framesetter: CTFramesetter, _ stringRange: CFRange,
                                                         _ frameAttributes: CFDictionary?, _ constraints: CGSize,
                                                         _ fitRange: UnsafeMutablePointer<CFRange>?) -> CGSize {
    let length = framesetter.string.length
    let start = min(max(0, stringRange.location), length)
    fitRange?.pointee = CFRange(location: start,
                                length: stringRange.length > 0 ? min(length - start, stringRange.length) : length - start)
    return TextRenderer.measuredSize(of: framesetter.runs(in: stringRange), width: constraints.width, isWrapped: true,
                                     lastLineLeading: false)
}

/// Core Text: the frame's lines (`CTLine`s).
public func CTFrameGetLines(_ frame: CTFrame) -> CFArray { frame.lines }

/// Core Text: the baseline origins of the lines of `range` (length 0: all from its location),
/// relative to the frame's bottom-left corner, y up, into `origins`.
public func CTFrameGetLineOrigins(_ frame: CTFrame, _ range: CFRange, _ origins: UnsafeMutablePointer<CGPoint>) {
    let start = min(max(0, range.location), frame.origins.count)
    let end = range.length > 0 ? start + min(frame.origins.count - start, range.length) : frame.origins.count
    for i in start..<end { origins[i - start] = frame.origins[i] }
}

/// Core Text: draws each line at its origin in the frame (the text position is set to it, then
/// `CTLineDraw`, so the context's `textMatrix` applies to the glyphs, as on Apple — keep it
/// identity for upright text). Leaves the text position at the last line's origin.
public func CTFrameDraw(_ frame: CTFrame, _ context: CGContext) {
    for (line, origin) in zip(frame.lines, frame.origins) {
        context.textPosition = CGPoint(x: frame.rect.minX + origin.x, y: frame.rect.minY + origin.y)
        CTLineDraw(line, context)
    }
}
