/// The stored values behind `CALayer`'s observed properties (defaults are Apple's).
///
/// One struct, so that a presentation copy is one assignment, and animations write straight
/// into a presentation's state through `StateField` instead of going through observed setters
/// and key paths once per property per frame.
///
/// Two parts, so that the memory a frame touches per layer stays small (100 000 animated layers
/// are a model and a presentation object each, read every frame): the timing, geometry and
/// number properties that animations commonly drive are stored inline (18 fields, 152 bytes; a
/// compiled animation writes them by byte offset, `StateField.slot`), and everything else sits
/// in one copy-on-write `Cold` box, reached through `@dynamicMemberLookup` with the same
/// names (`state.shadowColor`). A presentation copy shares its model's box until one of them
/// writes a cold property.
@dynamicMemberLookup
struct LayerState {
    // Inline: what every frame reads, timing first.
    var beginTime: CFTimeInterval = 0
    var speed: Float = 1
    var opacity: Float = 1
    var timeOffset: CFTimeInterval = 0
    var position: CGPoint = .zero
    var bounds: CGRect = .zero
    var zPosition: CGFloat = 0
    var anchorPoint: CGPoint = CGPoint(x: 0.5, y: 0.5)
    var anchorPointZ: CGFloat = 0
    var borderWidth: CGFloat = 0
    var cornerRadius: CGFloat = 0
    var contentsScale: CGFloat = 1
    var shadowRadius: CGFloat = 3
    var shadowOpacity: Float = 0
    var isHidden: Bool = false
    var masksToBounds: Bool = false
    var isDoubleSided: Bool = true
    /// Which rarely used rendering options differ from their defaults (`CALayer._renderingOptions`),
    /// kept by their setters: a renderer tests this one inline word per layer per frame.
    var renderingOptions: CALayer._RenderingOptions = []
    private var cold = ColdBox.defaults

    /// Whether beginTime, speed and timeOffset are the same (bit for bit, so NaN equals itself).
    func hasSameTiming(as other: borrowing LayerState) -> Bool {
        beginTime.bitPattern == other.beginTime.bitPattern && speed.bitPattern == other.speed.bitPattern
            && timeOffset.bitPattern == other.timeOffset.bitPattern
    }

    /// The properties kept out of line (Apple's defaults).
    struct Cold {
        var transform: CATransform3D = CATransform3DIdentity
        var sublayerTransform: CATransform3D = CATransform3DIdentity
        var backgroundColor: CGColor? = nil
        var borderColor: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        var mask: CALayer? = nil
        var contents: Any? = nil
        var contentsRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
        var contentsCenter: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
        var shadowColor: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        var shadowOffset: CGSize = CGSize(width: 0, height: -3)
        var shadowPath: CGPath? = nil
        /// +∞ for a layer, as on Apple (`CALayer.duration`).
        var duration: CFTimeInterval = .infinity
        var repeatCount: Float = 0
        var repeatDuration: CFTimeInterval = 0
        var autoreverses: Bool = false
        var fillMode: CAMediaTimingFillMode = .removed
        var maskedCorners: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
        var isOpaque: Bool = false
        var isGeometryFlipped: Bool = false
        var allowsGroupOpacity: Bool = true
        var allowsEdgeAntialiasing: Bool = true
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
        /// `filters`, `backgroundFilters`, `compositingFilter` (nil while all are nil).
        var filterSet: LayerFilterSet? = nil
    }

    /// `Cold`'s copy-on-write box. `@unchecked Sendable` for `defaults` only: the shared default
    /// box is never written (a write needs a uniquely referenced box, and `defaults` itself
    /// always holds a reference), so a state that writes copies it first.
    private final class ColdBox: @unchecked Sendable {
        /// `@exclusivity(unchecked)`: every read of a cold property (a renderer reads a dozen per
        /// layer per frame) would otherwise pay Swift's dynamic exclusivity check, ≈ 80
        /// instructions. Accesses never overlap: the box is reached only through the subscript
        /// below, which reads or writes one property and touches nothing else meanwhile.
        @exclusivity(unchecked) var values: Cold
        init(_ values: Cold) { self.values = values }
        /// Apple's defaults, shared by every state until it writes a cold property (a layer
        /// whose cold properties keep their defaults allocates no box).
        static let defaults = ColdBox(Cold())
    }

    subscript<T>(dynamicMember key: WritableKeyPath<Cold, T>) -> T {
        get { cold.values[keyPath: key] }
        _modify {
            if !isKnownUniquelyReferenced(&cold) { cold = ColdBox(cold.values) }
            yield &cold.values[keyPath: key]
        }
    }
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

    /// How a number or point field is stored in `LayerState`, for compiled animations that read
    /// and write it by address (`AnimationProgram`).
    enum Scalar: UInt8 {
        case float, cgFloat, double, point

        /// The number at `p` (not for `.point`).
        @inline(__always)
        func number(at p: UnsafeRawPointer) -> Double {
            switch self {
            case .float: Double(p.load(as: Float.self))
            case .cgFloat: Double(p.load(as: CGFloat.self))
            case .double, .point: p.load(as: Double.self)
            }
        }

        /// Stores `x` at `p`, converted as `StateField.set` converts a `.number` (not for `.point`).
        @inline(__always)
        func setNumber(_ x: Double, at p: UnsafeMutableRawPointer) {
            switch self {
            case .float: p.storeBytes(of: Float(x), as: Float.self)
            case .cgFloat: p.storeBytes(of: CGFloat(x), as: CGFloat.self)
            case .double, .point: p.storeBytes(of: x, as: Double.self)
            }
        }

        /// Copies the value at `source` to `target`.
        @inline(__always)
        func copy(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer) {
            switch self {
            case .float: target.storeBytes(of: source.load(as: UInt32.self), as: UInt32.self)
            case .cgFloat, .double: target.storeBytes(of: source.load(as: UInt64.self), as: UInt64.self)
            case .point: target.storeBytes(of: source.load(as: CGPoint.self), as: CGPoint.self)
            }
        }
    }

    /// Where the field lives in `LayerState` (byte offset) and how, when it holds a number or a
    /// point; nil for every other kind.
    var slot: (offset: Int, scalar: Scalar)? {
        func at(_ field: PartialKeyPath<LayerState>, _ scalar: Scalar) -> (offset: Int, scalar: Scalar) {
            (MemoryLayout<LayerState>.offset(of: field)!, scalar)
        }
        return switch self {
        case .position: at(\.position, .point)
        case .anchorPoint: at(\.anchorPoint, .point)
        case .zPosition: at(\.zPosition, .cgFloat)
        case .anchorPointZ: at(\.anchorPointZ, .cgFloat)
        case .borderWidth: at(\.borderWidth, .cgFloat)
        case .cornerRadius: at(\.cornerRadius, .cgFloat)
        case .contentsScale: at(\.contentsScale, .cgFloat)
        case .shadowRadius: at(\.shadowRadius, .cgFloat)
        case .opacity: at(\.opacity, .float)
        case .shadowOpacity: at(\.shadowOpacity, .float)
        case .speed: at(\.speed, .float)
        case .beginTime: at(\.beginTime, .double)
        case .timeOffset: at(\.timeOffset, .double)
        default: nil
        }
    }

    private static func store<V>(_ v: AnimatableValue, _ codec: Codec<V>, _ field: inout V) {
        if let decoded = codec.decode(v) { field = decoded }
    }
}
