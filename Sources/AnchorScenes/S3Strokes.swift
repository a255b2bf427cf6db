import Raster

/// S3 `strokes` — 1920×1080, seed 3: 500 open cubics stroked with round caps and joins.
public struct S3Strokes: Sendable {
    public struct Curve: Sendable {
        /// P0 … P3.
        public let points: [Point]
        public let strokeWidth: Double
        public let color: RGBA8
        public let path: Path
        public let style: StrokeStyle
        public let paint: Paint
    }

    public let width = 1920, height = 1080
    public let curves: [Curve]

    public init() {
        var rng = PCG32(seed: 3)
        var curves: [Curve] = []
        for _ in 0..<500 {
            let x0 = rng.uniform(0, 1920), y0 = rng.uniform(0, 1080)
            var points = [Point(x: x0, y: y0)]
            for _ in 1...3 {
                let ox = rng.uniform(-300, 300)
                let oy = rng.uniform(-300, 300)
                points.append(Point(x: x0 + ox, y: y0 + oy))
            }
            let w = rng.uniform(1, 8)
            let color = RGBA8(rng.u8(), rng.u8(), rng.u8(), rng.alpha())
            var path = Path()
            path.move(to: points[0])
            path.cubic(to: points[3], control1: points[1], control2: points[2])
            curves.append(Curve(points: points, strokeWidth: w, color: color, path: path,
                                style: StrokeStyle(width: w, cap: .round, join: .round), paint: Paint(color: color.color)))
        }
        self.curves = curves
    }
}
