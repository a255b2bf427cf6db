import Raster

/// S5 `image-affine` — 1920×1080, seed 5: the 512×512 source image drawn 50 times, rotated and
/// scaled about its centre, bilinear, with anti-aliased edges and nothing outside the image.
public struct S5ImageAffine: Sendable {
    public let width = 1920, height = 1080
    public let image: Pixmap
    /// Image → canvas matrices.
    public let transforms: [Transform]
    /// The image rectangle (0, 0, 512, 512) mapped to the canvas by each transform. Geometry
    /// and pattern are both given in device space, so the draw needs no transform of its own.
    public let quads: [Path]
    /// One paint per draw: the image as a bilinear, decal pattern under that draw's transform.
    public let paints: [Paint]

    public init() {
        let image = SceneGeometry.sourceImage()
        var rng = PCG32(seed: 5)
        var transforms: [Transform] = []
        for _ in 0..<50 {
            let cx = rng.uniform(0, 1920), cy = rng.uniform(0, 1080)
            let theta = rng.uniform(0, SceneGeometry.twoPi), s = rng.uniform(0.25, 1.5)
            transforms.append(SceneGeometry.affine(cx: cx, cy: cy, theta: theta, s: s))
        }
        self.image = image
        self.transforms = transforms
        let imageRect = SceneGeometry.rect(x: 0, y: 0, w: 512, h: 512)
        quads = transforms.map { SceneGeometry.transformed(imageRect, by: $0) }
        paints = transforms.map {
            Paint(shader: .image(ImagePattern(image: image, transform: $0, filter: .bilinear, spread: .decal)))
        }
    }
}
