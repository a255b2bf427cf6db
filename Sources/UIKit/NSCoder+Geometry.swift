import Foundation

/// UIKit's geometry strings and coding (Apple's `NSCoder` extensions in UIKit, the Swift names of
/// `NSStringFromCGPoint`, `CGPointFromString` and friends). The string forms are Apple's:
/// "{x, y}" for a point, "{w, h}" for a size, "{{x, y}, {w, h}}" for a rectangle,
/// "{a, b, c, d, tx, ty}" for an affine transform and "{top, left, bottom, right}" for edge
/// insets. Reading takes the numbers in order and ignores the punctuation; as Apple documents,
/// a string that is not well formed (too few numbers) gives the zero value (the identity for
/// a transform).
extension NSCoder {
    /// The numbers in `string`, in order (a sign, digits, a decimal point and an exponent).
    private static func numbers(in string: String) -> [CGFloat] {
        var result: [CGFloat] = [], current = ""
        func flush() {
            if let value = Double(current) { result.append(CGFloat(value)) }
            current = ""
        }
        for c in string {
            if c.isNumber || c == "." || c == "-" || c == "+" || ((c == "e" || c == "E") && !current.isEmpty) {
                current.append(c)
            } else {
                flush()
            }
        }
        flush()
        return result
    }

    /// A number as Apple prints it in these strings: "1", "1.5", "-0.25" (no trailing ".0").
    private static func format(_ value: CGFloat) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(Double(value))"
    }

    /// The point in a string of the form "{x, y}" (`.zero` when not well formed).
    public static func cgPoint(for string: String) -> CGPoint {
        let n = numbers(in: string)
        return n.count >= 2 ? CGPoint(x: n[0], y: n[1]) : .zero
    }
    /// The size in a string of the form "{w, h}" (`.zero` when not well formed).
    public static func cgSize(for string: String) -> CGSize {
        let n = numbers(in: string)
        return n.count >= 2 ? CGSize(width: n[0], height: n[1]) : .zero
    }
    /// The rectangle in a string of the form "{{x, y}, {w, h}}" (`.zero` when not well formed).
    public static func cgRect(for string: String) -> CGRect {
        let n = numbers(in: string)
        return n.count >= 4 ? CGRect(x: n[0], y: n[1], width: n[2], height: n[3]) : .zero
    }
    /// The transform in a string of the form "{a, b, c, d, tx, ty}" (identity when not well formed).
    public static func cgAffineTransform(for string: String) -> CGAffineTransform {
        let n = numbers(in: string)
        return n.count >= 6 ? CGAffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5]) : .identity
    }
    /// The insets in a string of the form "{top, left, bottom, right}" (`.zero` when not well formed).
    public static func uiEdgeInsets(for string: String) -> UIEdgeInsets {
        let n = numbers(in: string)
        return n.count >= 4 ? UIEdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3]) : .zero
    }

    /// "{x, y}".
    public static func string(for point: CGPoint) -> String { "{\(format(point.x)), \(format(point.y))}" }
    /// "{w, h}".
    public static func string(for size: CGSize) -> String { "{\(format(size.width)), \(format(size.height))}" }
    /// "{{x, y}, {w, h}}".
    public static func string(for rect: CGRect) -> String { "{\(string(for: rect.origin)), \(string(for: rect.size))}" }
    /// "{a, b, c, d, tx, ty}".
    public static func string(for transform: CGAffineTransform) -> String {
        let t = transform
        return "{" + [t.a, t.b, t.c, t.d, t.tx, t.ty].map(format).joined(separator: ", ") + "}"
    }
    /// "{top, left, bottom, right}".
    public static func string(for insets: UIEdgeInsets) -> String {
        "{" + [insets.top, insets.left, insets.bottom, insets.right].map(format).joined(separator: ", ") + "}"
    }

    /// The point stored for `key` (Apple's `decodeCGPoint(forKey:)`; Foundation's `decodePoint`).
    public func decodeCGPoint(forKey key: String) -> CGPoint { decodePoint(forKey: key) }
    /// The size stored for `key` (Apple's `decodeCGSize(forKey:)`; Foundation's `decodeSize`).
    public func decodeCGSize(forKey key: String) -> CGSize { decodeSize(forKey: key) }
    /// The rectangle stored for `key` (Apple's `decodeCGRect(forKey:)`; Foundation's `decodeRect`).
    public func decodeCGRect(forKey key: String) -> CGRect { decodeRect(forKey: key) }
}

/// Apple's C names for the same conversions.
public func NSStringFromCGPoint(_ point: CGPoint) -> String { NSCoder.string(for: point) }
public func NSStringFromCGSize(_ size: CGSize) -> String { NSCoder.string(for: size) }
public func NSStringFromCGRect(_ rect: CGRect) -> String { NSCoder.string(for: rect) }
public func CGPointFromString(_ string: String) -> CGPoint { NSCoder.cgPoint(for: string) }
public func CGSizeFromString(_ string: String) -> CGSize { NSCoder.cgSize(for: string) }
public func CGRectFromString(_ string: String) -> CGRect { NSCoder.cgRect(for: string) }
