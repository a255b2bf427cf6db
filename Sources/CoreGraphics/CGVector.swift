import Foundation

/// A two-dimensional vector (Apple's `CGVector`): `dx` and `dy` in the units of whatever it
/// measures — points, points per second, or (for UIKit's spring velocities) distances per second.
/// Swift's Foundation on Linux has `CGPoint`, `CGSize` and `CGRect` but not this one.
public struct CGVector: Hashable, Sendable, Codable {
    public var dx: CGFloat
    public var dy: CGFloat

    /// The zero vector (0, 0).
    public init() { dx = 0; dy = 0 }
    public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy }
    public init(dx: Double, dy: Double) { self.dx = CGFloat(dx); self.dy = CGFloat(dy) }
    public init(dx: Int, dy: Int) { self.dx = CGFloat(dx); self.dy = CGFloat(dy) }

    /// (0, 0).
    public static let zero = CGVector()
}
