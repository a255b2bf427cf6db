/// The stored values behind `CALayer`'s observed properties (defaults are Apple's).
///
/// One struct, so that a presentation copy is one assignment, and animations write straight
/// into a presentation's state through `StateField` instead of going through observed setters
/// and key paths once per property per frame.
struct LayerState {
    // The timing and the most often animated properties first: a frame reads them together.
    var beginTime: CFTimeInterval = 0
    var speed: Float = 1
    var opacity: Float = 1
    var timeOffset: CFTimeInterval = 0
    var position: CGPoint = .zero
    var bounds: CGRect = .zero
    var zPosition: CGFloat = 0
    var anchorPoint: CGPoint = CGPoint(x: 0.5, y: 0.5)
    var anchorPointZ: CGFloat = 0
    var transform: CATransform3D = CATransform3DIdentity
    var sublayerTransform: CATransform3D = CATransform3DIdentity
    var isHidden: Bool = false
    var backgroundColor: CGColor? = nil
    var borderWidth: CGFloat = 0
    var borderColor: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    var cornerRadius: CGFloat = 0
    var masksToBounds: Bool = false
    var mask: CALayer? = nil
    var isDoubleSided: Bool = true
    var contents: Any? = nil
    var contentsRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsCenter: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsScale: CGFloat = 1
    var shadowColor: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    var shadowOpacity: Float = 0
    var shadowOffset: CGSize = CGSize(width: 0, height: -3)
    var shadowRadius: CGFloat = 3
    var shadowPath: CGPath? = nil
    var duration: CFTimeInterval = .infinity
    var repeatCount: Float = 0
    var repeatDuration: CFTimeInterval = 0
    var autoreverses: Bool = false
    var fillMode: CAMediaTimingFillMode = .removed
    var maskedCorners: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
    var isOpaque: Bool = false
    var isGeometryFlipped: Bool = false
    var allowsGroupOpacity: Bool = true
    var allowsEdgeAntialiasing: Bool = false
    var shouldRasterize: Bool = false
    var rasterizationScale: CGFloat = 1
    var cornerCurve: CALayerCornerCurve = .circular
    var edgeAntialiasingMask: CAEdgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]
    var minificationFilter: CALayerContentsFilter = .linear
    var magnificationFilter: CALayerContentsFilter = .linear
    var minificationFilterBias: Float = 0
    var contentsFormat: CALayerContentsFormat = .RGBA8Uint
    var drawsAsynchronously: Bool = false
    var name: String? = nil
    var style: [AnyHashable: Any]? = nil
    var actions: [String: CAAction]? = nil
    var contentsGravity: CALayerContentsGravity = .resize
    var needsDisplayOnBoundsChange: Bool = false
}

/// A `LayerState` property an animation can target, resolved once from its key (see
/// `LayerProperty.field`): reading and writing it is a switch, not a key-path lookup.
enum StateField: Sendable {
    case bounds, position, zPosition, anchorPoint, anchorPointZ, transform, sublayerTransform
    case hidden, opacity, backgroundColor, borderWidth, borderColor, cornerRadius, masksToBounds
    case mask, doubleSided, contents, contentsRect, contentsCenter, contentsScale
    case shadowColor, shadowOpacity, shadowOffset, shadowRadius, shadowPath
    case beginTime, speed, timeOffset

