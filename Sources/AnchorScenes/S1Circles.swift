import Raster

/// S1 `circles` — 1920×1080, seed 1: 1000 semi-transparent filled circles.
public struct S1Circles: Sendable {
    public struct Circle: Sendable {
        public let cx: Double, cy: Double, r: Double
        public let color: RGBA8
        public let path: Path
        public let paint: Paint
    }

    public let width = 1920, height = 1080
    public let circles: [Circle]

    public init() {
        var rng = PCG32(seed: 1)
        var circles: [Circle] = []
        for _ in 0..<1000 {
            let cx = rng.uniform(0, 1920)
            let cy = rng.uniform(0, 1080)
            let r = rng.uniform(4, 40)
            let color = RGBA8(rng.u8(), rng.u8(), rng.u8(), rng.alpha())
            circles.append(Circle(cx: cx, cy: cy, r: r, color: color,
                                  path: SceneGeometry.circle(cx: cx, cy: cy, r: r), paint: Paint(color: color.color)))
        }
        self.circles = circles
    }
}
