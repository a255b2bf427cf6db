/// The abstract animation class (Apple's `CAAnimation`). Skeleton: the timing and animation
/// helper fills in the rest (timing functions, delegate, key-value storage, evaluation).
open class CAAnimation: CAMediaTiming {
    public var beginTime: CFTimeInterval = 0
    public var duration: CFTimeInterval = 0
    public var speed: Float = 1
    public var timeOffset: CFTimeInterval = 0
    public var repeatCount: Float = 0
    public var repeatDuration: CFTimeInterval = 0
    public var autoreverses: Bool = false
    public var fillMode: CAMediaTimingFillMode = .removed
    /// Remove the animation from its layer when its active duration ends. Default true.
    public var isRemovedOnCompletion: Bool = true

    public required init() {}
}
