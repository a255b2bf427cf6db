/// One key-value-coded layer property: how to read and write it, and whether it animates
/// implicitly. Layers look properties up in their class's `propertyRegistry` (no scattered
/// `switch` over keys); subclasses add theirs on top of `CALayer`'s.
public struct LayerProperty: @unchecked Sendable {
    /// The value as its property type, boxed (what `value(forKey:)` returns).
    let get: (CALayer) -> Any?
    /// The value as an `AnimatableValue`, without boxing (the animation path).
    let getValue: (CALayer) -> AnimatableValue
    /// Stores a converted value; ignored when it does not convert to the property's type.
    let setValue: (CALayer, AnimatableValue) -> Void
    /// Changing it runs an implicit action (Apple's "animatable" properties).
    let isAnimatable: Bool
    /// Where the value lives in `LayerState`, for properties stored there: animations of it
    /// write the presentation's state directly. nil for subclass properties.
    let field: StateField?
    /// Computed from other properties (`frame`): animations of it have no effect, as on Apple,
    /// where `frame` is not animatable.
    let isDerived: Bool

    init<L: CALayer, V>(_ keyPath: ReferenceWritableKeyPath<L, V>, _ codec: Codec<V>, animatable: Bool = true,
                        field: StateField? = nil, derived: Bool = false) {
        get = { ($0 as? L).map { codec.box($0[keyPath: keyPath]) } ?? nil }
        getValue = { layer in (layer as? L).map { codec.encode($0[keyPath: keyPath]) } ?? .discrete(nil) }
        setValue = { layer, value in
            guard let l = layer as? L, let v = codec.decode(value) else { return }
            l[keyPath: keyPath] = v
        }
        isAnimatable = animatable
        self.field = field
        isDerived = derived
    }

    /// Stores a KVC value (native Swift value, NSNumber or NSValue).
    func set(_ layer: CALayer, _ value: Any?) { setValue(layer, AnimatableValue(value)) }

