import Raster

/// The only place CoreGraphics calls the pixel engine's drawing entry points (fill, coverage
/// into a mask, stroke and dash outlines, blur), so the Core Graphics layer stays
/// independent of how Raster spells them.
enum RasterBackend {
    /// Fills device-space `path` into `pixmap` with `paint`, through `clip`.
    static func fill(_ path: Path, rule: FillRule, paint: Paint, clip: Mask?, into pixmap: Pixmap) {
        pixmap.fill(path, rule: rule, paint: paint, clip: clip)
    }

    /// Writes the coverage (0…255) of device-space `path` into `mask` (same size as the target).
    static func renderCoverage(_ path: Path, rule: FillRule, antiAlias: Bool, into mask: Mask) {
        mask.fill(path, rule: rule, antiAlias: antiAlias)
    }

    /// The outline of the stroke of `path` (fill non-zero), curves within `tolerance`.
    static func stroke(_ path: Path, style: StrokeStyle, tolerance: Double) -> Path {
        path.stroked(style, tolerance: tolerance)
    }

    /// Strokes `path` (mapped into user space by `pathTransform`, then to the pixmap by
    /// `transform`) with `style` into `pixmap`, curves within `tolerance` (user space); a dashed
    /// stroke is drawn dash by dash.
    static func stroke(_ path: Path, pathTransform: Transform, style: StrokeStyle, paint: Paint, transform: Transform,
                       tolerance: Double, clip: Mask?, into pixmap: Pixmap) {
        pixmap.stroke(path, style: style, paint: paint, transform: transform, clip: clip, tolerance: tolerance,
                      pathTransform: pathTransform)
    }

    /// `path` cut into dashes (open subpaths of line segments, curves within `tolerance`).
    static func dash(_ path: Path, lengths: [Double], phase: Double, tolerance: Double) -> Path {
        path.dashed(lengths: lengths, phase: phase, tolerance: tolerance)
    }

    /// Gaussian blur of `pixmap` in place with standard deviation `sigma` pixels.
    static func blur(_ pixmap: Pixmap, sigma: Double) {
        pixmap.gaussianBlur(sigma: sigma)
    }

    /// Pixels a blur of `sigma` spreads content by.
    static func blurMargin(sigma: Double) -> Int { Pixmap.blurMargin(sigma: sigma) }

    /// Composites `source` onto `target` with its top-left pixel at (`x`, `y`).
    static func composite(_ source: Pixmap, at x: Int, _ y: Int, opacity: Float, blendMode: BlendMode,
                          clip: Mask?, onto target: Pixmap) {
        target.draw(source, atX: x, y: y, opacity: opacity, blendMode: blendMode, clip: clip)
    }
}
