import Raster

/// A colour ramp (Apple's `CGGradient`): colours at locations in 0…1, interpolated linearly
/// between neighbouring locations in straight (un-premultiplied) sRGB components, as Core
/// Graphics interpolates in the gradient's colour space. Drawn with
/// `CGContext.drawLinearGradient` / `drawRadialGradient`.
public final class CGGradient: @unchecked Sendable {
    /// The stops, sorted by location (project API).
    public let stops: [GradientStop]

    /// A gradient from `colors` (an array of `CGColor`) at `locations` (one per colour, 0…1;
    /// nil spaces them evenly from 0 to 1). Nil when `colors` is empty or holds something
    /// other than `CGColor`. `space` is accepted for Apple compatibility; colours are
    /// converted to sRGB.
    public init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: UnsafePointer<CGFloat>?) {
        let cgColors = colors.compactMap { $0 as? CGColor }
        guard !cgColors.isEmpty, cgColors.count == colors.count else { return nil }
        let offsets = CGGradient.locations(locations, count: cgColors.count)
        stops = CGGradient.sorted(zip(offsets, cgColors.map(\.rasterColor)))
    }

    /// A gradient from `count` colours given as consecutive components of `space` (colour
    /// components then alpha for each), at `locations` (nil: evenly spaced). Nil when
    /// `count` < 1.
    public init?(colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>,
                 locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count >= 1, count <= 1 << 16 else { return nil }
        let stride = space.numberOfComponents + 1
        let colors = (0..<count).map { i in
            CGColor(colorSpace: space, components: components + i * stride)!.rasterColor
        }
        stops = CGGradient.sorted(zip(CGGradient.locations(locations, count: count), colors))
    }

    private static func locations(_ locations: UnsafePointer<CGFloat>?, count: Int) -> [Float] {
        guard let locations else {
            return (0..<count).map { count == 1 ? 0 : Float($0) / Float(count - 1) }
        }
        return (0..<count).map { i in
            let l = locations[i]
            return l.isNaN ? 0 : Float(min(max(l, 0), 1))
        }
    }

    private static func sorted<S: Sequence>(_ pairs: S) -> [GradientStop] where S.Element == (Float, Color) {
        pairs.enumerated()
            .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
            .map { GradientStop(offset: $0.element.0, color: $0.element.1) }
    }
}
