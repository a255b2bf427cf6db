import FuzzSupport
import QuartzCore
import Raster

/// The values a layer script sets: numbers around the 32×32 target with the hostile ones mixed
/// in (NaN, ±∞, 1e30, the largest Double …), colours, paths, transforms, images, and — for a
/// key-value-coded property — a value shaped like the property's current one, so most writes are
/// accepted and some (a value of another type) are ignored, as on Apple.
extension FuzzInput {
    /// Doubles a caller should never pass and Citrine must survive.
    static let hostileNumbers: [Double] = [
        .nan, .infinity, -.infinity, 1e30, -1e30, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .leastNonzeroMagnitude, -0.0, 1e-300, 9.2e18, -9.2e18, 4294967296, 1e15, 65536, 0.5,
    ]

    /// A number: small, any Float bit pattern, or one of `hostileNumbers` (see `number`).
    mutating func value() -> Double { number(special: Self.hostileNumbers) }

    /// A small finite number (path coordinates, dash lengths of 1…128): the path target fuzzes
    /// hostile coordinates; here they would only re-find its limits at the cost of speed.
    mutating func finite(atLeast minimum: Double = -128) -> Double {
        let n = Double(Int8(bitPattern: byte())) + Double(byte() & 0x0F) / 16
        return minimum >= 0 ? minimum + abs(n) : n
    }

    mutating func point() -> CGPoint { CGPoint(x: value(), y: value()) }
    mutating func size() -> CGSize { CGSize(width: value(), height: value()) }
    mutating func rect() -> CGRect { CGRect(origin: point(), size: size()) }

    mutating func color() -> CGColor? {
        switch byte() % 8 {
        case 0: return nil
        case 1: return CGColor(red: value(), green: value(), blue: value(), alpha: value())
        default: return CGColor(red: Double(byte()) / 255, green: Double(byte()) / 255, blue: Double(byte()) / 255,
                                alpha: Double(byte()) / 255)
        }
    }

    mutating func transform() -> CATransform3D {
        switch byte() % 8 {
        case 0: return CATransform3DIdentity
        case 1: return CATransform3DMakeScale(value(), value(), value())
        case 2: return CATransform3DMakeRotation(value(), value(), value(), value())
        case 3: return CATransform3DMakeTranslation(value(), value(), value())
        case 4:
            var t = CATransform3DIdentity
            t.m34 = -1 / value()
            return CATransform3DRotate(t, value(), 0, 1, 0)
        case 5:
            var t = CATransform3DIdentity
            t.m14 = value(); t.m24 = value(); t.m44 = value()
            return t
        case 6: return CATransform3DMakeAffineTransform(CGAffineTransform(a: value(), b: value(), c: value(), d: value(),
                                                                           tx: value(), ty: value()))
        default: return CATransform3DConcat(transform(), transform())
        }
    }

    /// A path of up to 8 elements with small finite coordinates, or nil.
    mutating func path() -> CGPath? {
        let count = Int(byte() % 9)
        guard count > 0 else { return nil }
        let path = CGMutablePath()
        func p(_ input: inout FuzzInput) -> CGPoint { CGPoint(x: input.finite() / 2 + 16, y: input.finite() / 2 + 16) }
        path.move(to: p(&self))
        for _ in 0..<count {
            switch byte() % 6 {
            case 0: path.addLine(to: p(&self))
            case 1: path.addQuadCurve(to: p(&self), control: p(&self))
            case 2: path.addCurve(to: p(&self), control1: p(&self), control2: p(&self))
            case 3: path.addEllipse(in: CGRect(origin: p(&self), size: CGSize(width: finite(atLeast: 0), height: finite(atLeast: 0))))
            case 4: path.move(to: p(&self))
            default: path.closeSubpath()
            }
        }
        return path
    }

    /// A 1…4-pixel-square image of arbitrary pixels (layer contents).
    mutating func image() -> CGImage? {
        guard let pixmap = try? Pixmap(width: 1 + index(4), height: 1 + index(4)) else { return nil }
        for i in 0..<pixmap.width * pixmap.height * 4 { pixmap.pixels[i] = byte() }
        return CGImage(pixmap: pixmap)
    }

