import Foundation
import Raster

extension CGPath {
    /// Citrine, for path animations (`CABasicAnimation`/`CAKeyframeAnimation` on a shape
    /// layer's `path`): the path whose every point is this path's point plus (`other`'s − this
    /// one's)·`t`, element for element, or nil when the two paths' elements differ in kind or
    /// number. Apple (`CAShapeLayer.path`): paths interpolate as a linear blend of their on-curve
    /// points, off-curve points "may be interpolated non-linearly", and between paths with
    /// different numbers of control points or segments the result is undefined (the caller then
    /// steps). Citrine blends every point linearly.
    ///
    /// The elements are this path's own (the kind array shared, not copied); only the points
    /// are new: one allocation besides the path object, whatever the element count.
    package func interpolated(to other: CGPath, fraction t: Double) -> CGPath? {
        guard path.verbs == other.path.verbs, path.points.count == other.path.points.count else { return nil }
        let f = CGFloat(t)
        var result = Path()
        result.verbs = path.verbs
        result.points = [Point](unsafeUninitializedCapacity: path.points.count) { buffer, count in
            path.points.withUnsafeBufferPointer { a in
                other.path.points.withUnsafeBufferPointer { b in
                    for i in 0..<a.count {
                        let p = CGPoint(a[i]), q = CGPoint(b[i])
                        buffer[i] = Point(CGPoint(x: p.x + (q.x - p.x) * f, y: p.y + (q.y - p.y) * f))
                    }
                }
            }
            count = path.points.count
        }
        return CGPath(rasterPath: result)
    }
}
