import CoreText
import Foundation
import QuartzCore
import UIKit

/// Huge text in small places: megabytes of text in a 200×64-point text layer, a label or one
/// Core Text line cost what can be seen, not what was given (only the visible lines and glyphs
/// are laid out and outlined; `TextLayout`). Each must draw within 10 s in a debug build.
extension BadInputCase {
    static let hugeTextCases: [BadInputCase] = [
        BadInputCase("huge-text-1mb-text-layer-wrapped", area: "cost", expected: "drew", seconds: 10) {
            try drawn(textLayer(megabytes: 1) { $0.isWrapped = true }, size: hugeTextFrame)
        },
        BadInputCase("huge-text-10mb-text-layer-wrapped", area: "cost", expected: "drew", seconds: 10) {
            try drawn(textLayer(megabytes: 10) { $0.isWrapped = true }, size: hugeTextFrame)
        },
        BadInputCase("huge-text-10mb-text-layer-wrapped-truncated-in-the-middle", area: "cost", expected: "drew", seconds: 10) {
            try drawn(textLayer(megabytes: 10) { $0.isWrapped = true; $0.truncationMode = .middle }, size: hugeTextFrame)
        },
        BadInputCase("huge-text-10mb-text-layer-one-line-right-aligned", area: "cost", expected: "drew", seconds: 10) {
            try drawn(textLayer(megabytes: 10) { $0.alignmentMode = .right }, size: hugeTextFrame)
        },
        BadInputCase("huge-text-10mb-text-layer-one-line-truncated-at-the-start", area: "cost", expected: "drew", seconds: 10) {
            try drawn(textLayer(megabytes: 10) { $0.truncationMode = .start }, size: hugeTextFrame)
        },
        BadInputCase("huge-text-10mb-text-layer-2m-short-lines", area: "cost", expected: "drew", seconds: 10) {
            let layer = textLayer(megabytes: 0) { _ in }
            layer.string = String(repeating: "line\n", count: 2_000_000)
            return try drawn(layer, size: hugeTextFrame)
        },
        BadInputCase("huge-text-1mb-label", area: "cost", expected: "drew", seconds: 10) {
            try drawn(label(megabytes: 1, lines: 1).layer, size: hugeTextFrame)
        },
        BadInputCase("huge-text-10mb-label", area: "cost", expected: "drew", seconds: 10) {
            try drawn(label(megabytes: 10, lines: 1).layer, size: hugeTextFrame)
        },
        BadInputCase("huge-text-10mb-label-wrapped", area: "cost", expected: "drew", seconds: 10) {
            try drawn(label(megabytes: 10, lines: 0).layer, size: hugeTextFrame)
        },
        BadInputCase("huge-text-1mb-ctline-drawn", area: "cost", expected: "drew, 1048576 glyphs", seconds: 10) {
            try drawnLine(megabytes: 1)
        },
        BadInputCase("huge-text-10mb-ctline-drawn", area: "cost", expected: "drew, 10485760 glyphs", seconds: 10) {
            try drawnLine(megabytes: 10)
        },
    ]

    static let hugeTextFrame = CGSize(width: 200, height: 64)

    /// `megabytes` MiB of ASCII sentences (one byte a character).
    static func hugeText(megabytes: Int) -> String {
        let sentence = "The quick brown fox jumps over the lazy dog. "
        let count = megabytes << 20
        return String(String(repeating: sentence, count: count / sentence.utf8.count + 1).prefix(count))
    }

    /// A 200×64-point text layer of 12-point text, set up by `configure`.
    static func textLayer(megabytes: Int, _ configure: (CATextLayer) -> Void) -> CATextLayer {
        let layer = CATextLayer()
        layer.frame = CGRect(origin: .zero, size: hugeTextFrame)
        layer.fontSize = 12
        layer.string = hugeText(megabytes: megabytes)
        configure(layer)
        return layer
    }

    /// A 200×64-point label of `lines` lines (1: one line truncated at the tail; 0: wrapped).
    static func label(megabytes: Int, lines: Int) -> UILabel {
        let label = UILabel(frame: CGRect(origin: .zero, size: hugeTextFrame))
        label.numberOfLines = lines
        label.text = hugeText(megabytes: megabytes)
        return label
    }

    /// A Core Text line of the text drawn in a 32×32 context; says its glyph count.
    static func drawnLine(megabytes: Int) throws -> String {
        let line = CTLineCreateWithAttributedString(NSAttributedString(string: hugeText(megabytes: megabytes)))
        let ctx = try context()
        ctx.textPosition = CGPoint(x: 0, y: 20)
        CTLineDraw(line, ctx)
        return "drew, \(CTLineGetGlyphCount(line)) glyphs"
    }
}
