#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

/// A straight (un-premultiplied) sRGB colour with 8-bit components, as the scenes define them.
public struct RGBA8: Equatable, Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    /// The same colour for Raster's paints.
    public var color: Color { Color(r8: r, g8: g, b8: b, a8: a) }
}

/// Shared geometry of scenes.md §3.
public enum SceneGeometry {
    /// 4/3·(√2 − 1): a cubic's control distance for a quarter circle of radius 1.
    public static let kappa = 0.5522847498307936
    /// 2π as the scenes write it.
    public static let twoPi = 6.283185307179586

    /// A circle as a move, four cubics (starting at (cx + r, cy), first towards +y) and a close.
    public static func circle(cx: Double, cy: Double, r: Double) -> Path {
        var path = Path()
        appendCircle(to: &path, cx: cx, cy: cy, r: r)
        return path
    }

    static func appendCircle(to path: inout Path, cx: Double, cy: Double, r: Double) {
        let k = kappa * r
        path.move(to: Point(x: cx + r, y: cy))
        path.cubic(to: Point(x: cx, y: cy + r), control1: Point(x: cx + r, y: cy + k), control2: Point(x: cx + k, y: cy + r))
        path.cubic(to: Point(x: cx - r, y: cy), control1: Point(x: cx - k, y: cy + r), control2: Point(x: cx - r, y: cy + k))
        path.cubic(to: Point(x: cx, y: cy - r), control1: Point(x: cx - r, y: cy - k), control2: Point(x: cx - k, y: cy - r))
        path.cubic(to: Point(x: cx + r, y: cy), control1: Point(x: cx + k, y: cy - r), control2: Point(x: cx + r, y: cy - k))
        path.close()
    }

    /// The rectangle (x, y, w, h) with its corners replaced by quarter circles of radius ρ
    /// (each one cubic), clockwise on screen from the end of the top-left corner.
    public static func roundedRect(x: Double, y: Double, w: Double, h: Double, radius rho: Double) -> Path {
        let k = kappa * rho
        let right = x + w, bottom = y + h
        var path = Path()
        path.move(to: Point(x: x + rho, y: y))
        path.line(to: Point(x: right - rho, y: y))
        path.cubic(to: Point(x: right, y: y + rho), control1: Point(x: right - rho + k, y: y),
                   control2: Point(x: right, y: y + rho - k))
        path.line(to: Point(x: right, y: bottom - rho))
        path.cubic(to: Point(x: right - rho, y: bottom), control1: Point(x: right, y: bottom - rho + k),
                   control2: Point(x: right - rho + k, y: bottom))
        path.line(to: Point(x: x + rho, y: bottom))
        path.cubic(to: Point(x: x, y: bottom - rho), control1: Point(x: x + rho - k, y: bottom),
                   control2: Point(x: x, y: bottom - rho + k))
        path.line(to: Point(x: x, y: y + rho))
        path.cubic(to: Point(x: x + rho, y: y), control1: Point(x: x, y: y + rho - k),
                   control2: Point(x: x + rho - k, y: y))
        path.close()
        return path
    }

    /// `path` with every point mapped by `transform` (exact for affine maps: lines stay lines and
    /// Bézier control points map to the control points of the mapped curve).
    public static func transformed(_ path: Path, by transform: Transform) -> Path {
        var mapped = path
        mapped.points = path.points.map(transform.apply)
        return mapped
    }

    /// The axis-aligned rectangle (x, y, w, h) as a closed path.
    public static func rect(x: Double, y: Double, w: Double, h: Double) -> Path {
        var path = Path()
        path.move(to: Point(x: x, y: y))
        path.line(to: Point(x: x + w, y: y))
        path.line(to: Point(x: x + w, y: y + h))
        path.line(to: Point(x: x, y: y + h))
        path.close()
        return path
    }

    /// The image → canvas matrix of S5 (and S8 with `half` = 0):
    /// `a = s·cos θ, b = s·sin θ, c = −b, d = a, e = cx − half·(a + c), f = cy − half·(b + d)`.
    public static func affine(cx: Double, cy: Double, theta: Double, s: Double, half: Double = 256) -> Transform {
        let co = cos(theta), si = sin(theta)
        let a = s * co, b = s * si, c = -(s * si), d = s * co
        return Transform(a: a, b: b, c: c, d: d, tx: cx - half * (a + c), ty: cy - half * (b + d))
    }

    /// The 512×512 S5 source image (opaque, so premultiplied == straight): a gradient with
    /// every other 32-px checker square inverted.
    public static func sourceImage() -> Pixmap {
        let image = try! Pixmap(width: 512, height: 512)  // within Raster's limits
        for y in 0..<512 {
            for x in 0..<512 {
                var r = (x * 255) / 511, g = (y * 255) / 511, b = ((x + y) * 255) / 1022
                if ((x >> 5) ^ (y >> 5)) & 1 == 1 { r = 255 - r; g = 255 - g; b = 255 - b }
                image.setPixel(x: x, y: y, PremultipliedColor(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: 255))
            }
        }
        return image
    }
}
