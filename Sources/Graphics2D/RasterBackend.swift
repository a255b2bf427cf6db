import Raster

/// The only place Graphics2D calls the pixel engine's drawing entry points (fill, coverage
/// into a mask, stroke and dash outlines, blur), so the Core Graphics layer stays
/// independent of how Raster spells them.
enum RasterBackend {
    /// Fills device-space `path` into `pixmap` with `paint`, through `clip`.
    static func fill(_ path: Path, rule: FillRule, paint: Paint, clip: Mask?, into pixmap: Pixmap) {
        // PENDING: Raster's Pixmap.fill has not landed on main yet.
    }

    /// Writes the coverage (0…255) of device-space `path` into `mask`.
    static func renderCoverage(_ path: Path, rule: FillRule, antiAlias: Bool, into mask: Mask) {
        // PENDING: Raster's coverage rasterizer has not landed on main yet.
    }

    /// The outline of the stroke of `path` (fill non-zero), curves within `tolerance`.
    static func stroke(_ path: Path, style: StrokeStyle, tolerance: Double) -> Path {
        // PENDING: Raster's stroker has not landed on main yet.
        Path()
    }

    /// `path` cut into dashes.
    static func dash(_ path: Path, lengths: [Double], phase: Double) -> Path {
        // PENDING: Raster's dasher has not landed on main yet.
        path
    }

    /// Gaussian blur of `pixmap` in place with standard deviation `sigma` pixels.
    static func blur(_ pixmap: Pixmap, sigma: Double) {
        // PENDING: Raster's blur has not landed on main yet.
    }
}