    static let base: [String: LayerProperty] = [
        "bounds": .init(\CALayer.bounds, .rect, field: .bounds),
        "position": .init(\CALayer.position, .point, field: .position),
        "zPosition": .init(\CALayer.zPosition, .cgFloat, field: .zPosition),
        "anchorPoint": .init(\CALayer.anchorPoint, .point, field: .anchorPoint),
        "anchorPointZ": .init(\CALayer.anchorPointZ, .cgFloat, field: .anchorPointZ),
        "transform": .init(\CALayer.transform, .transform, field: .transform),
        "sublayerTransform": .init(\CALayer.sublayerTransform, .transform, field: .sublayerTransform),
        "frame": .init(\CALayer.frame, .rect, animatable: false, derived: true),
        "hidden": .init(\CALayer.isHidden, .bool, field: .hidden),
        "opacity": .init(\CALayer.opacity, .float, field: .opacity),
        "backgroundColor": .init(\CALayer.backgroundColor, .color, field: .backgroundColor),
        "borderWidth": .init(\CALayer.borderWidth, .cgFloat, field: .borderWidth),
        "borderColor": .init(\CALayer.borderColor, .color, field: .borderColor),
        "cornerRadius": .init(\CALayer.cornerRadius, .cgFloat, field: .cornerRadius),
        "masksToBounds": .init(\CALayer.masksToBounds, .bool, field: .masksToBounds),
        "mask": .init(\CALayer.mask, .layer, animatable: false, field: .mask),
        "doubleSided": .init(\CALayer.isDoubleSided, .bool, field: .doubleSided),
        "contents": .init(\CALayer.contents, .any, field: .contents),
        "contentsRect": .init(\CALayer.contentsRect, .rect, field: .contentsRect),
        "contentsCenter": .init(\CALayer.contentsCenter, .rect, field: .contentsCenter),
        "contentsScale": .init(\CALayer.contentsScale, .cgFloat, animatable: false, field: .contentsScale),
        "shadowColor": .init(\CALayer.shadowColor, .color, field: .shadowColor),
        "shadowOpacity": .init(\CALayer.shadowOpacity, .float, field: .shadowOpacity),
        "shadowOffset": .init(\CALayer.shadowOffset, .size, field: .shadowOffset),
        "shadowRadius": .init(\CALayer.shadowRadius, .cgFloat, field: .shadowRadius),
        "shadowPath": .init(\CALayer.shadowPath, .path, field: .shadowPath),
        "beginTime": .init(\CALayer.beginTime, .double, animatable: false, field: .beginTime),
        "speed": .init(\CALayer.speed, .float, animatable: false, field: .speed),
        "timeOffset": .init(\CALayer.timeOffset, .double, animatable: false, field: .timeOffset),
        "duration": .init(\CALayer.duration, .double, animatable: false),
        "repeatCount": .init(\CALayer.repeatCount, .float, animatable: false),
        "repeatDuration": .init(\CALayer.repeatDuration, .double, animatable: false),
        "autoreverses": .init(\CALayer.autoreverses, .bool, animatable: false),
        "fillMode": .init(\CALayer.fillMode, .rawString, animatable: false),
        "maskedCorners": .init(\CALayer.maskedCorners, .bits, animatable: false),
        "opaque": .init(\CALayer.isOpaque, .bool, animatable: false),
        "geometryFlipped": .init(\CALayer.isGeometryFlipped, .bool, animatable: false),
        "allowsGroupOpacity": .init(\CALayer.allowsGroupOpacity, .bool, animatable: false),
        "allowsEdgeAntialiasing": .init(\CALayer.allowsEdgeAntialiasing, .bool, animatable: false),
        "shouldRasterize": .init(\CALayer.shouldRasterize, .bool, animatable: false),
        "rasterizationScale": .init(\CALayer.rasterizationScale, .cgFloat, animatable: false),
        "cornerCurve": .init(\CALayer.cornerCurve, .rawString, animatable: false),
        "edgeAntialiasingMask": .init(\CALayer.edgeAntialiasingMask, .bits, animatable: false),
        "minificationFilter": .init(\CALayer.minificationFilter, .rawString, animatable: false),
        "magnificationFilter": .init(\CALayer.magnificationFilter, .rawString, animatable: false),
        "minificationFilterBias": .init(\CALayer.minificationFilterBias, .float, animatable: false),
        "contentsFormat": .init(\CALayer.contentsFormat, .rawString, animatable: false),
        "contentsGravity": .init(\CALayer.contentsGravity, .rawString, animatable: false),
        "drawsAsynchronously": .init(\CALayer.drawsAsynchronously, .bool, animatable: false),
        "needsDisplayOnBoundsChange": .init(\CALayer.needsDisplayOnBoundsChange, .bool, animatable: false),
        "name": .init(\CALayer.name, .opaque(), animatable: false),
        "sublayers": .init(\CALayer.sublayers, .opaque(), animatable: false),
        "delegate": .init(\CALayer.delegate, .opaque(), animatable: false),
        "style": .init(\CALayer.style, .opaque(), animatable: false),
        "actions": .init(\CALayer.actions, .opaque(), animatable: false),
        // Whole filter lists do not animate implicitly; their inputs do, by key path (CALayer+Filters).
        "filters": .init(\CALayer.filters, .filterList, animatable: false),
        "backgroundFilters": .init(\CALayer.backgroundFilters, .filterList, animatable: false),
        "compositingFilter": .init(\CALayer.compositingFilter, .compositingFilter, animatable: false),
    ]
}

/// How one property type converts to and from `AnimatableValue` (KVC accepts native Swift values,
/// NSNumber and NSValue; they arrive here already converted by `AnimatableValue.init`).
struct Codec<V> {
    let encode: (V) -> AnimatableValue
    let decode: (AnimatableValue) -> V?
    /// What `value(forKey:)` returns for a value (default: the value itself).
    var box: (V) -> Any? = { $0 }
}

