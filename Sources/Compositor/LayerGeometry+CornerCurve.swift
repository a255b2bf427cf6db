import QuartzCore
import Raster

/// The outlines of rounded layers: `cornerCurve` `.circular` (quarter circles) and `.continuous`
/// (Apple's continuous-curvature corner, the iOS 7 rounded rectangle).
///
/// Apple publishes no formula for `.continuous`. Citrine uses the community reconstruction that
/// was measured against the paths `UIBezierPath(roundedRect:cornerRadius:)` returns since iOS 7
/// (PaintCode, "Drawing Code for iOS 7 Rounded Rectangles", paintcodeapp.com, whose "shape_1" is
/// the regular case; the numbers as circulated in open-source ports, e.g. github.com/
/// LinBowen9656/ChainableUIKit `UIBezierPath+ContinuousCorner.swift`): each corner of radius r
/// starts 1.52866483·r before the corner along one edge and ends 1.52866483·r after it along the
/// other, made of three cubics joined by two short lines, symmetric about the corner's diagonal,
/// tangent to both edges. The same reconstruction clamps the radius to
/// min(width, height) / (2 · 1.52866483) so that two corners never overlap along a side (a
/// layer's circular radius is clamped to half the shorter side likewise). Not verified here
/// against a CALayer on Apple hardware.
extension LayerGeometry {
    /// How far along each edge a continuous corner of radius 1 reaches.
    static let continuousCornerExtent = 1.52866483

    /// One continuous corner of radius 1 in corner coordinates (a, b): a = distance before the
    /// corner along the incoming edge, b = distance after it along the outgoing edge. Starts at
    /// (extent, 0); each element is a line (one point) or a cubic (control 1, control 2, end).
    private static let continuousCorner: [[(Double, Double)]] = [
        [(1.08849299, 0), (0.86840701, 0), (0.66993427, 0.06549600)],
        [(0.63149399, 0.07491100)],
        [(0.37282401, 0.16906001), (0.16906001, 0.37282401), (0.07491100, 0.63149399)],
        [(0.06549600, 0.66993427)],
        [(0, 0.86840701), (0, 1.08849299), (0, continuousCornerExtent)],
    ]

    /// `p`'s outline: its bounds rounded by cornerRadius at maskedCorners with its cornerCurve.
    static func outline(of p: CALayer) -> Path {
        roundedRect(p.bounds, radius: p.cornerRadius, corners: p.maskedCorners,
                    continuous: p._renderingOptions.contains(.continuousCorners))
    }

    /// A rectangle with the `corners` rounded by `radius`: quarter circles (as cubics, radius
    /// clamped to half the shorter side), or continuous corners (radius clamped to the shorter
    /// side / (2 · 1.52866483), see above). Layer space (minY = top on iOS).
    static func roundedRect(_ r: CGRect, radius: CGFloat, corners: CACornerMask, continuous: Bool = false) -> Path {
        let shortSide = Double(min(r.width, r.height))
        let limit = continuous ? shortSide / 2 / continuousCornerExtent : shortSide / 2
        let rad = min(Double(max(0, radius)), limit)
        guard rad > 0 else { return Path(rect: Rect(r)) }
        func cornerRadius(_ c: CACornerMask) -> Double { corners.contains(c) ? rad : 0 }
        let x0 = Double(r.minX), y0 = Double(r.minY), x1 = Double(r.maxX), y1 = Double(r.maxY)
        // Clockwise in y-down space: each corner, the direction of travel into it and out of it.
        let path: [(corner: Point, radius: Double, dIn: Point, dOut: Point)] = [
            (Point(x: x1, y: y0), cornerRadius(.layerMaxXMinYCorner), Point(x: 1, y: 0), Point(x: 0, y: 1)),
            (Point(x: x1, y: y1), cornerRadius(.layerMaxXMaxYCorner), Point(x: 0, y: 1), Point(x: -1, y: 0)),
            (Point(x: x0, y: y1), cornerRadius(.layerMinXMaxYCorner), Point(x: -1, y: 0), Point(x: 0, y: -1)),
            (Point(x: x0, y: y0), cornerRadius(.layerMinXMinYCorner), Point(x: 0, y: -1), Point(x: 1, y: 0)),
        ]
        var p = Path()
        for (i, c) in path.enumerated() {
            /// The point `a` before the corner along the incoming edge and `b` after it along the outgoing one.
            func at(_ a: Double, _ b: Double) -> Point {
                Point(x: c.corner.x - a * c.radius * c.dIn.x + b * c.radius * c.dOut.x,
                      y: c.corner.y - a * c.radius * c.dIn.y + b * c.radius * c.dOut.y)
            }
            let extent = continuous ? continuousCornerExtent : 1
            if i == 0 { p.move(to: at(extent, 0)) } else { p.line(to: at(extent, 0)) }
            guard c.radius > 0 else { continue }
            if continuous {
                for element in continuousCorner {
                    if element.count == 1 {
                        p.line(to: at(element[0].0, element[0].1))
                    } else {
                        p.cubic(to: at(element[2].0, element[2].1), control1: at(element[0].0, element[0].1),
                                control2: at(element[1].0, element[1].1))
                    }
                }
            } else {
                // A quarter circle as one cubic (control arms 0.5523·r, the usual 4/3·tan(π/8)).
                let k = 1 - 0.5522847498307936
                p.cubic(to: at(0, 1), control1: at(k, 0), control2: at(0, k))
            }
        }
        p.close()
        return p
    }
}
