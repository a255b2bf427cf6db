import Raster

/// The only place Graphics2D calls the pixel engine's drawing entry points (fill, coverage
/// into a mask, stroke and dash outlines, blur), so the Core Graphics layer stays
/// independent of how Raster spells them.
enum RasterBackend {
    /// Fills device-space `path` into `pixmap` with `paint`, through `clip`.
    static func fill(_ path: Path, rule: FillRule, paint: Paint, clip: Mask?, into pixmap: Pixmap) {
        pixmap.fill(path, rule: rule, paint: paint, clip: clip)
    }

    /// Writes the coverage (0…255) of device-space `path` into `mask` (same size as the
    /// target): the alpha of an opaque fill on a transparent scratch pixmap.
    static func renderCoverage(_ path: Path, rule: FillRule, antiAlias: Bool, into mask: Mask) {
        guard let scratch = try? Pixmap(width: mask.width, height: mask.height) else { return }
        let paint = Paint(shader: .solid(.white), blendMode: .sourceOver, opacity: 1, antiAlias: antiAlias)
        scratch.fill(path, rule: rule, paint: paint)
        let count = mask.width * mask.height
        for i in 0..<count { mask.data[i] = scratch.pixels[i * 4 + 3] }
    }

    /// The outline of the stroke of `path` (fill non-zero), curves within `tolerance`.
    static func stroke(_ path: Path, style: StrokeStyle, tolerance: Double) -> Path {
        path.stroked(style, tolerance: tolerance)
    }

    /// `path` cut into dashes (open subpaths of line segments, curves within `tolerance`).
    static func dash(_ path: Path, lengths: [Double], phase: Double, tolerance: Double) -> Path {
        path.dashed(lengths: lengths, phase: phase, tolerance: tolerance)
    }

    /// Gaussian blur of `pixmap` in place with standard deviation `sigma` pixels.
    static func blur(_ pixmap: Pixmap, sigma: Double) {
        // PENDING: Raster's blur has not landed on main yet; shadows are drawn unblurred.
    }
}
