import Raster

/// S7 `image-persp` — 1920×1080, seed 7: the S5 image drawn 20 times under homographies
/// `H = T(cx,cy)·R(θ)·S(s)·P·T(−256,−256)`, `P = [[1,0,0],[0,1,0],[px,py,1]]`, normalised so
/// `H22 = 1`.
public struct S7ImagePerspective: Sendable {
    public let width = 1920, height = 1080
    public let image: Pixmap
    /// Image → canvas homographies.
    public let homographies: [Projective]
    /// The image rectangle mapped to the canvas (a quadrilateral: straight edges stay straight).
    public let quads: [Path]
    public let paints: [Paint]

    public init() {
        let image = SceneGeometry.sourceImage()
        var rng = PCG32(seed: 7)
        var homographies: [Projective] = []
        for _ in 0..<20 {
            let cx = rng.uniform(0, 1920), cy = rng.uniform(0, 1080)
            let theta = rng.uniform(0, SceneGeometry.twoPi), s = rng.uniform(0.25, 1.5)
            let px = rng.uniform(-0.0015, 0.0015), py = rng.uniform(-0.0015, 0.0015)
            homographies.append(S7ImagePerspective.homography(cx: cx, cy: cy, theta: theta, s: s, px: px, py: py))
        }
        self.image = image
        self.homographies = homographies
        quads = homographies.map(S7ImagePerspective.imageQuad)
        paints = homographies.map {
            Paint(shader: .image(ImagePattern(image: image, transform: $0, filter: .bilinear, spread: .decal)))
        }
    }

    /// The matrix products written out in the reference's order (row · column, k ascending).
    static func homography(cx: Double, cy: Double, theta: Double, s: Double, px: Double, py: Double) -> Projective {
        let m = SceneGeometry.affine(cx: cx, cy: cy, theta: theta, s: s, half: 0)
        // M·P, M = [[a, c, cx], [b, d, cy], [0, 0, 1]]
        let mp = [[m.a + cx * px, m.c + cx * py, cx], [m.b + cy * px, m.d + cy * py, cy], [px, py, 1]]
        // (M·P)·T(−256, −256)
        let h = mp.map { row in [row[0], row[1], row[0] * -256 + row[1] * -256 + row[2]] }
        let w = h[2][2]
        return Projective(h[0][0] / w, h[0][1] / w, h[0][2] / w, h[1][0] / w, h[1][1] / w, h[1][2] / w,
                          h[2][0] / w, h[2][1] / w, h[2][2] / w)
    }

    static func imageQuad(_ h: Projective) -> Path {
        func map(_ x: Double, _ y: Double) -> Point {
            let w = h.m.6 * x + h.m.7 * y + h.m.8
            return Point(x: (h.m.0 * x + h.m.1 * y + h.m.2) / w, y: (h.m.3 * x + h.m.4 * y + h.m.5) / w)
        }
        var path = Path()
        path.move(to: map(0, 0))
        path.line(to: map(512, 0))
        path.line(to: map(512, 512))
        path.line(to: map(0, 512))
        path.close()
        return path
    }
}
