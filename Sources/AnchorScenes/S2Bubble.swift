import Raster
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// S2 `bubble` — 512×512, seed 2: per frame one "bubble" (two circles joined by a waisted
/// connector) in one path; frame f draws bubble f mod 100.
public struct S2Bubble: Sendable {
    public struct Bubble: Sendable {
        public let x1: Double, y1: Double, r1: Double, x2: Double, y2: Double, r2: Double
        public let path: Path
    }

    public let width = 512, height = 512
    public static let color = RGBA8(230, 57, 70, 255)
    public let bubbles: [Bubble]
    public let paint = Paint(color: S2Bubble.color.color)

    public init() {
        var rng = PCG32(seed: 2)
        var bubbles: [Bubble] = []
        for _ in 0..<100 {
            let x1 = rng.uniform(128, 384), y1 = rng.uniform(128, 384), r1 = rng.uniform(32, 64)
            let x2 = rng.uniform(64, 448), y2 = rng.uniform(64, 448), r2 = rng.uniform(16, 40)
            bubbles.append(Bubble(x1: x1, y1: y1, r1: r1, x2: x2, y2: y2, r2: r2,
                                  path: S2Bubble.path(x1, y1, r1, x2, y2, r2)))
        }
        self.bubbles = bubbles
    }

    /// circle 1, circle 2, then the connector `M B · Q P C · L D · Q O A · Z` (scenes.md S2).
    static func path(_ x1: Double, _ y1: Double, _ r1: Double, _ x2: Double, _ y2: Double, _ r2: Double) -> Path {
        let dx = x2 - x1, dy = y2 - y1
        let d = sqrt(dx * dx + dy * dy)
        let (ux, uy) = d < 1e-9 ? (1.0, 0.0) : (dx / d, dy / d)
        let (nx, ny) = (-uy, ux)
        let a = Point(x: x1 + r1 * nx, y: y1 + r1 * ny), b = Point(x: x1 - r1 * nx, y: y1 - r1 * ny)
        let c = Point(x: x2 - r2 * nx, y: y2 - r2 * ny), dd = Point(x: x2 + r2 * nx, y: y2 + r2 * ny)
        let mx = (x1 + x2) * 0.5, my = (y1 + y2) * 0.5
        let h = 0.3 * min(r1, r2)
        let o = Point(x: mx + h * nx, y: my + h * ny), p = Point(x: mx - h * nx, y: my - h * ny)
        var path = Path()
        SceneGeometry.appendCircle(to: &path, cx: x1, cy: y1, r: r1)
        SceneGeometry.appendCircle(to: &path, cx: x2, cy: y2, r: r2)
        path.move(to: b)
        path.quad(to: c, control: p)
        path.line(to: dd)
        path.quad(to: a, control: o)
        path.close()
        return path
    }
}
