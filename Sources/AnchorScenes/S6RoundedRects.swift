import Raster

/// S6 `rrect-clip` — 1920×1080, seed 6: 2000 rounded rectangles (radius 8) at 50 % opacity.
/// (The name is kept from the original brief; no clip is applied.)
public struct S6RoundedRects: Sendable {
    public struct Item: Sendable {
        public let x: Double, y: Double, w: Double, h: Double
        public let color: RGBA8
        public let path: Path
        public let paint: Paint
    }

    public let width = 1920, height = 1080
    public static let radius = 8.0
    public let items: [Item]

    public init() {
        var rng = PCG32(seed: 6)
        var items: [Item] = []
        for _ in 0..<2000 {
            let w = rng.uniform(16, 160), h = rng.uniform(16, 160)
            let x = rng.uniform(0, 1920 - w), y = rng.uniform(0, 1080 - h)
            let color = RGBA8(rng.u8(), rng.u8(), rng.u8(), 128)
            items.append(Item(x: x, y: y, w: w, h: h, color: color,
                              path: SceneGeometry.roundedRect(x: x, y: y, w: w, h: h, radius: S6RoundedRects.radius),
                              paint: Paint(color: color.color)))
        }
        self.items = items
    }
}