extension Codec where V == Double {
    static var double: Codec { Codec(encode: { .number($0) }, decode: { if case let .number(n) = $0 { return n } else { return nil } }) }
}
extension Codec where V == CGFloat {
    static var cgFloat: Codec { Codec(encode: { .number(Double($0)) }, decode: { Codec<Double>.double.decode($0).map { CGFloat($0) } }) }
}
extension Codec where V == Float {
    static var float: Codec { Codec(encode: { .number(Double($0)) }, decode: { Codec<Double>.double.decode($0).map { Float($0) } }) }
}
extension Codec where V == Int {
    /// A number with its fraction dropped; one that is no Int (NaN, ±∞, beyond ±2⁶³) is ignored,
    /// as a value of the wrong type is, rather than trapping.
    static var int: Codec {
        Codec(encode: { .number(Double($0)) },
              decode: { Codec<Double>.double.decode($0).flatMap { Int(exactly: $0.rounded(.towardZero)) } })
    }
}
extension Codec where V == Bool {
    static var bool: Codec {
        Codec(encode: { .discrete($0) }, decode: { v in
            if case let .discrete(b as Bool) = v { return b }
            return Codec<Double>.double.decode(v).map { $0 != 0 }
        })
    }
}
extension Codec where V == CGPoint {
    static var point: Codec { Codec(encode: { .point($0) }, decode: { if case let .point(p) = $0 { return p } else { return nil } }) }
}
extension Codec where V == CGSize {
    static var size: Codec { Codec(encode: { .size($0) }, decode: { if case let .size(s) = $0 { return s } else { return nil } }) }
}
extension Codec where V == CGRect {
    static var rect: Codec { Codec(encode: { .rect($0) }, decode: { if case let .rect(r) = $0 { return r } else { return nil } }) }
}
extension Codec where V == CATransform3D {
    static var transform: Codec {
        Codec(encode: { .transform($0) }, decode: { v in
            switch v {
            case let .transform(t): return t
            case let .affine(a): return CATransform3DMakeAffineTransform(a)
            default: return nil
            }
        })
    }
}
extension Codec where V == CGColor? {
    /// nil (or NSNull) clears the colour.
    static var color: Codec {
        Codec(encode: { $0.map { .color($0) } ?? .discrete(nil) }, decode: { v in
            switch v {
            case let .color(c): return .some(c)
            case .discrete(nil), .discrete(is NSNull): return .some(nil)
            default: return nil
            }
        })
    }
}
extension Codec where V == CGPath? {
    static var path: Codec {
        Codec(encode: { $0.map { .path($0) } ?? .discrete(nil) }, decode: { v in
            if case let .path(p) = v { return .some(p) }
            if case .discrete(nil) = v { return .some(nil) }
            return nil
        })
    }
}
extension Codec where V == CALayer? {
    static var layer: Codec {
        Codec(encode: { .discrete($0) }, decode: { v in
            if case let .discrete(l) = v { return .some(l as? CALayer) }
            return nil
        })
    }
}
extension Codec where V: RawRepresentable, V.RawValue == String {
    /// Apple's string constants (`lineCap`, `fillMode`, …): read back as the raw `String` (they are
    /// `NSString`s on Apple), written from a `String` or the typed constant.
    static var rawString: Codec {
        Codec(encode: { .discrete($0.rawValue) }, decode: { v in
            guard case let .discrete(x) = v else { return nil }
            return (x as? V) ?? (x as? String).flatMap(V.init(rawValue:))
        }, box: { $0.rawValue })
    }
}
extension Codec where V: OptionSet, V.RawValue: BinaryInteger {
    /// Option sets (`maskedCorners`, `edgeAntialiasingMask`): their raw bits as a number.
    static var bits: Codec {
        Codec(encode: { .number(Double($0.rawValue)) }, decode: { v in
            if case let .discrete(set as V) = v { return set }
            guard case let .number(n) = v, n >= 0, n < 65_536 else { return nil }
            return V(rawValue: V.RawValue(n))
        }, box: { Int($0.rawValue) })
    }
}
extension Codec {
    /// An optional value kept as given (`name`, `style`, `actions`, `font`): nil or `NSNull`
    /// clears it; a value of another type is ignored.
    static func opaque<T>() -> Codec<T?> where V == T? {
        Codec<T?>(encode: { .discrete($0) }, decode: { v in
            switch v.value {
            case nil, is NSNull: return .some(nil)
            case let x as T: return .some(x)
            default: return nil
            }
        })
    }
}
extension Codec where V == Any? {
    static var any: Codec { Codec(encode: { AnimatableValue($0) }, decode: { .some($0.value) }) }
    /// `compositingFilter`: as `any`, and read back as nil when unset.
    static var compositingFilter: Codec {
        var codec = Codec.any
        codec.box = { $0 }
        return codec
    }
}
extension Codec where V == [Any]? {
    static var array: Codec { Codec(encode: { AnimatableValue($0) }, decode: { $0.value as? [Any] }) }
}
extension Codec where V == [Any]? {
    /// A filter list (`filters`, `backgroundFilters`): an array kept as given, nil or `NSNull`
    /// clears it; a value of another type is ignored.
    static var filterList: Codec {
        Codec(encode: { .discrete($0) }, decode: { v in
            switch v.value {
            case nil, is NSNull: return .some(nil)
            case let list as [Any]: return .some(list)
            default: return nil
            }
        }, box: { $0 })
    }
}
extension Codec where V == [NSNumber]? {
    static var numbers: Codec {
        Codec(encode: { AnimatableValue($0?.map { $0.doubleValue }) }, decode: { v in
            guard case let .array(items) = v else { return nil }
            return items.compactMap { Codec<Double>.double.decode($0).map { NSNumber(value: $0) } }
        })
    }
}

