// What a layer's own pixels depend on, for the retained bitmaps (`LayerRenderer.cachedLeaf`) and
// damage tracking (`LayerRenderer.footprints`): the classes whose content the compositor draws
// from their properties alone, the properties of each that change those pixels, and the
// layer-space area the pixels can cover (a shape's stroke and a text's glyphs may reach beyond
// the bounds).
import CoreText
import Foundation
import QuartzCore
import Raster

enum LayerContent {
    /// Whether the compositor draws `model`'s own pixels from its properties alone: a plain
    /// `CALayer`, `CAShapeLayer`, `CAGradientLayer` or `CATextLayer` (exactly these classes: an
    /// app's subclass may draw more) without a delegate that draws (`drawnByDelegate`). Such a
    /// layer's pixels change only when a property listed in `LayerRenderer.LeafKey` changes.
    static func drawsItself(_ model: CALayer) -> Bool {
        let kind = type(of: model)
        return !drawnByDelegate(model) && (kind == CALayer.self || kind == CAShapeLayer.self
                                           || kind == CAGradientLayer.self || kind == CATextLayer.self)
    }

    /// Whether `model` is of one of the QuartzCore layer classes whose content the compositor
    /// draws itself (shape, gradient, replicator, transform, text, emitter), or a subclass of one.
    static func isOfASelfDrawnClass(_ model: CALayer) -> Bool {
        model is CAShapeLayer || model is CAGradientLayer || model is CAReplicatorLayer || model is CATransformLayer
            || model is CATextLayer || model is CAEmitterLayer
    }

    /// Whether `model` has a delegate that draws its content (`CALayerDelegate._drawsContent`:
    /// a UIView that does not override `draw(_:)` does not).
    static func drawnByDelegate(_ model: CALayer) -> Bool {
        model.delegate?._drawsContent(of: model) ?? false
    }

    /// The paths `p` fills or strokes of its own, counted in path elements: the background and
    /// border (a rectangle, or a rounded one), a shape layer's fill and stroke (its path's
    /// elements each; a stroke's outline about three times its path's) — nil when it draws
    /// anything else (contents, a gradient, text, a dashed stroke), and with `paints` the
    /// number of paints that draw something. What drawing the layer straight into the target
    /// costs (`LayerRenderer.cachedLeaf`), and whether it paints each pixel once.
    static func vectorWork(_ p: CALayer) -> (elements: Int, paints: Int)? {
        guard p.contents == nil, !(p is CAGradientLayer || p is CATextLayer) else { return nil }
        var elements = 0, paints = 0
        let rectangle = p.cornerRadius > 0 ? 9 : 5
        if let bg = p.backgroundColor, bg.alpha > 0 { elements += rectangle; paints += 1 }
        if p.borderWidth > 0, let border = p.borderColor, border.alpha > 0 { elements += 3 * rectangle; paints += 1 }
        if let s = p as? CAShapeLayer, let path = s.path, !path.isEmpty {
            let count = path.rasterPath.verbs.count
            if let fill = s.fillColor, fill.alpha > 0 { elements += count; paints += 1 }
            if let stroke = s.strokeColor, stroke.alpha > 0, s.lineWidth > 0, s.strokeEnd > s.strokeStart {
                guard (s.lineDashPattern ?? []).isEmpty else { return nil }
                elements += 3 * count
                paints += 1
            }
        }
        return (elements, paints)
    }

    /// The layer-space rectangle (points) `p`'s own drawing can touch: its bounds; where its
    /// contents image is placed (gravity may put it beyond the bounds; nine-slice cells are not
    /// clipped to them even with masksToBounds); a shape layer's path box grown by the stroke's
    /// reach (a shape layer's path does draw beyond its bounds on Apple). A text layer's glyphs
    /// stay within its bounds (`TextRenderer.draw(_:transform:clip:into:)`). A shape layer
    /// without a background colour or border draws nothing else in its bounds, so they do not
    /// count (an imported Lottie shape layer spans the whole composition and draws a small path:
    /// its retained bitmap covers the path). It may have no area (then the layer draws nothing).
    /// nil when it is not finite (NaN/∞ geometry).
    static func rect(_ p: CALayer) -> CGRect? {
        let bounds = p.bounds
        // The background and border fill the bounds; the rest is drawn only when `drawContent`
        // draws (bounds with a width or a height, or a shape layer).
        let fillsBounds = !(p is CAShapeLayer) || p.backgroundColor != nil || (p.borderWidth > 0 && p.borderColor != nil)
        var r: CGRect? = fillsBounds && bounds.width > 0 && bounds.height > 0 ? bounds : nil
        func add(_ box: CGRect) { r = r.map { $0.union(box) } ?? box }
        if bounds.width > 0 || bounds.height > 0 || p is CAShapeLayer {
            if let image = p.contents as? CGImage, let placed = LayerRenderer.contentsPlacement(image, p) { add(placed.dest) }
            if let shape = p as? CAShapeLayer, let box = pathBox(shape) { add(box) }
        }
        let area = r ?? bounds
        guard area.minX.isFinite, area.minY.isFinite, area.maxX.isFinite, area.maxY.isFinite else { return nil }
        return area
    }

