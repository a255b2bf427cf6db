import Synchronization

/// The display (Apple's `UIScreen`). Headless Citrine has one simulated screen, `main`: 375 × 667
/// points at scale 2 (an iPhone 8's, so that seed code sizing views from
/// `UIScreen.main.bounds` gets a familiar size). A window host or a test may change it with
/// `_setBounds(_:scale:)` (Citrine extension).
public final class UIScreen: @unchecked Sendable {
    private struct Metrics { var bounds: CGRect; var scale: CGFloat }
    private let metrics = Mutex(Metrics(bounds: CGRect(x: 0, y: 0, width: 375, height: 667), scale: 2))

    private init() {}

    /// The screen.
    public static let main = UIScreen()
    /// Largest scale `_setBounds(_:scale:)` takes: 8, as the window hosts (Apple's screens are 1 to 3).
    public static let maxScale: CGFloat = 8

    /// The screen's rectangle in points (origin zero).
    public var bounds: CGRect { metrics.withLock { $0.bounds } }
    /// Pixels per point.
    public var scale: CGFloat { metrics.withLock { $0.scale } }
    /// Pixels per point of the physical screen (the same as `scale` here).
    public var nativeScale: CGFloat { scale }
    /// The screen's rectangle in pixels.
    public var nativeBounds: CGRect {
        let b = bounds, s = scale
        return CGRect(x: 0, y: 0, width: b.width * s, height: b.height * s)
    }
    /// Frames per second of the simulated display (`CADisplayLink.displayRate`).
    public var maximumFramesPerSecond: Int { Int(CADisplayLink.displayRate) }

    /// Citrine extension: sets the simulated screen's size (points) and scale. A scale that is
    /// not positive and finite, or above `maxScale`, is ignored.
    public func _setBounds(_ bounds: CGRect, scale: CGFloat) {
        metrics.withLock { m in
            m.bounds = CGRect(origin: .zero, size: bounds.size)
            if scale.isFinite, scale > 0, scale <= Self.maxScale { m.scale = scale }
        }
    }
}