/// A field inside a structured value, named by the sub-key path after a property (Apple's KVC
/// extensions): `position.x`, `bounds.size.width`, `bounds.origin.x`, `shadowOffset.height`,
/// and the transform fields `transform.rotation(.x/.y/.z)`, `transform.scale(.x/.y/.z)`,
/// `transform.translation(.x/.y/.z)`. Parsed once per key path, so animations of sub-key paths
/// compare no strings per frame.
///
/// Transform fields read and write a decomposition M = S · Rx · Ry · Rz · T (row vectors: scale
/// first, then rotations about x, y, z, then translation), the order Apple's documentation of
/// the transform key paths implies. `transform.rotation` is the z rotation, `transform.scale`
/// the mean of the three scale factors (setting it sets all three), `transform.translation` a CGSize.
enum ValueComponent: UInt8, Sendable {
    /// Point or rect: `x`, `y`, `width`, `height`; rect only: the `origin.`/`size.` spellings.
    case x, y, width, height, origin, size, originX, originY, sizeWidth, sizeHeight
    case rotationX, rotationY, rotationZ, scale, scaleX, scaleY, scaleZ
    case translation, translationX, translationY, translationZ

    /// The component named by the parts after the property, or nil when there is none such.
    init?(_ parts: [Substring]) {
        switch parts.joined(separator: ".") {
        case "x": self = .x
        case "y": self = .y
        case "width": self = .width
        case "height": self = .height
        case "origin": self = .origin
        case "size": self = .size
        case "origin.x": self = .originX
        case "origin.y": self = .originY
        case "size.width": self = .sizeWidth
        case "size.height": self = .sizeHeight
        case "rotation", "rotation.z": self = .rotationZ
        case "rotation.x": self = .rotationX
        case "rotation.y": self = .rotationY
        case "scale": self = .scale
        case "scale.x": self = .scaleX
        case "scale.y": self = .scaleY
        case "scale.z": self = .scaleZ
        case "translation": self = .translation
        case "translation.x": self = .translationX
        case "translation.y": self = .translationY
        case "translation.z": self = .translationZ
        default: return nil
        }
    }

    /// The component of `value`, or nil when `value` has no such component.
    func get(_ value: AnimatableValue) -> AnimatableValue? {
        func n(_ v: CGFloat) -> AnimatableValue { .number(Double(v)) }
        switch (value, self) {
        case let (.point(p), .x): return n(p.x)
        case let (.point(p), .y): return n(p.y)
        case let (.size(s), .width): return n(s.width)
        case let (.size(s), .height): return n(s.height)
        case let (.rect(r), .origin): return .point(r.origin)
        case let (.rect(r), .size): return .size(r.size)
        case let (.rect(r), .x), let (.rect(r), .originX): return n(r.minX)
        case let (.rect(r), .y), let (.rect(r), .originY): return n(r.minY)
        case let (.rect(r), .width), let (.rect(r), .sizeWidth): return n(r.width)
        case let (.rect(r), .height), let (.rect(r), .sizeHeight): return n(r.height)
        case let (.transform(t), _): return transformField(TransformFields(t))
        default: return nil
        }
    }

