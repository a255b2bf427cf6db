/// Fill rules, line caps and joins by Apple's raw strings.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}

public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}

/// A layer that draws a path (Apple's `CAShapeLayer`). Defaults are Apple's: opaque black fill,
/// no stroke, line width 1, butt caps, miter joins, miter limit 10, strokeStart 0, strokeEnd 1.
open class CAShapeLayer: CALayer {
    override class func makeCoreAnimationLayer(copying layer: CALayer?) -> CALayer { layer.map { CAShapeLayer(layer: $0) } ?? CAShapeLayer() }
    override class var presentationFollowsModelVersion: Bool { true }
    open var path: CGPath? { didSet { shapeChanged("path", oldValue) } }
    open var fillColor: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1) { didSet { shapeChanged("fillColor", oldValue) } }
    open var fillRule: CAShapeLayerFillRule = .nonZero { didSet { shapeChanged("fillRule", oldValue) } }
    open var strokeColor: CGColor? { didSet { shapeChanged("strokeColor", oldValue) } }
    open var lineWidth: CGFloat = 1 { didSet { shapeChanged("lineWidth", oldValue) } }
    open var lineCap: CAShapeLayerLineCap = .butt { didSet { shapeChanged("lineCap", oldValue) } }
    open var lineJoin: CAShapeLayerLineJoin = .miter { didSet { shapeChanged("lineJoin", oldValue) } }
    open var miterLimit: CGFloat = 10 { didSet { shapeChanged("miterLimit", oldValue) } }
    open var lineDashPattern: [NSNumber]? { didSet { shapeChanged("lineDashPattern", oldValue) } }
    open var lineDashPhase: CGFloat = 0 { didSet { shapeChanged("lineDashPhase", oldValue) } }
    /// Fraction of the path's length where the stroke starts, 0…1. Animatable.
    open var strokeStart: CGFloat = 0 { didSet { shapeChanged("strokeStart", oldValue) } }
    /// Fraction of the path's length where the stroke ends, 0…1. Animatable.
    open var strokeEnd: CGFloat = 1 { didSet { shapeChanged("strokeEnd", oldValue) } }

    open override func copyProperties(from other: CALayer) {
        super.copyProperties(from: other)
        guard let o = other as? CAShapeLayer else { return }
        path = o.path; fillColor = o.fillColor; strokeColor = o.strokeColor; lineWidth = o.lineWidth
        miterLimit = o.miterLimit; lineDashPhase = o.lineDashPhase; strokeStart = o.strokeStart; strokeEnd = o.strokeEnd
        fillRule = o.fillRule; lineCap = o.lineCap; lineJoin = o.lineJoin; lineDashPattern = o.lineDashPattern
    }

    private func shapeChanged<T>(_ key: String, _ old: T) { propertyChanged(key, old) }

    open override class var propertyRegistry: [String: LayerProperty] { Self.shapeProperties }

    private static let shapeProperties = LayerProperty.base.merging([
        "path": .init(\CAShapeLayer.path, .path),
        "fillColor": .init(\CAShapeLayer.fillColor, .color),
        "strokeColor": .init(\CAShapeLayer.strokeColor, .color),
        "lineWidth": .init(\CAShapeLayer.lineWidth, .cgFloat),
        "miterLimit": .init(\CAShapeLayer.miterLimit, .cgFloat),
        "lineDashPhase": .init(\CAShapeLayer.lineDashPhase, .cgFloat),
        "strokeStart": .init(\CAShapeLayer.strokeStart, .cgFloat),
        "strokeEnd": .init(\CAShapeLayer.strokeEnd, .cgFloat),
        "fillRule": .init(\CAShapeLayer.fillRule, .rawString, animatable: false),
        "lineCap": .init(\CAShapeLayer.lineCap, .rawString, animatable: false),
        "lineJoin": .init(\CAShapeLayer.lineJoin, .rawString, animatable: false),
        "lineDashPattern": .init(\CAShapeLayer.lineDashPattern, .numbers, animatable: false),
    ]) { $1 }
}

public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let axial = CAGradientLayerType(rawValue: "axial")
    public static let radial = CAGradientLayerType(rawValue: "radial")
    public static let conic = CAGradientLayerType(rawValue: "conic")
}

