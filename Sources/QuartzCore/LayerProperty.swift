/// One key-value-coded layer property: how to read and write it, and whether it animates
/// implicitly. Layers look properties up in their class's `propertyRegistry` (no scattered
/// `switch` over keys); subclasses add theirs on top of `CALayer`'s.
public struct LayerProperty: @unchecked Sendable {
    let get: (CALayer) -> Any?
    let set: (CALayer, Any?) -> Void
    /// Changing it runs an implicit action (Apple's "animatable" properties).
    let isAnimatable: Bool
    init<L: CALayer, V>(_ keyPath: ReferenceWritableKeyPath<L, V>, animatable: Bool = true,
                        convert: @escaping (Any?) -> V?) {
        get = { ($0 as? L)?[keyPath: keyPath] }
        set = { layer, value in
            guard let l = layer as? L, let v = convert(value) else { return }
            l[keyPath: keyPath] = v
        }
        isAnimatable = animatable
    }

    static let base: [String: LayerProperty] = [
        "bounds": .init(\CALayer.bounds, convert: Convert.rect),
        "position": .init(\CALayer.position, convert: Convert.point),
        "zPosition": .init(\CALayer.zPosition, convert: Convert.cgFloat),
        "anchorPoint": .init(\CALayer.anchorPoint, convert: Convert.point),
        "anchorPointZ": .init(\CALayer.anchorPointZ, convert: Convert.cgFloat),
        "transform": .init(\CALayer.transform, convert: Convert.transform),
        "sublayerTransform": .init(\CALayer.sublayerTransform, convert: Convert.transform),
        "frame": .init(\CALayer.frame, animatable: false, convert: Convert.rect),
        "hidden": .init(\CALayer.isHidden, convert: Convert.bool),
        "opacity": .init(\CALayer.opacity, convert: Convert.float),
        "backgroundColor": .init(\CALayer.backgroundColor, convert: Convert.color),
        "borderWidth": .init(\CALayer.borderWidth, convert: Convert.cgFloat),
        "borderColor": .init(\CALayer.borderColor, convert: Convert.color),
        "cornerRadius": .init(\CALayer.cornerRadius, convert: Convert.cgFloat),
        "masksToBounds": .init(\CALayer.masksToBounds, convert: Convert.bool),
        "mask": .init(\CALayer.mask, animatable: false, convert: { $0 as? CALayer }),
        "doubleSided": .init(\CALayer.isDoubleSided, convert: Convert.bool),
        "contents": .init(\CALayer.contents, convert: { $0 }),
        "contentsRect": .init(\CALayer.contentsRect, convert: Convert.rect),
        "contentsCenter": .init(\CALayer.contentsCenter, convert: Convert.rect),
        "contentsScale": .init(\CALayer.contentsScale, animatable: false, convert: Convert.cgFloat),
        "shadowColor": .init(\CALayer.shadowColor, convert: Convert.color),
        "shadowOpacity": .init(\CALayer.shadowOpacity, convert: Convert.float),
        "shadowOffset": .init(\CALayer.shadowOffset, convert: Convert.size),
        "shadowRadius": .init(\CALayer.shadowRadius, convert: Convert.cgFloat),
        "shadowPath": .init(\CALayer.shadowPath, convert: { $0 as? CGPath }),
        "beginTime": .init(\CALayer.beginTime, animatable: false, convert: Convert.double),
        "speed": .init(\CALayer.speed, animatable: false, convert: Convert.float),
        "timeOffset": .init(\CALayer.timeOffset, animatable: false, convert: Convert.double),
    ]
}

/// Conversions from KVC values (native Swift values, NSNumber, NSValue) to property types.
enum Convert {
    static func double(_ v: Any?) -> Double? {
        if case let .number(n) = AnimatableValue(v) { return n }
        return nil
    }
    static func cgFloat(_ v: Any?) -> CGFloat? { double(v).map { CGFloat($0) } }
    static func float(_ v: Any?) -> Float? { double(v).map { Float($0) } }
    static func bool(_ v: Any?) -> Bool? {
        if let b = v as? Bool { return b }
        return double(v).map { $0 != 0 }
    }
    static func point(_ v: Any?) -> CGPoint? {
        if case let .point(p) = AnimatableValue(v) { return p }
        return nil
    }
    static func size(_ v: Any?) -> CGSize? {
        if case let .size(s) = AnimatableValue(v) { return s }
        return nil
    }
    static func rect(_ v: Any?) -> CGRect? {
        if case let .rect(r) = AnimatableValue(v) { return r }
        return nil
    }
    static func transform(_ v: Any?) -> CATransform3D? {
        switch AnimatableValue(v) {
        case let .transform(t): return t
        case let .affine(a): return CATransform3DMakeAffineTransform(a)
        default: return nil
        }
    }
    /// nil stays nil (an optional colour property can be cleared).
    static func color(_ v: Any?) -> CGColor?? {
        if v == nil || v is NSNull { return .some(nil) }
        return (v as? CGColor).map { .some($0) }
    }
}

