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

    init<L: CALayer, V>(_ keyPath: ReferenceWritableKeyPath<L, V>, _ codec: Codec<V>, animatable: Bool = true) {
        get = { ($0 as? L)?[keyPath: keyPath] }
        getValue = { layer in (layer as? L).map { codec.encode($0[keyPath: keyPath]) } ?? .discrete(nil) }
        setValue = { layer, value in
            guard let l = layer as? L, let v = codec.decode(value) else { return }
            l[keyPath: keyPath] = v
        }
        isAnimatable = animatable
    }

    /// Stores a KVC value (native Swift value, NSNumber or NSValue).
    func set(_ layer: CALayer, _ value: Any?) { setValue(layer, AnimatableValue(value)) }

    static let base: [String: LayerProperty] = [
        "bounds": .init(\CALayer.bounds, .rect),
        "position": .init(\CALayer.position, .point),
        "zPosition": .init(\CALayer.zPosition, .cgFloat),
        "anchorPoint": .init(\CALayer.anchorPoint, .point),
        "anchorPointZ": .init(\CALayer.anchorPointZ, .cgFloat),
        "transform": .init(\CALayer.transform, .transform),
        "sublayerTransform": .init(\CALayer.sublayerTransform, .transform),
        "frame": .init(\CALayer.frame, .rect, animatable: false),
        "hidden": .init(\CALayer.isHidden, .bool),
        "opacity": .init(\CALayer.opacity, .float),
        "backgroundColor": .init(\CALayer.backgroundColor, .color),
        "borderWidth": .init(\CALayer.borderWidth, .cgFloat),
        "borderColor": .init(\CALayer.borderColor, .color),
        "cornerRadius": .init(\CALayer.cornerRadius, .cgFloat),
        "masksToBounds": .init(\CALayer.masksToBounds, .bool),
        "mask": .init(\CALayer.mask, .layer, animatable: false),
        "doubleSided": .init(\CALayer.isDoubleSided, .bool),
        "contents": .init(\CALayer.contents, .any),
        "contentsRect": .init(\CALayer.contentsRect, .rect),
        "contentsCenter": .init(\CALayer.contentsCenter, .rect),
        "contentsScale": .init(\CALayer.contentsScale, .cgFloat, animatable: false),
        "shadowColor": .init(\CALayer.shadowColor, .color),
        "shadowOpacity": .init(\CALayer.shadowOpacity, .float),
        "shadowOffset": .init(\CALayer.shadowOffset, .size),
        "shadowRadius": .init(\CALayer.shadowRadius, .cgFloat),
        "shadowPath": .init(\CALayer.shadowPath, .path),
        "beginTime": .init(\CALayer.beginTime, .double, animatable: false),
        "speed": .init(\CALayer.speed, .float, animatable: false),
        "timeOffset": .init(\CALayer.timeOffset, .double, animatable: false),
    ]
}

