import Foundation
import QuartzCore
import UIKit

// A text layer's documents → layers in the layer's content, one layer per document keyframe,
// each shown while its document is current (a discrete `hidden` animation; documents hold until
// the next, lottie-web's TextProperty). A document is drawn
// - from the file's glyph outlines (`chars`) when it has one for every character in the
//   document's font: one CAShapeLayer filled with `fc` (and stroked with `sc`, `sw`), each
//   glyph's shapes (at size 100) scaled to the font size, placed along the baseline by the
//   glyphs' advances `w` plus the tracking, lines `lh` apart (in a paragraph box, justified in
//   its width from its top's first baseline, not wrapped); or else
// - with an installed font: one CATextLayer per line (Core Animation's text layer has no line
//   height or tracking of its own: the lines are placed `lh` apart, the tracking is the
//   string's `kern`), in the font `fonts.list` names (family and style), at the document's
//   size and fill colour. A paragraph box (`sz`, `ps`) is one wrapped CATextLayer in the box.
// In both, the layer's origin is the first line's baseline at the point justification `j`
// refers to (left, right or centre of each line), as lottie-web places point text: each
// line's width is the sum of its advances and trackings less the last tracking. (ThorVG counts
// the last tracking too: scripts/lottie-compare on Tests/LottieTests/Files/text-glyphs.json
// puts its centred line 4 points left of this one at size 40, tracking 200; rlottie draws no
// text. This follows lottie-web.)

extension LayerImporter {
    func addText(_ documents: KeyframedValue<TextDocument>, to content: CALayer, owner: LottieLayer,
                 timing: AnimationTiming) throws(LottieError) {
        let documentList = documents.values
        for (n, document) in documentList.enumerated() {
            try count(owner.path)
            let layer = try textLayer(document, path: owner.path)
            if case let .keyframed(frames) = documents {
                let shown = KeyframedValue<Double>.keyframed(frames.enumerated().map { m, frame in
                    Keyframe(time: frame.time, value: m == n ? 1 : 0, hold: true)
                })
                shown.apply(to: layer, "hidden", timing: timing, convert: { $0 < 0.5 }, set: { layer.isHidden = $0 < 0.5 })
            }
            content.addSublayer(layer)
        }
    }

    private func textLayer(_ document: TextDocument, path: String) throws(LottieError) -> CALayer {
        if let outline = try glyphOutline(document, path: path) {
            let shape = CAShapeLayer()
            shape.anchorPoint = .zero
            shape.bounds = CGRect(x: 0, y: 0, width: composition.width, height: composition.height)
            shape.path = outline
            shape.fillColor = document.fillColor.map(ShapeImporter.cgColor)
            if let stroke = document.strokeColor, document.strokeWidth > 0 {
                shape.strokeColor = ShapeImporter.cgColor(stroke)
                shape.lineWidth = document.strokeWidth
            }
            return shape
        }
        return try fontLayers(document, path: path)
    }

    /// The glyph outlines of `document`'s lines, or nil when the file lacks a glyph it uses; at
    /// most `LottieLimits.elements` vertices in all (a long text of a detailed glyph).
    private func glyphOutline(_ document: TextDocument, path layerPath: String) throws(LottieError) -> CGPath? {
        guard !composition.glyphs.isEmpty else { return nil }
        // By character, in the document's font when `fonts.list` names it (else any font's).
        let font = composition.fonts[document.font]
        var table: [String: LottieGlyph] = [:]
        for glyph in composition.glyphs where font == nil || (glyph.family == font!.family && glyph.style == font!.style) {
            if table[glyph.character] == nil { table[glyph.character] = glyph }
        }
        let scale = document.size / 100, tracking = document.tracking * document.size / 1000
        // In a paragraph box (not wrapped here): lines justified in its width, the first baseline
        // the font's ascent below its top (lottie-web's TextProperty).
        var origin = CGPoint.zero
        if let size = document.boxSize, let corner = document.boxPosition {
            origin = CGPoint(x: corner.x - Self.justified(size.x, document.justification),
                             y: corner.y + (font?.ascent ?? 75) * document.size / 100)
        }
        let path = CGMutablePath()
        var vertices = 0
        for (n, line) in document.lines.enumerated() {
            var placed: [(LottieGlyph, Double)] = []
            var x = 0.0
            for character in line {
                guard let glyph = table[String(character)] else { return nil }
                vertices += glyph.shapes.vertexCount
                guard vertices <= LottieLimits.elements else {
                    throw LottieError("\(layerPath).t", "the text's glyph outlines have more than \(LottieLimits.elements) vertices")
                }
                placed.append((glyph, x))
                x += glyph.advance * scale + tracking
            }
            let width = placed.isEmpty ? 0 : x - tracking
            let shift = Self.justified(width, document.justification) + origin.x
            for (glyph, at) in placed {
                let place = CGAffineTransform(scaleX: scale, y: scale)
                    .concatenating(CGAffineTransform(translationX: at + shift, y: origin.y + Double(n) * document.lineHeight))
                Self.addOutline(glyph.shapes, to: path, transform: place)
            }
        }
        return path
    }