    /// Whether this is a number among a transform's parts (every transform component but
    /// `translation`, which is a size): what a compiled animation track can set
    /// (`AnimationProgram`).
    var isTransformNumber: Bool {
        switch self {
        case .rotationX, .rotationY, .rotationZ, .scale, .scaleX, .scaleY, .scaleZ,
             .translationX, .translationY, .translationZ: true
        default: false
        }
    }

    /// The number this component names among the parts `d` (`isTransformNumber`; 0 otherwise).
    func number(in d: TransformFields) -> CGFloat {
        if case let .number(x)? = transformField(d) { CGFloat(x) } else { 0 }
    }

    /// Sets the number this component names among the parts `d`, as `set` does (`isTransformNumber`).
    func setNumber(_ n: CGFloat, in d: inout TransformFields) {
        _ = setTransformField(&d, n, .number(Double(n)))
    }

    private func transformField(_ d: TransformFields) -> AnimatableValue? {
        func n(_ v: CGFloat) -> AnimatableValue { .number(Double(v)) }
        switch self {
        case .rotationZ: return n(d.rotation.z)
        case .rotationX: return n(d.rotation.x)
        case .rotationY: return n(d.rotation.y)
        // Apple (Core Animation Programming Guide, Key-Value Coding Extensions, table C-2):
        // "transform.scale" is the average of all three scale factors.
        case .scale: return n((d.scale.x + d.scale.y + d.scale.z) / 3)
        case .scaleX: return n(d.scale.x)
        case .scaleY: return n(d.scale.y)
        case .scaleZ: return n(d.scale.z)
        case .translation: return .size(CGSize(width: d.translation.x, height: d.translation.y))
        case .translationX: return n(d.translation.x)
        case .translationY: return n(d.translation.y)
        case .translationZ: return n(d.translation.z)
        default: return nil
        }
    }

    /// `value` with this component replaced by `newValue`, or nil when not applicable.
    func set(_ value: AnimatableValue, _ newValue: AnimatableValue) -> AnimatableValue? {
        let n: CGFloat? = if case let .number(x) = newValue { CGFloat(x) } else { nil }
        switch (value, self) {
        case (var .point(p), .x): guard let n else { return nil }; p.x = n; return .point(p)
        case (var .point(p), .y): guard let n else { return nil }; p.y = n; return .point(p)
        case (var .size(s), .width): guard let n else { return nil }; s.width = n; return .size(s)
        case (var .size(s), .height): guard let n else { return nil }; s.height = n; return .size(s)
        case (var .rect(r), .origin): if case let .point(p) = newValue { r.origin = p }; return .rect(r)
        case (var .rect(r), .size): if case let .size(sz) = newValue { r.size = sz }; return .rect(r)
        case (var .rect(r), .x), (var .rect(r), .originX): r.origin.x = n ?? r.minX; return .rect(r)
        case (var .rect(r), .y), (var .rect(r), .originY): r.origin.y = n ?? r.minY; return .rect(r)
        case (var .rect(r), .width), (var .rect(r), .sizeWidth): r.size.width = n ?? r.width; return .rect(r)
        case (var .rect(r), .height), (var .rect(r), .sizeHeight): r.size.height = n ?? r.height; return .rect(r)
        case let (.transform(t), _):
            var d = TransformFields(t)
            guard setTransformField(&d, n, newValue) else { return nil }
            return .transform(d.transform(keepingPerspectiveOf: t))
        default: return nil
        }
    }