/// How one property type converts to and from `AnimatableValue` (KVC accepts native Swift values,
/// NSNumber and NSValue; they arrive here already converted by `AnimatableValue.init`).
struct Codec<V> {
    let encode: (V) -> AnimatableValue
    let decode: (AnimatableValue) -> V?
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
    static var int: Codec { Codec(encode: { .number(Double($0)) }, decode: { Codec<Double>.double.decode($0).map { Int($0) } }) }
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
extension Codec where V == Any? {
    static var any: Codec { Codec(encode: { AnimatableValue($0) }, decode: { .some($0.value) }) }
}
extension Codec where V == [Any]? {
    static var array: Codec { Codec(encode: { AnimatableValue($0) }, decode: { $0.value as? [Any] }) }
}
extension Codec where V == [NSNumber]? {
    static var numbers: Codec {
        Codec(encode: { AnimatableValue($0?.map { $0.doubleValue }) }, decode: { v in
            guard case let .array(items) = v else { return nil }
            return items.compactMap { Codec<Double>.double.decode($0).map { NSNumber(value: $0) } }
        })
    }
}

/// Sub-key paths of structured values, Apple's KVC extensions: `position.x`,
/// `bounds.size.width`, `bounds.origin.x`, `shadowOffset.height`, and the transform fields
/// `transform.rotation(.x/.y/.z)`, `transform.scale(.x/.y/.z)`, `transform.translation(.x/.y/.z)`.
///
/// Transform fields read and write a decomposition M = S · Rx · Ry · Rz · T (row vectors: scale
/// first, then rotations about x, y, z, then translation), the order Apple's documentation of
/// the transform key paths implies. `transform.rotation` is the z rotation, `transform.scale`
/// the mean of the three scale factors (setting it sets all three), `transform.translation` a CGSize.
enum KeyPathComponents {
    static func get(_ value: AnimatableValue, _ parts: [String]) -> AnimatableValue? {
        func n(_ v: CGFloat) -> AnimatableValue { .number(Double(v)) }
        switch value {
        case let .point(p): return parts == ["x"] ? n(p.x) : parts == ["y"] ? n(p.y) : nil
        case let .size(s): return parts == ["width"] ? n(s.width) : parts == ["height"] ? n(s.height) : nil
        case let .rect(r):
            switch parts {
            case ["origin"]: return .point(r.origin)
            case ["size"]: return .size(r.size)
            case ["origin", "x"], ["x"]: return n(r.minX)
            case ["origin", "y"], ["y"]: return n(r.minY)
            case ["size", "width"], ["width"]: return n(r.width)
            case ["size", "height"], ["height"]: return n(r.height)
            default: return nil
            }
        case let .transform(t):
            let d = TransformFields(t)
            switch parts {
            case ["rotation"], ["rotation", "z"]: return n(d.rotation.z)
            case ["rotation", "x"]: return n(d.rotation.x)
            case ["rotation", "y"]: return n(d.rotation.y)
            // Apple (Core Animation Programming Guide, Key-Value Coding Extensions, table C-2):
            // "transform.scale" is the average of all three scale factors.
            case ["scale"]: return n((d.scale.x + d.scale.y + d.scale.z) / 3)
            case ["scale", "x"]: return n(d.scale.x)
            case ["scale", "y"]: return n(d.scale.y)
            case ["scale", "z"]: return n(d.scale.z)
            case ["translation"]: return .size(CGSize(width: d.translation.x, height: d.translation.y))
            case ["translation", "x"]: return n(d.translation.x)
            case ["translation", "y"]: return n(d.translation.y)
            case ["translation", "z"]: return n(d.translation.z)
            default: return nil
            }
        default: return nil
        }
    }

    /// The structured value with the field at `parts` replaced, or nil when not applicable.
    static func set(_ value: AnimatableValue, _ parts: [String], _ newValue: AnimatableValue) -> AnimatableValue? {
        let n: CGFloat? = if case let .number(x) = newValue { CGFloat(x) } else { nil }
        switch value {
        case var .point(p):
            guard let n else { return nil }
            if parts == ["x"] { p.x = n } else if parts == ["y"] { p.y = n } else { return nil }
            return .point(p)
        case var .size(s):
            guard let n else { return nil }
            if parts == ["width"] { s.width = n } else if parts == ["height"] { s.height = n } else { return nil }
            return .size(s)
        case var .rect(r):
            switch parts {
            case ["origin"]: if case let .point(p) = newValue { r.origin = p }
            case ["size"]: if case let .size(s) = newValue { r.size = s }
            case ["origin", "x"], ["x"]: r.origin.x = n ?? r.minX
            case ["origin", "y"], ["y"]: r.origin.y = n ?? r.minY
            case ["size", "width"], ["width"]: r.size.width = n ?? r.width
            case ["size", "height"], ["height"]: r.size.height = n ?? r.height
            default: return nil
            }
            return .rect(r)
        case let .transform(t):
            var d = TransformFields(t)
            switch parts {
            case ["rotation"], ["rotation", "z"]: d.rotation.z = n ?? d.rotation.z
            case ["rotation", "x"]: d.rotation.x = n ?? d.rotation.x
            case ["rotation", "y"]: d.rotation.y = n ?? d.rotation.y
            case ["scale"]: if let n { d.scale.x = n; d.scale.y = n; d.scale.z = n }
            case ["scale", "x"]: d.scale.x = n ?? d.scale.x
            case ["scale", "y"]: d.scale.y = n ?? d.scale.y
            case ["scale", "z"]: d.scale.z = n ?? d.scale.z
            case ["translation"]:
                if case let .size(s) = newValue { d.translation.x = s.width; d.translation.y = s.height }
            case ["translation", "x"]: d.translation.x = n ?? d.translation.x
            case ["translation", "y"]: d.translation.y = n ?? d.translation.y
            case ["translation", "z"]: d.translation.z = n ?? d.translation.z
            default: return nil
            }
            return .transform(d.transform(keepingPerspectiveOf: t))
        default: return nil
        }
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

/// A key path split at its first dot: the layer property and the sub-path inside its value.
struct ParsedKeyPath: Sendable {
    let head: String
    /// The components after the first, empty for a plain key.
    let rest: [String]

    init(_ keyPath: String) {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        head = parts[0]
        rest = Array(parts.dropFirst())
    }
}