    /// Where a line `width` wide starts from the point justification `j` refers to.
    private static func justified(_ width: Double, _ j: Int) -> Double {
        switch j {
        case 1: -width
        case 2: -width / 2
        default: 0
        }
    }

    /// The paths of `items` (groups' static transforms applied) added to `path` through `transform`.
    private static func addOutline(_ items: [ShapeItem], to path: CGMutablePath, transform: CGAffineTransform) {
        for item in items {
            switch item {
            case let .path(shape):
                path.addPath(shape.initial.cgPath, transform: transform)
            case let .group(children, t, _):
                let (a, s, r) = (t.anchor.initial, t.scale.initial, t.rotation.initial)
                let p: CGPoint
                switch t.position {
                case let .combined(value): p = value.initial
                case let .split(x, y): p = CGPoint(x: x.initial, y: y.initial)
                }
                let group = CGAffineTransform(translationX: -a.x, y: -a.y)
                    .concatenating(CGAffineTransform(scaleX: s.x / 100, y: s.y / 100))
                    .concatenating(CGAffineTransform(rotationAngle: r * .pi / 180))
                    .concatenating(CGAffineTransform(translationX: p.x, y: p.y))
                addOutline(children, to: path, transform: group.concatenating(transform))
            default:
                break
            }
        }
    }

    /// CATextLayers drawing `document` in an installed font (see the file's notes).
    private func fontLayers(_ document: TextDocument, path: String) throws(LottieError) -> CALayer {
        let container = CALayer()
        container.anchorPoint = .zero
        container.bounds = CGRect(x: 0, y: 0, width: composition.width, height: composition.height)
        let listed = composition.fonts[document.font]
        let name = listed.map { $0.style.isEmpty ? $0.family : "\($0.family)-\($0.style)" } ?? document.font
        let font = UIFont(name: name, size: document.size) ?? UIFont.systemFont(ofSize: document.size)
        var attributes: [NSAttributedString.Key: Any] = [.font: font, .kern: document.tracking * document.size / 1000]
        attributes[.foregroundColor] = document.fillColor.map(ShapeImporter.cgColor) ?? CGColor(red: 0, green: 0, blue: 0, alpha: 0)
        let alignment: CATextLayerAlignmentMode = [1: .right, 2: .center][document.justification] ?? .left
        // Wide enough for any line the composition can show, about the justification point.
        let width = max(composition.width, composition.height) * 4
        func text(_ string: String, frame: CGRect, wrapped: Bool) -> CATextLayer {
            let layer = CATextLayer()
            layer.string = NSAttributedString(string: string, attributes: attributes)
            layer.alignmentMode = alignment
            layer.isWrapped = wrapped
            layer.anchorPoint = .zero
            layer.bounds = CGRect(origin: .zero, size: frame.size)
            layer.position = frame.origin
            return layer
        }
        if let size = document.boxSize, let origin = document.boxPosition {
            container.addSublayer(text(document.text, frame: CGRect(origin: origin, size: CGSize(width: size.x, height: size.y)), wrapped: true))
            return container
        }
        let left = Self.justified(width, document.justification)
        let height = font.lineHeight + document.size
        for (n, line) in document.lines.enumerated() where !line.isEmpty {
            try count(path)
            // The first baseline of a CATextLayer is its font's ascent below its top.
            let top = Double(n) * document.lineHeight - font.ascender
            container.addSublayer(text(line, frame: CGRect(x: left, y: top, width: width, height: height), wrapped: false))
        }
        return container
    }
}

extension [ShapeItem] {
    /// The vertices of every path, in groups too (of its first shape, the one a glyph draws).
    var vertexCount: Int {
        reduce(0) { total, item in
            switch item {
            case let .path(shape): total + shape.initial.vertices.count
            case let .group(children, _, _): total + children.vertexCount
            default: total
            }
        }
    }
}