    /// The field's value in `s`, in the form animations interpolate.
    func value(in s: borrowing LayerState) -> AnimatableValue {
        switch self {
        case .bounds: .rect(s.bounds)
        case .position: .point(s.position)
        case .zPosition: .number(Double(s.zPosition))
        case .anchorPoint: .point(s.anchorPoint)
        case .anchorPointZ: .number(Double(s.anchorPointZ))
        case .transform: .transform(s.transform)
        case .sublayerTransform: .transform(s.sublayerTransform)
        case .hidden: Codec.bool.encode(s.isHidden)
        case .opacity: .number(Double(s.opacity))
        case .backgroundColor: Codec.color.encode(s.backgroundColor)
        case .borderWidth: .number(Double(s.borderWidth))
        case .borderColor: Codec.color.encode(s.borderColor)
        case .cornerRadius: .number(Double(s.cornerRadius))
        case .masksToBounds: Codec.bool.encode(s.masksToBounds)
        case .mask: Codec.layer.encode(s.mask)
        case .doubleSided: Codec.bool.encode(s.isDoubleSided)
        case .contents: Codec.any.encode(s.contents)
        case .contentsRect: .rect(s.contentsRect)
        case .contentsCenter: .rect(s.contentsCenter)
        case .contentsScale: .number(Double(s.contentsScale))
        case .shadowColor: Codec.color.encode(s.shadowColor)
        case .shadowOpacity: .number(Double(s.shadowOpacity))
        case .shadowOffset: .size(s.shadowOffset)
        case .shadowRadius: .number(Double(s.shadowRadius))
        case .shadowPath: Codec.path.encode(s.shadowPath)
        case .beginTime: .number(s.beginTime)
        case .speed: .number(Double(s.speed))
        case .timeOffset: .number(s.timeOffset)
        }
    }

    /// Stores `v` in the field; a value that does not convert to the field's type is ignored.
    func set(_ v: AnimatableValue, in s: inout LayerState) {
        switch self {
        case .bounds: Self.store(v, .rect, &s.bounds)
        case .position: Self.store(v, .point, &s.position)
        case .zPosition: Self.store(v, .cgFloat, &s.zPosition)
        case .anchorPoint: Self.store(v, .point, &s.anchorPoint)
        case .anchorPointZ: Self.store(v, .cgFloat, &s.anchorPointZ)
        case .transform: Self.store(v, .transform, &s.transform)
        case .sublayerTransform: Self.store(v, .transform, &s.sublayerTransform)
        case .hidden: Self.store(v, .bool, &s.isHidden)
        case .opacity: Self.store(v, .float, &s.opacity)
        case .backgroundColor: Self.store(v, .color, &s.backgroundColor)
        case .borderWidth: Self.store(v, .cgFloat, &s.borderWidth)
        case .borderColor: Self.store(v, .color, &s.borderColor)
        case .cornerRadius: Self.store(v, .cgFloat, &s.cornerRadius)
        case .masksToBounds: Self.store(v, .bool, &s.masksToBounds)
        case .mask: Self.store(v, .layer, &s.mask)
        case .doubleSided: Self.store(v, .bool, &s.isDoubleSided)
        case .contents: Self.store(v, .any, &s.contents)
        case .contentsRect: Self.store(v, .rect, &s.contentsRect)
        case .contentsCenter: Self.store(v, .rect, &s.contentsCenter)
        case .contentsScale: Self.store(v, .cgFloat, &s.contentsScale)
        case .shadowColor: Self.store(v, .color, &s.shadowColor)
        case .shadowOpacity: Self.store(v, .float, &s.shadowOpacity)
        case .shadowOffset: Self.store(v, .size, &s.shadowOffset)
        case .shadowRadius: Self.store(v, .cgFloat, &s.shadowRadius)
        case .shadowPath: Self.store(v, .path, &s.shadowPath)
        case .beginTime: Self.store(v, .double, &s.beginTime)
        case .speed: Self.store(v, .float, &s.speed)
        case .timeOffset: Self.store(v, .double, &s.timeOffset)
        }
    }