/// A layer filled with a gradient (Apple's `CAGradientLayer`): `colors` (CGColors), optional
/// `locations` (0…1, evenly spaced when nil), `startPoint` (0.5, 0) and `endPoint` (0.5, 1) in the
/// unit coordinate space of the bounds, `type` axial by default.
open class CAGradientLayer: CALayer {
    override class func makeCoreAnimationLayer(copying layer: CALayer?) -> CALayer { layer.map { CAGradientLayer(layer: $0) } ?? CAGradientLayer() }
    override class var presentationFollowsModelVersion: Bool { true }
    open var colors: [Any]? { didSet { propertyChanged("colors", oldValue) } }
    open var locations: [NSNumber]? { didSet { propertyChanged("locations", oldValue) } }
    open var startPoint = CGPoint(x: 0.5, y: 0) { didSet { propertyChanged("startPoint", oldValue) } }
    open var endPoint = CGPoint(x: 0.5, y: 1) { didSet { propertyChanged("endPoint", oldValue) } }
    open var type: CAGradientLayerType = .axial { didSet { propertyChanged("type", oldValue) } }

    open override func copyProperties(from other: CALayer) {
        super.copyProperties(from: other)
        guard let o = other as? CAGradientLayer else { return }
        type = o.type; colors = o.colors; locations = o.locations; startPoint = o.startPoint; endPoint = o.endPoint
    }

    open override class var propertyRegistry: [String: LayerProperty] { Self.gradientProperties }

    private static let gradientProperties = LayerProperty.base.merging([
        "colors": .init(\CAGradientLayer.colors, .array),
        "locations": .init(\CAGradientLayer.locations, .numbers),
        "startPoint": .init(\CAGradientLayer.startPoint, .point),
        "endPoint": .init(\CAGradientLayer.endPoint, .point),
        "type": .init(\CAGradientLayer.type, .rawString, animatable: false),
    ]) { $1 }
}

/// A layer that draws `instanceCount` copies of its sublayers (Apple's `CAReplicatorLayer`).
/// Instance i has the accumulated `instanceTransform`ⁱ (relative to the layer's centre of
/// bounds on Apple's documentation: "relative to the center of the replicator layer"), its
/// animations' time shifted by i·`instanceDelay`, and its colour multiplied by `instanceColor`
/// plus i times the colour offsets.
open class CAReplicatorLayer: CALayer {
    override class func makeCoreAnimationLayer(copying layer: CALayer?) -> CALayer { layer.map { CAReplicatorLayer(layer: $0) } ?? CAReplicatorLayer() }
    override class var presentationFollowsModelVersion: Bool { true }
    open var instanceCount: Int = 1 { didSet { propertyChanged("instanceCount", oldValue) } }
    /// Apple: whether the layer, like a CATransformLayer, keeps its sublayers in 3D instead of
    /// flattening them into its plane; default false. Stored, copied and key-value coded; not
    /// drawn yet: Citrine flattens a replicator's instances into its plane either way (README,
    /// Where Citrine approximates or chooses).
    open var preservesDepth = false { didSet { propertyChanged("preservesDepth", oldValue) } }
    open var instanceDelay: CFTimeInterval = 0 { didSet { propertyChanged("instanceDelay", oldValue) } }
    open var instanceTransform: CATransform3D = CATransform3DIdentity { didSet { propertyChanged("instanceTransform", oldValue) } }
    /// Default opaque white.
    open var instanceColor: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1) { didSet { propertyChanged("instanceColor", oldValue) } }
    open var instanceRedOffset: Float = 0 { didSet { propertyChanged("instanceRedOffset", oldValue) } }
    open var instanceGreenOffset: Float = 0 { didSet { propertyChanged("instanceGreenOffset", oldValue) } }
    open var instanceBlueOffset: Float = 0 { didSet { propertyChanged("instanceBlueOffset", oldValue) } }
    open var instanceAlphaOffset: Float = 0 { didSet { propertyChanged("instanceAlphaOffset", oldValue) } }

    open override func copyProperties(from other: CALayer) {
        super.copyProperties(from: other)
        guard let o = other as? CAReplicatorLayer else { return }
        preservesDepth = o.preservesDepth; instanceCount = o.instanceCount; instanceDelay = o.instanceDelay
        instanceTransform = o.instanceTransform; instanceColor = o.instanceColor
        instanceRedOffset = o.instanceRedOffset; instanceGreenOffset = o.instanceGreenOffset
        instanceBlueOffset = o.instanceBlueOffset; instanceAlphaOffset = o.instanceAlphaOffset
    }

    /// Colour multiplier of instance `i` (Citrine extension for the compositor): instanceColor's
    /// components plus i times the offsets, clamped to 0…1.
    package func _instanceColorComponents(_ i: Int) -> (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat) {
        let c = instanceColor?.rgba ?? (r: 1, g: 1, b: 1, a: 1)
        // NaN (a NaN component or offset) counts as 0, the clamp's lower end: it would pass
        // min/max unchanged and trap where the tint becomes an integer.
        func clamp(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, 0), 1) }
        let k = CGFloat(i)
        return (clamp(c.r + k * CGFloat(instanceRedOffset)), clamp(c.g + k * CGFloat(instanceGreenOffset)),
                clamp(c.b + k * CGFloat(instanceBlueOffset)), clamp(c.a + k * CGFloat(instanceAlphaOffset)))
    }

    open override class var propertyRegistry: [String: LayerProperty] { Self.replicatorProperties }

    private static let replicatorProperties = LayerProperty.base.merging([
        "instanceCount": .init(\CAReplicatorLayer.instanceCount, .int),
        "instanceDelay": .init(\CAReplicatorLayer.instanceDelay, .double),
        "instanceTransform": .init(\CAReplicatorLayer.instanceTransform, .transform),
        "instanceColor": .init(\CAReplicatorLayer.instanceColor, .color),
        "instanceRedOffset": .init(\CAReplicatorLayer.instanceRedOffset, .float),
        "instanceGreenOffset": .init(\CAReplicatorLayer.instanceGreenOffset, .float),
        "instanceBlueOffset": .init(\CAReplicatorLayer.instanceBlueOffset, .float),
        "instanceAlphaOffset": .init(\CAReplicatorLayer.instanceAlphaOffset, .float),
        "preservesDepth": .init(\CAReplicatorLayer.preservesDepth, .bool, animatable: false),
    ]) { $1 }
}