/// Sub-key paths of structured values, Apple's KVC extensions: `position.x`,
/// `bounds.size.width`, `bounds.origin.x`, `shadowOffset.height`, and the transform fields
/// `transform.rotation(.x/.y/.z)`, `transform.scale(.x/.y/.z)`, `transform.translation(.x/.y/.z)`.
///
/// Transform fields read and write a decomposition M = S · Rx · Ry · Rz · T (row vectors: scale
/// first, then rotations about x, y, z, then translation), the order Apple's documentation of
/// the transform key paths implies. `transform.rotation` is the z rotation, `transform.scale`
/// the mean of the x and y scales (setting it sets both), `transform.translation` a CGSize.
enum KeyPathComponents {
    static func get(_ value: Any?, _ path: String) -> Any? {
        let parts = path.split(separator: ".").map(String.init)
        switch AnimatableValue(value) {
        case let .point(p): return parts == ["x"] ? p.x : parts == ["y"] ? p.y : nil
        case let .size(s): return parts == ["width"] ? s.width : parts == ["height"] ? s.height : nil
        case let .rect(r):
            switch parts {
            case ["origin"]: return r.origin
            case ["size"]: return r.size
            case ["origin", "x"], ["x"]: return r.minX
            case ["origin", "y"], ["y"]: return r.minY
            case ["size", "width"], ["width"]: return r.width
            case ["size", "height"], ["height"]: return r.height
            default: return nil
            }
        case let .transform(t):
            let d = TransformFields(t)
            switch parts {
            case ["rotation"], ["rotation", "z"]: return d.rotation.z
            case ["rotation", "x"]: return d.rotation.x
            case ["rotation", "y"]: return d.rotation.y
            // Apple (Core Animation Programming Guide, Key-Value Coding Extensions, table C-2):
            // "transform.scale" is the average of all three scale factors.
            case ["scale"]: return (d.scale.x + d.scale.y + d.scale.z) / 3
            case ["scale", "x"]: return d.scale.x
            case ["scale", "y"]: return d.scale.y
            case ["scale", "z"]: return d.scale.z
            case ["translation"]: return CGSize(width: d.translation.x, height: d.translation.y)
            case ["translation", "x"]: return d.translation.x
            case ["translation", "y"]: return d.translation.y
            case ["translation", "z"]: return d.translation.z
            default: return nil
            }
        default: return nil
        }
    }

    /// The structured value with the field at `path` replaced, or nil when not applicable.
    static func set(_ value: Any?, _ path: String, _ newValue: Any?) -> Any? {
        let parts = path.split(separator: ".").map(String.init)
        let n = Convert.cgFloat(newValue)
        switch AnimatableValue(value) {
        case var .point(p):
            guard let n else { return nil }
            if parts == ["x"] { p.x = n } else if parts == ["y"] { p.y = n } else { return nil }
            return p
        case var .size(s):
            guard let n else { return nil }
            if parts == ["width"] { s.width = n } else if parts == ["height"] { s.height = n } else { return nil }
            return s
        case var .rect(r):
            switch parts {
            case ["origin"]: r.origin = Convert.point(newValue) ?? r.origin
            case ["size"]: r.size = Convert.size(newValue) ?? r.size
            case ["origin", "x"], ["x"]: r.origin.x = n ?? r.minX
            case ["origin", "y"], ["y"]: r.origin.y = n ?? r.minY
            case ["size", "width"], ["width"]: r.size.width = n ?? r.width
            case ["size", "height"], ["height"]: r.size.height = n ?? r.height
            default: return nil
            }
            return r
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
                if let s = Convert.size(newValue) { d.translation.x = s.width; d.translation.y = s.height }
            case ["translation", "x"]: d.translation.x = n ?? d.translation.x
            case ["translation", "y"]: d.translation.y = n ?? d.translation.y
            case ["translation", "z"]: d.translation.z = n ?? d.translation.z
            default: return nil
            }
            return d.transform(keepingPerspectiveOf: t)
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
    let rest: String?

    init(_ keyPath: String) {
        if let dot = keyPath.firstIndex(of: ".") {
            head = String(keyPath[..<dot])
            rest = String(keyPath[keyPath.index(after: dot)...])
        } else {
            head = keyPath
            rest = nil
        }
    }
}