    /// Copies the field from a model's state (by address: `CALayer.withUnsafeState`) into `s`
    /// (no conversion; one field read, never a copy of the whole state).
    func copy(from model: UnsafeMutablePointer<LayerState>, to s: inout LayerState) {
        switch self {
        case .bounds: s.bounds = model.pointee.bounds
        case .position: s.position = model.pointee.position
        case .zPosition: s.zPosition = model.pointee.zPosition
        case .anchorPoint: s.anchorPoint = model.pointee.anchorPoint
        case .anchorPointZ: s.anchorPointZ = model.pointee.anchorPointZ
        case .transform: s.transform = model.pointee.transform
        case .sublayerTransform: s.sublayerTransform = model.pointee.sublayerTransform
        case .hidden: s.isHidden = model.pointee.isHidden
        case .opacity: s.opacity = model.pointee.opacity
        case .backgroundColor: s.backgroundColor = model.pointee.backgroundColor
        case .borderWidth: s.borderWidth = model.pointee.borderWidth
        case .borderColor: s.borderColor = model.pointee.borderColor
        case .cornerRadius: s.cornerRadius = model.pointee.cornerRadius
        case .masksToBounds: s.masksToBounds = model.pointee.masksToBounds
        case .mask: s.mask = model.pointee.mask
        case .doubleSided: s.isDoubleSided = model.pointee.isDoubleSided
        case .contents: s.contents = model.pointee.contents
        case .contentsRect: s.contentsRect = model.pointee.contentsRect
        case .contentsCenter: s.contentsCenter = model.pointee.contentsCenter
        case .contentsScale: s.contentsScale = model.pointee.contentsScale
        case .shadowColor: s.shadowColor = model.pointee.shadowColor
        case .shadowOpacity: s.shadowOpacity = model.pointee.shadowOpacity
        case .shadowOffset: s.shadowOffset = model.pointee.shadowOffset
        case .shadowRadius: s.shadowRadius = model.pointee.shadowRadius
        case .shadowPath: s.shadowPath = model.pointee.shadowPath
        case .beginTime: s.beginTime = model.pointee.beginTime
        case .speed: s.speed = model.pointee.speed
        case .timeOffset: s.timeOffset = model.pointee.timeOffset
        }
    }

    /// What the field holds, for animations evaluated on plain numbers and points.
    enum Kind { case number, point, other }

    var kind: Kind {
        switch self {
        case .position, .anchorPoint: .point
        case .zPosition, .anchorPointZ, .opacity, .borderWidth, .cornerRadius, .contentsScale,
             .shadowOpacity, .shadowRadius, .beginTime, .speed, .timeOffset: .number
        default: .other
        }
    }

    /// The value of a `.number` field (as `value(in:)` gives it).
    func number(in s: borrowing LayerState) -> Double {
        if case let .number(x) = value(in: s) { return x }
        return 0
    }

    /// The value of a `.point` field.
    func point(in s: borrowing LayerState) -> CGPoint {
        if case let .point(p) = value(in: s) { return p }
        return .zero
    }

    /// Stores a number in a `.number` field (converted as `set` converts `.number`).
    func setNumber(_ x: Double, in s: inout LayerState) {
        switch self {
        case .zPosition: s.zPosition = CGFloat(x)
        case .anchorPointZ: s.anchorPointZ = CGFloat(x)
        case .opacity: s.opacity = Float(x)
        case .borderWidth: s.borderWidth = CGFloat(x)
        case .cornerRadius: s.cornerRadius = CGFloat(x)
        case .contentsScale: s.contentsScale = CGFloat(x)
        case .shadowOpacity: s.shadowOpacity = Float(x)
        case .shadowRadius: s.shadowRadius = CGFloat(x)
        case .beginTime: s.beginTime = x
        case .speed: s.speed = Float(x)
        case .timeOffset: s.timeOffset = x
        default: set(.number(x), in: &s)
        }
    }

    /// Stores a point in a `.point` field.
    func setPoint(_ p: CGPoint, in s: inout LayerState) {
        switch self {
        case .position: s.position = p
        case .anchorPoint: s.anchorPoint = p
        default: set(.point(p), in: &s)
        }
    }

    private static func store<V>(_ v: AnimatableValue, _ codec: Codec<V>, _ field: inout V) {
        if let decoded = codec.decode(v) { field = decoded }
    }
}