    /// At most 64 characters (text truncation re-measures the string per try, an open limit).
    mutating func text() -> String {
        let words = ["Citrine", " ", "\n", "é", "🍋", "مرحبا", "\t", "W", "i", "…", "\u{0}", "\u{200B}"]
        return (0..<index(16)).map { _ in words[index(words.count)] }.joined()
    }

    mutating func numbers(_ make: (inout FuzzInput) -> Double) -> [NSNumber]? {
        let count = Int(byte() % 6)
        return count == 0 ? nil : (0..<count).map { _ in NSNumber(value: make(&self)) }
    }

    /// A value for `key` shaped like `current` (the property's value now): a number for a
    /// number, a rect for a rect, a colour for a colour or an empty optional … Counts and rates
    /// that multiply work are kept small (see `boundedKeys`).
    mutating func value(forKey key: String, like current: Any?) -> Any? {
        if let range = Self.boundedKeys[key] { return min(max(value(), range.lowerBound), range.upperBound) }
        if byte() % 16 == 0 { return anyValue() }  // a value of some other type: ignored or nil
        switch current {
        case is Bool: return flag()
        case is Int: return Int(clamping: Int64(Int8(bitPattern: byte())))
        case is Float: return Float(value())
        case is CGFloat, is Double, is NSNumber: return value()
        case is CGPoint: return point()
        case is CGSize: return size()
        case is CGRect: return rect()
        case is CATransform3D: return transform()
        case is CGColor: return color()
        case is CGPath: return path()
        case is String: return Self.rawStrings[key].map { $0[index($0.count)] } ?? text()
        case is [NSNumber]: return numbers { key == "lineDashPattern" ? $0.finite(atLeast: 1) : $0.value() }
        case is [Any]: return (0..<index(5)).map { _ in color() as Any }
        default: return anyValue()
        }
    }

    /// Any kind of value: what a key whose value is nil now, or a careless caller, gets.
    mutating func anyValue() -> Any? {
        switch byte() % 10 {
        case 0: return nil
        case 1: return value()
        case 2: return rect()
        case 3: return color()
        case 4: return path()
        case 5: return image()
        case 6: return text()
        case 7: return transform()
        case 8: return numbers { $0.value() }
        default: return (0..<index(5)).map { _ in color() as Any }
        }
    }

    /// Keys whose value multiplies the work of a frame, and the range the script keeps them in:
    /// a replicator's instance loop has no bound yet (open), and an emitter's particle
    /// count (bounded by `CAEmitterLayer.maxParticles`, 2²⁰ per layer and frame) is the product
    /// of rates and lifetimes — at the bound a frame takes seconds, which measures the bound,
    /// not the code.
    static let boundedKeys: [String: ClosedRange<Double>] = [
        "instanceCount": -2...6, "birthRate": -5...40, "lifetime": -2...4, "lifetimeRange": -2...2,
    ]

    /// Apple's string constants per key (and one unknown value each).
    static let rawStrings: [String: [String]] = [
        "fillMode": ["removed", "forwards", "backwards", "both", "sideways"],
        "contentsGravity": ["center", "top", "bottom", "left", "right", "topLeft", "topRight", "bottomLeft",
                            "bottomRight", "resize", "resizeAspect", "resizeAspectFill", "stretch"],
        "lineCap": ["butt", "round", "square", "pointy"],
        "lineJoin": ["miter", "round", "bevel", "curly"],
        "fillRule": ["non-zero", "even-odd", "odd"],
        "type": ["axial", "radial", "conic", "spiral"],
        "truncationMode": ["none", "start", "end", "middle", "both"],
        "alignmentMode": ["natural", "left", "right", "center", "justified", "up"],
        "emitterShape": ["point", "line", "rectangle", "cuboid", "circle", "sphere", "torus"],
        "emitterMode": ["points", "outline", "surface", "volume", "edge"],
        "renderMode": ["unordered", "oldestFirst", "oldestLast", "backToFront", "additive", "random"],
        "cornerCurve": ["circular", "continuous", "squircle"],
        "minificationFilter": ["linear", "nearest", "trilinear", "cubic"],
        "magnificationFilter": ["linear", "nearest", "trilinear", "cubic"],
        "contentsFormat": ["RGBA8Uint", "RGBA16Float", "Gray8Uint", "CMYK"],
    ]
}