    /// A shape layer's path box grown by half the stroke width times the farthest a stroke's
    /// outline gets from the path: 1, √2 at a square cap's corners, the miter limit at a miter
    /// join's tip. nil without a path.
    private static func pathBox(_ s: CAShapeLayer) -> CGRect? {
        guard let path = s.path, !path.isEmpty else { return nil }
        let box = path.boundingBox
        guard s.strokeColor != nil, s.lineWidth > 0 else { return box }
        var reach: CGFloat = 1
        if s.lineCap == .square { reach = max(reach, 2.0.squareRoot()) }
        if s.lineJoin == .miter { reach = max(reach, s.miterLimit.isNaN ? .infinity : s.miterLimit) }
        let grow = s.lineWidth / 2 * reach
        return box.insetBy(dx: -grow, dy: -grow)
    }
}

/// The drawing properties of a shape, gradient or text layer (`.none` for any other layer):
/// together with `LayerRenderer.LeafKey`'s CALayer properties, everything its pixels depend on.
enum DrawnContent: Equatable {
    case none
    case shape(Shape)
    case gradient(Gradient)
    case text(Text)

    // The arrays are kept as the layer holds them (copying a reference, not the elements): a key
    // is made for every retained layer every frame.
    struct Shape: Equatable {
        let path: CGPath?, fillColor: CGColor?, fillRule: String
        let strokeColor: CGColor?, lineWidth: CGFloat, lineCap: String, lineJoin: String, miterLimit: CGFloat
        let dashPattern: [NSNumber]?, dashPhase: CGFloat, strokeStart: CGFloat, strokeEnd: CGFloat
    }

    struct Gradient: Equatable {
        let colors: Colors, locations: [NSNumber]?, startPoint: CGPoint, endPoint: CGPoint, type: String
    }

    /// A gradient layer's `colors` (Apple's `[Any]`), equal when they hold the same colours in the
    /// same places (an element that is not a CGColor matches only another such element).
    struct Colors: Equatable {
        let values: [Any]

        static func == (a: Colors, b: Colors) -> Bool {
            a.values.count == b.values.count && zip(a.values, b.values).allSatisfy { $0 as? CGColor == $1 as? CGColor }
        }
    }

    /// A text layer's runs (plain or attributed, fonts resolved) and layout options.
    struct Text: Equatable {
        let runs: [TextRenderer.Run]
        let alignment: String, isWrapped: Bool, truncation: String
    }

    init(_ p: CALayer) {
        // A plain layer (most of them) needs no class test.
        if type(of: p) == CALayer.self {
            self = .none
        } else if let s = p as? CAShapeLayer {
            self = .shape(Shape(path: s.path, fillColor: s.fillColor, fillRule: s.fillRule.rawValue,
                                strokeColor: s.strokeColor, lineWidth: s.lineWidth, lineCap: s.lineCap.rawValue,
                                lineJoin: s.lineJoin.rawValue, miterLimit: s.miterLimit,
                                dashPattern: s.lineDashPattern, dashPhase: s.lineDashPhase,
                                strokeStart: s.strokeStart, strokeEnd: s.strokeEnd))
        } else if let g = p as? CAGradientLayer {
            self = .gradient(Gradient(colors: Colors(values: g.colors ?? []), locations: g.locations, startPoint: g.startPoint,
                                      endPoint: g.endPoint, type: g.type.rawValue))
        } else if let t = p as? CATextLayer {
            self = .text(Text(runs: TextRenderer.runs(of: t), alignment: t.alignmentMode.rawValue,
                              isWrapped: t.isWrapped, truncation: t.truncationMode.rawValue))
        } else {
            self = .none
        }
    }
}
