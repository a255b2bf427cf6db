/// Floating-point → integer conversion that cannot trap.
///
/// Swift's `Int(_: Double)` traps on NaN, ±∞ and any value outside `Int`'s range, so a counter,
/// pixel size or segment count computed from caller-supplied geometry (a 1e38 control point, a
/// 1e30 shadow radius, a NaN colour) must never go through it. Every such conversion in Citrine
/// goes through `Int(clamping:to:)` instead, with the bounds the quantity is documented to have.
extension Int {
    /// `value` with its fractional part dropped (round it first for another rule), clamped into
    /// `bounds`; NaN gives `bounds.lowerBound`. Never traps.
    @inlinable
    public init(clamping value: Double, to bounds: ClosedRange<Int>) {
        // Double(upperBound) may round up (Int.max → 2⁶³); every value below it converts exactly.
        if value >= Double(bounds.upperBound) {
            self = bounds.upperBound
        } else if value > Double(bounds.lowerBound) {
            self = Swift.max(bounds.lowerBound, Int(value))
        } else {
            self = bounds.lowerBound   // below the range, or NaN
        }
    }
}
