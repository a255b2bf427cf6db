/// How string drawing and measuring went (Apple's `NSStringDrawingContext`). Citrine never
/// shrinks text to fit, so `actualScaleFactor` stays 1 whatever `minimumScaleFactor` asks;
/// `totalBounds` is the rectangle of the last `boundingRect(with:options:context:)` or draw
/// that was given this context.
open class NSStringDrawingContext {
    /// The smallest scale factor allowed to fit the text (default 0: no shrinking).
    open var minimumScaleFactor: CGFloat = 0
    /// The scale factor actually used: always 1 here.
    open private(set) var actualScaleFactor: CGFloat = 1
    /// The bounds of the last measured or drawn text (points; default `.zero`).
    open internal(set) var totalBounds: CGRect = .zero

    public init() {}
}