/// A layer whose sublayers share one 3D space instead of being flattened (Apple's
/// `CATransformLayer`); it draws no content of its own.
open class CATransformLayer: CALayer {
    override class func makeCoreAnimationLayer(copying layer: CALayer?) -> CALayer { layer.map { CATransformLayer(layer: $0) } ?? CATransformLayer() }
    override class var presentationFollowsModelVersion: Bool { true }
}

public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}

public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = CATextLayerTruncationMode(rawValue: "none")
    public static let start = CATextLayerTruncationMode(rawValue: "start")
    public static let end = CATextLayerTruncationMode(rawValue: "end")
    public static let middle = CATextLayerTruncationMode(rawValue: "middle")
}

/// A layer that draws text (Apple's `CATextLayer`). Defaults are Apple's: font size 36, white
/// foreground, natural alignment, no wrapping, no truncation. `string` is a `String`/`NSString`
/// or an `NSAttributedString` (its runs' fonts and colours then apply, and `font`, `fontSize`
/// and `foregroundColor` are unused, as Apple documents). `font` is a font name, a `CTFont`, a
/// `CGFont` (Apple: their own size is ignored, `fontSize` applies) or a UI layer `UIFont`;
/// Helvetica by default. Layout rules (wrapping, truncation, justification): CoreText's
/// `TextLayout`.
open class CATextLayer: CALayer {
    override class func makeCoreAnimationLayer(copying layer: CALayer?) -> CALayer { layer.map { CATextLayer(layer: $0) } ?? CATextLayer() }
    open var string: Any? { didSet { propertyChanged("string", oldValue) } }
    open var font: Any? = "Helvetica" { didSet { propertyChanged("font", oldValue) } }
    open var fontSize: CGFloat = 36 { didSet { propertyChanged("fontSize", oldValue) } }
    open var foregroundColor: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1) { didSet { propertyChanged("foregroundColor", oldValue) } }
    open var isWrapped = false { didSet { propertyChanged("isWrapped", oldValue) } }
    open var truncationMode: CATextLayerTruncationMode = .none { didSet { propertyChanged("truncationMode", oldValue) } }
    open var alignmentMode: CATextLayerAlignmentMode = .natural { didSet { propertyChanged("alignmentMode", oldValue) } }

    open override func copyProperties(from other: CALayer) {
        super.copyProperties(from: other)
        guard let o = other as? CATextLayer else { return }
        string = o.string; fontSize = o.fontSize; foregroundColor = o.foregroundColor
        font = o.font; isWrapped = o.isWrapped; truncationMode = o.truncationMode; alignmentMode = o.alignmentMode
    }

    open override class var propertyRegistry: [String: LayerProperty] { Self.textProperties }

    private static let textProperties = LayerProperty.base.merging([
        "string": .init(\CATextLayer.string, .any),
        "fontSize": .init(\CATextLayer.fontSize, .cgFloat),
        "foregroundColor": .init(\CATextLayer.foregroundColor, .color),
        "font": .init(\CATextLayer.font, .any, animatable: false),
        "wrapped": .init(\CATextLayer.isWrapped, .bool, animatable: false),
        "truncationMode": .init(\CATextLayer.truncationMode, .rawString, animatable: false),
        "alignmentMode": .init(\CATextLayer.alignmentMode, .rawString, animatable: false),
    ]) { $1 }
}
