import Foundation

/// Apple's NSValue boxing of the geometry types (`NSValue(cgPoint:)` … `caTransform3DValue`),
/// which iOS code passes as `fromValue`/`toValue` and reads back from `value(forKey:)`.
///
/// Linux Foundation has `NSValue(point:)`, `(size:)` and `(rect:)` under their AppKit names; the
/// UIKit/QuartzCore names here box through them, so the values compare equal and `objCType`
/// is Foundation's. A `CATransform3D` is boxed as its sixteen `CGFloat`s in row order (objCType
/// `"[16d]"`: Linux Foundation cannot box structs, Apple's is `"{CATransform3D=dddddddddddddddd}"`).
extension NSValue {
    public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
    public convenience init(cgSize size: CGSize) { self.init(size: size) }
    public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }

    public convenience init(caTransform3D t: CATransform3D) {
        let fields = t.fields
        self.init(bytes: fields.withUnsafeBytes { $0.baseAddress! }, objCType: NSValue.transformObjCType)
    }

    /// The boxed point; `.zero` when the value boxes no point (Linux Foundation's `pointValue`
    /// traps on other values).
    public var cgPointValue: CGPoint { boxes("Point") ? pointValue : .zero }
    /// The boxed size; `.zero` when the value boxes no size.
    public var cgSizeValue: CGSize { boxes("Size") ? sizeValue : .zero }
    /// The boxed rectangle; `.zero` when the value boxes no rectangle.
    public var cgRectValue: CGRect { boxes("Rect") ? rectValue : .zero }

    /// Whether the objCType names a `CG…`/`NS…` struct of that kind (`{CGPoint=dd}`, `{NSRect=…}`).
    private func boxes(_ kind: String) -> Bool {
        let type = String(cString: objCType)
        return type.hasPrefix("{CG\(kind)") || type.hasPrefix("{NS\(kind)") || type.hasPrefix("{_NS\(kind)")
    }

    /// The boxed transform; the identity when the value holds no transform.
    public var caTransform3DValue: CATransform3D { boxedTransform ?? CATransform3DIdentity }

    /// The objCType of a boxed `CATransform3D`.
    static let transformObjCType = "[16d]"

    /// The transform when this value boxes one (`NSValue(caTransform3D:)`), else nil.
    var boxedTransform: CATransform3D? {
        guard String(cString: objCType) == NSValue.transformObjCType else { return nil }
        var fields = [CGFloat](repeating: 0, count: 16)
        fields.withUnsafeMutableBytes { getValue($0.baseAddress!) }
        return CATransform3D(fields: fields)
    }
}

extension CATransform3D {
    /// m11 … m44 in row order.
    var fields: [CGFloat] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// The transform with `f` (16 values, row order) as m11 … m44.
    init(fields f: [CGFloat]) {
        self.init(m11: f[0], m12: f[1], m13: f[2], m14: f[3], m21: f[4], m22: f[5], m23: f[6], m24: f[7],
                  m31: f[8], m32: f[9], m33: f[10], m34: f[11], m41: f[12], m42: f[13], m43: f[14], m44: f[15])
    }
}
