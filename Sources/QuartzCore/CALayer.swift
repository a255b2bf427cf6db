/// The layer class (Apple's `CALayer`). Skeleton: the layer-model helper fills in the rest.
open class CALayer: CAMediaTiming {
    public var beginTime: CFTimeInterval = 0
    /// Layers have an infinite duration by default (Apple).
    public var duration: CFTimeInterval = .infinity
    public var speed: Float = 1
    public var timeOffset: CFTimeInterval = 0
    public var repeatCount: Float = 0
    public var repeatDuration: CFTimeInterval = 0
    public var autoreverses: Bool = false
    public var fillMode: CAMediaTimingFillMode = .removed

    public required init() {}

    /// Key-value access by key path (Apple's KVC), e.g. "position.x", "transform.rotation.z".
    open func value(forKeyPath keyPath: String) -> Any? { nil }
    /// Sets the value at a key path (Apple's KVC).
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {}
}