    private func setTransformField(_ d: inout TransformFields, _ n: CGFloat?, _ newValue: AnimatableValue) -> Bool {
        switch self {
        case .rotationZ: d.rotation.z = n ?? d.rotation.z
        case .rotationX: d.rotation.x = n ?? d.rotation.x
        case .rotationY: d.rotation.y = n ?? d.rotation.y
        case .scale: if let n { d.scale.x = n; d.scale.y = n; d.scale.z = n }
        case .scaleX: d.scale.x = n ?? d.scale.x
        case .scaleY: d.scale.y = n ?? d.scale.y
        case .scaleZ: d.scale.z = n ?? d.scale.z
        case .translation:
            if case let .size(s) = newValue { d.translation.x = s.width; d.translation.y = s.height }
        case .translationX: d.translation.x = n ?? d.translation.x
        case .translationY: d.translation.y = n ?? d.translation.y
        case .translationZ: d.translation.z = n ?? d.translation.z
        default: return false
        }
        return true
    }
}

/// Scale, Euler rotation and translation of a transform (M = S · Rx · Ry · Rz · T).
struct TransformFields {
    var scale: (x: CGFloat, y: CGFloat, z: CGFloat)
    var rotation: (x: CGFloat, y: CGFloat, z: CGFloat)
    var translation: (x: CGFloat, y: CGFloat, z: CGFloat)

    init(_ t: CATransform3D) {
        translation = (t.m41, t.m42, t.m43)
        let sx = (t.m11 * t.m11 + t.m12 * t.m12 + t.m13 * t.m13).squareRoot()
        let sy = (t.m21 * t.m21 + t.m22 * t.m22 + t.m23 * t.m23).squareRoot()
        let sz = (t.m31 * t.m31 + t.m32 * t.m32 + t.m33 * t.m33).squareRoot()
        scale = (sx, sy, sz)
        // Rotation rows R = Rx·Ry·Rz (row vectors), normalised by the scales.
        let r13 = sx > 0 ? t.m13 / sx : 0, r11 = sx > 0 ? t.m11 / sx : 1, r12 = sx > 0 ? t.m12 / sx : 0
        let r23 = sy > 0 ? t.m23 / sy : 0, r33 = sz > 0 ? t.m33 / sz : 1
        let ry = asin(max(-1, min(1, -r13)))
        let rx = atan2(r23, r33)
        let rz = atan2(r12, r11)
        rotation = (rx, ry, rz)
    }

    func transform(keepingPerspectiveOf original: CATransform3D) -> CATransform3D {
        var m = CATransform3DMakeScale(scale.x, scale.y, scale.z)
        m = CATransform3DConcat(m, CATransform3DMakeRotation(rotation.x, 1, 0, 0))
        m = CATransform3DConcat(m, CATransform3DMakeRotation(rotation.y, 0, 1, 0))
        m = CATransform3DConcat(m, CATransform3DMakeRotation(rotation.z, 0, 0, 1))
        m = CATransform3DConcat(m, CATransform3DMakeTranslation(translation.x, translation.y, translation.z))
        m.m14 = original.m14; m.m24 = original.m24; m.m34 = original.m34
        return m
    }
}

/// A key path split at its first dot: the layer property and the field inside its value.
struct ParsedKeyPath: Sendable {
    let head: String
    /// The field after the head; nil for a plain key or an unknown sub-path.
    let component: ValueComponent?
    /// True when the key path names something inside the head's value.
    let hasSubpath: Bool
    /// The whole key path (layers with nested objects, `NestedKeyValueCoding`, read it).
    let keyPath: String

    init(_ keyPath: String) {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        head = String(parts[0])
        hasSubpath = parts.count > 1
        component = hasSubpath ? ValueComponent(Array(parts.dropFirst())) : nil
        self.keyPath = keyPath
    }

    /// The part of `whole` this path names (`whole` itself for a plain key; nil when unknown).
    func get(_ whole: AnimatableValue) -> AnimatableValue? {
        guard hasSubpath else { return whole }
        return component?.get(whole)
    }

    /// `whole` with the named part replaced by `value` (nil when the path does not apply).
    func set(_ whole: AnimatableValue, _ value: AnimatableValue) -> AnimatableValue? {
        guard hasSubpath else { return value }
        return component?.set(whole, value)
    }
}
