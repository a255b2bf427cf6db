/// How a source colour combines with the destination: the Porter-Duff operators and the
/// separable and non-separable blend modes of Core Graphics (`CGBlendMode`) and PDF.
public enum BlendMode: Sendable, Equatable, CaseIterable {
    // Porter-Duff
    case clear, copy, sourceOver, sourceIn, sourceOut, sourceAtop
    case destinationOver, destinationIn, destinationOut, destinationAtop, xor, plusLighter, plusDarker
    // separable
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion
    // non-separable
    case hue, saturation, color, luminosity
}

/// What happens outside a gradient's 0…1 range or an image's bounds.
public enum SpreadMode: Sendable, Equatable {
    /// Repeat the edge value (gradients: end colours; images: clamp-to-edge).
    case pad
    case reflect
    case `repeat`
    /// Transparent outside (images: nothing drawn outside the image rectangle).
    case decal
}

/// A colour stop of a gradient: `offset` in 0…1, straight colour.
public struct GradientStop: Equatable, Sendable {
    public var offset: Float
    public var color: Color
    @inlinable public init(offset: Float, color: Color) { self.offset = offset; self.color = color }
}

/// Linear gradient from `start` (t = 0) to `end` (t = 1), in the gradient space that
/// `transform` maps to device space.
public struct LinearGradient: Equatable, Sendable {
    public var start: Point, end: Point
    public var stops: [GradientStop]
    public var spread: SpreadMode = .pad
    public var transform: Transform = .identity
    public init(start: Point, end: Point, stops: [GradientStop], spread: SpreadMode = .pad,
                transform: Transform = .identity) {
        self.start = start; self.end = end; self.stops = stops; self.spread = spread
        self.transform = transform
    }
}

/// Two-circle radial gradient (Core Graphics / PDF / canvas semantics): t = 0 on the circle
/// (startCenter, startRadius), t = 1 on (endCenter, endRadius), interpolated circles between.
public struct RadialGradient: Equatable, Sendable {
    public var startCenter: Point, startRadius: Double
    public var endCenter: Point, endRadius: Double
    public var stops: [GradientStop]
    public var spread: SpreadMode = .pad
    public var transform: Transform = .identity
    public init(startCenter: Point, startRadius: Double, endCenter: Point, endRadius: Double,
                stops: [GradientStop], spread: SpreadMode = .pad, transform: Transform = .identity) {
        self.startCenter = startCenter; self.startRadius = startRadius
        self.endCenter = endCenter; self.endRadius = endRadius
        self.stops = stops; self.spread = spread; self.transform = transform
    }
}

/// Conic (angular, sweep) gradient around `center`: t = 0 at `startAngle` (radians, +x towards
/// +y), increasing with the angle through one full turn.
public struct ConicGradient: Equatable, Sendable {
    public var center: Point
    public var startAngle: Double
    public var stops: [GradientStop]
    public var transform: Transform = .identity
    public init(center: Point, startAngle: Double, stops: [GradientStop], transform: Transform = .identity) {
        self.center = center; self.startAngle = startAngle; self.stops = stops; self.transform = transform
    }
}

/// How an image is sampled.
public enum ImageFilter: Sendable, Equatable {
    case nearest
    case bilinear
    /// Bilinear with mipmaps / area filtering when minifying, so a large image drawn small
    /// does not alias.
    case smooth
}

/// An image used as paint: `transform` maps image pixel space (origin top-left of the image,
/// pixel (i, j) covering [i, i+1) × [j, j+1)) to device space; projective transforms allowed.
public struct ImagePattern: @unchecked Sendable {
    public var image: Pixmap
    public var transform: Projective
    public var filter: ImageFilter
    public var spread: SpreadMode
    /// For `.smooth`: added to log₂(texels per device pixel) before the mipmap level is chosen
    /// (positive: a smaller, blurrier level; negative: a larger, sharper one). Default 0.
    public var levelOfDetailBias: Double = 0
    public init(image: Pixmap, transform: Projective, filter: ImageFilter = .bilinear,
                spread: SpreadMode = .decal) {
        self.image = image; self.transform = transform; self.filter = filter; self.spread = spread
    }
    public init(image: Pixmap, transform: Transform, filter: ImageFilter = .bilinear,
                spread: SpreadMode = .decal) {
        self.init(image: image, transform: Projective(transform), filter: filter, spread: spread)
    }
}

/// The source of colour for a draw.
public enum Shader: @unchecked Sendable {
    case solid(Color)
    case linearGradient(LinearGradient)
    case radialGradient(RadialGradient)
    case conicGradient(ConicGradient)
    case image(ImagePattern)
}

/// Everything about *how* a shape is painted, but not its geometry.
public struct Paint: @unchecked Sendable {
    public var shader: Shader
    public var blendMode: BlendMode
    /// Multiplies the shader's alpha, 0…1.
    public var opacity: Float
    /// Anti-aliased edges (default true). Without it, a pixel is in when its centre is.
    public var antiAlias: Bool
    public init(shader: Shader, blendMode: BlendMode = .sourceOver, opacity: Float = 1, antiAlias: Bool = true) {
        self.shader = shader; self.blendMode = blendMode; self.opacity = opacity; self.antiAlias = antiAlias
    }
    public init(color: Color, blendMode: BlendMode = .sourceOver) {
        self.init(shader: .solid(color), blendMode: blendMode)
    }
}

/// How a path is stroked (Core Graphics defaults: width 1, butt caps, miter joins, limit 10).
public struct StrokeStyle: Equatable, Sendable {
    public enum Cap: Sendable, Equatable { case butt, round, square }
    public enum Join: Sendable, Equatable { case miter, round, bevel }
    public var width: Double = 1
    public var cap: Cap = .butt
    public var join: Join = .miter
    public var miterLimit: Double = 10
    /// Dash lengths, on/off alternating, in user space; empty = solid.
    public var dash: [Double] = []
    public var dashPhase: Double = 0
    public init(width: Double = 1, cap: Cap = .butt, join: Join = .miter, miterLimit: Double = 10,
                dash: [Double] = [], dashPhase: Double = 0) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dash = dash; self.dashPhase = dashPhase
    }
}
