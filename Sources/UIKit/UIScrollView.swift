import Foundation

/// A view whose content is larger than it and is dragged around (Apple's `UIScrollView`).
///
/// As on iOS, `contentOffset` IS `bounds.origin`: scrolling moves the bounds, so the subviews
/// (the content, placed in the scroll view's coordinates) move the other way, and the layer tree
/// shows it without any extra transform. The content spans `contentSize` from (0, 0), with
/// `adjustedContentInset` (here `contentInset`: Citrine has no safe area or bars) around it, so
/// the offset ranges from (−left, −top) to (width + right − bounds width, height + bottom −
/// bounds height), or stays at the low end on an axis where the content is smaller.
///
/// Dragging: `panGestureRecognizer` (attached to the scroll view) moves the offset by the pan's
/// translation since it began. Past an edge, with `bounces`, the content follows the finger less
/// and less: an overshoot x shows as (1 − 1/(x·c/d + 1))·d with c = 0.55 and d the bounds'
/// dimension on that axis — the formula @chpwn published for UIScrollView's rubber band (2013;
/// analysed in "Analysis of Apple's rubber band scrolling", squareb.wordpress.com, 2013-01-06).
/// Without `bounces` the offset stops at the edge.
///
/// After the finger lifts (see `ScrollAxisMotion`): a deceleration whose velocity is multiplied
/// by `decelerationRate` every millisecond (.normal 0.998, .fast 0.99, the values of
/// `UIScrollViewDecelerationRateNormal`/`Fast`), a critically damped bounce back when it was
/// released past an edge or reaches one, and with `isPagingEnabled` a deceleration that stops
/// on a page boundary. The motion is sampled by a display link at each frame, sending
/// `scrollViewDidScroll` as iOS does.
///
/// Not drawn: scroll indicators (the `shows…Indicator` flags are kept), zooming.
open class UIScrollView: UIView {
    /// How fast a scroll decelerates (Apple's `UIScrollView.DecelerationRate`): the factor the
    /// velocity is multiplied by every millisecond.
    public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        public var rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        /// The default: 0.998 per millisecond.
        public static let normal = DecelerationRate(rawValue: 0.998)
        /// 0.99 per millisecond.
        public static let fast = DecelerationRate(rawValue: 0.99)
    }

    /// How the safe area adjusts the content inset (Apple's raw values). Citrine has no safe
    /// area: every behavior gives `adjustedContentInset == contentInset`.
    public enum ContentInsetAdjustmentBehavior: Int, Sendable {
        case automatic = 0, scrollableAxes, never, always
    }

    /// Scroll-indicator colours (Apple's raw values; indicators are not drawn).
    public enum IndicatorStyle: Int, Sendable {
        case `default` = 0, black, white
    }

    /// How dragging dismisses the keyboard (Apple's raw values; there is no keyboard here).
    public enum KeyboardDismissMode: Int, Sendable {
        case none = 0, onDrag, interactive, onDragWithAccessory, interactiveWithAccessory
    }

    /// When a table's index shows (Apple's raw values; accepted).
    public enum IndexDisplayMode: Int, Sendable {
        case automatic = 0, alwaysHidden
    }

    open weak var delegate: UIScrollViewDelegate?
    /// Accepted. Default `.none`.
    open var keyboardDismissMode: KeyboardDismissMode = .none
    /// Accepted. Default `.automatic`.
    open var indexDisplayMode: IndexDisplayMode = .automatic

    /// The size of the content (points). Default `.zero`.
    open var contentSize: CGSize = .zero
    /// Extra space around the content (points). Default `.zero`.
    open var contentInset: UIEdgeInsets = .zero {
        didSet {
            guard contentInset != oldValue else { return }
            adjustedContentInsetDidChange()
            delegate?.scrollViewDidChangeAdjustedContentInset(self)
        }
    }
    /// The inset scrolling uses: `contentInset` (no safe area here).
    open var adjustedContentInset: UIEdgeInsets { contentInset }
    /// Default `.automatic` (accepted; see `ContentInsetAdjustmentBehavior`).
    open var contentInsetAdjustmentBehavior: ContentInsetAdjustmentBehavior = .automatic
    /// Called when `adjustedContentInset` changes. Default: nothing.
    open func adjustedContentInsetDidChange() {}

    /// Whether dragging scrolls (the pan recognizer's `isEnabled`). Default true.
    open var isScrollEnabled: Bool {
        get { panGestureRecognizer.isEnabled }
        set { panGestureRecognizer.isEnabled = newValue }
    }
    /// Whether the content goes past the edges with the rubber band and bounces back. Default true.
    open var bounces = true
    /// Rubber band vertically even when the content is not taller than the view. Default false.
    open var alwaysBounceVertical = false
    /// Rubber band horizontally even when the content is not wider than the view. Default false.
    open var alwaysBounceHorizontal = false
    /// Stop on multiples of the bounds' size. Default false.
    open var isPagingEnabled = false
    /// Accepted (scroll indicators are not drawn). Default true.
    open var showsVerticalScrollIndicator = true
    /// Accepted (scroll indicators are not drawn). Default true.
    open var showsHorizontalScrollIndicator = true
    /// Accepted. Default `.default`.
    open var indicatorStyle: IndicatorStyle = .default
    /// Accepted (a drag moves both axes). Default false.
    open var isDirectionalLockEnabled = false
    /// Accepted. Default true.
    open var scrollsToTop = true
    /// Accepted (touches are never delayed here). Default true.
    open var delaysContentTouches = true
    /// Accepted (the pan always cancels the content's touches once it begins). Default true.
    open var canCancelContentTouches = true
    /// The per-millisecond velocity factor after a drag. Default `.normal` (0.998). Values are
    /// used clamped to 0.001…0.9999 (NaN: `.normal`).
    open var decelerationRate: DecelerationRate = .normal

    /// The recognizer that drags the content.
    public private(set) var panGestureRecognizer: UIPanGestureRecognizer = UIPanGestureRecognizer()

    /// Whether a finger is down on the content (it may not have moved yet).
    open private(set) var isTracking = false
    /// Whether the content is being dragged (the pan has begun).
    open private(set) var isDragging = false
    /// Whether the content moves on after a drag.
    open private(set) var isDecelerating = false

    // Drag state.
    private var dragStartOffset: CGPoint = .zero
    private var dragStartTranslation: CGPoint = .zero
    // Motion state: the two axes, when it started, and whether it is a deceleration (else an
    // animation from `setContentOffset(_:animated:)`).
    private var motion: (x: ScrollAxisMotion, y: ScrollAxisMotion, start: CFTimeInterval, decelerating: Bool)?
    private var displayLink: CADisplayLink?

    public override init(frame: CGRect) {
        super.init(frame: frame)
        clipsToBounds = true
        let pan = ScrollPanGestureRecognizer()
        pan.scrollView = self
        pan.addTarget { [weak self] pan in self?.handlePan(pan) }
        panGestureRecognizer = pan
        addGestureRecognizer(pan)
    }

    public required init?(coder: NSCoder) { return nil }

    deinit { displayLink?.invalidate() }

    // MARK: Offset

    /// The point of the content at the view's top-left corner: `bounds.origin`. Setting it
    /// moves the content at once and sends `scrollViewDidScroll`.
    open var contentOffset: CGPoint {
        get { bounds.origin }
        set { setOffset(newValue) }
    }

    /// Sets `contentOffset`; with `animated`, over 0.3 s on the ease-in-ease-out curve (Apple
    /// states no length or curve; Citrine's choice), sending `scrollViewDidScroll` each frame and `scrollViewDidEndScrollingAnimation` at the end.
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {
        guard contentOffset.x.isFinite, contentOffset.y.isFinite else { return }
        stopMotion()
        guard animated, contentOffset != self.contentOffset else { return setOffset(contentOffset) }
        let from = self.contentOffset
        startMotion(x: .animation(from: from.x, to: contentOffset.x), y: .animation(from: from.y, to: contentOffset.y),
                    decelerating: false)
    }

    /// Scrolls the least that makes `rect` (content coordinates) visible, within the offset's
    /// range (nothing when it is visible already).
    open func scrollRectToVisible(_ rect: CGRect, animated: Bool) {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else { return }
        let size = bounds.size
        func axis(_ offset: CGFloat, _ lo: CGFloat, _ hi: CGFloat, _ extent: CGFloat, _ limits: ClosedRange<CGFloat>) -> CGFloat {
            var o = offset
            if hi > o + extent { o = hi - extent }
            if lo < o { o = lo }
            return o.clamped(to: limits)
        }
        let target = CGPoint(x: axis(contentOffset.x, rect.minX, rect.maxX, size.width, limits.x),
                             y: axis(contentOffset.y, rect.minY, rect.maxY, size.height, limits.y))
        setContentOffset(target, animated: animated)
    }

    /// The range of the offset on each axis (content larger than the view: the whole content
    /// with its insets; else the low end only).
    /// A size or inset that is NaN or infinite counts as 0.
    private var limits: (x: ClosedRange<CGFloat>, y: ClosedRange<CGFloat>) {
        func f(_ v: CGFloat) -> CGFloat { v.isFinite ? v : 0 }
        let inset = adjustedContentInset, size = bounds.size
        let minX = -f(inset.left), minY = -f(inset.top)
        let maxX = max(minX, f(f(contentSize.width) + f(inset.right) - f(size.width)))
        let maxY = max(minY, f(f(contentSize.height) + f(inset.bottom) - f(size.height)))
        return (minX...maxX, minY...maxY)
    }

    /// Whether a drag may move each axis: content larger than the view, or the axis's
    /// `alwaysBounce…` with `bounces`.
    private var movableAxes: (x: Bool, y: Bool) {
        let l = limits
        return (l.x.upperBound > l.x.lowerBound || (bounces && alwaysBounceHorizontal),
                l.y.upperBound > l.y.lowerBound || (bounces && alwaysBounceVertical))
    }

    private func setOffset(_ offset: CGPoint) {
        guard offset.x.isFinite, offset.y.isFinite, offset != bounds.origin else { return }
        var b = bounds
        b.origin = offset
        bounds = b
        delegate?.scrollViewDidScroll(self)
    }

    /// The rubber band (see the type's notes): where an overshoot of `x` points past an edge
    /// shows, on an axis of `dimension` points.
    static func rubberBand(_ x: CGFloat, dimension d: CGFloat) -> CGFloat {
        guard d > 0, x > 0 else { return 0 }
        return (1 - 1 / (x * 0.55 / d + 1)) * d
    }

    private var rate: CGFloat {
        let r = decelerationRate.rawValue
        return r.isNaN ? DecelerationRate.normal.rawValue : r.clamped(to: 0.001...0.9999)
    }

    // MARK: Dragging

    /// A finger went down on the content: any motion stops where it is (iOS stops a deceleration
    /// at the touch); a stopped deceleration still ends with `scrollViewDidEndDecelerating`, so
    /// that its begin and end calls pair up.
    fileprivate func touchDown() {
        isTracking = true
        if let motion { finishMotion(motion, stoppedByTouch: true) }
    }

    fileprivate func touchUp() {
        if !isDragging { isTracking = false }
    }

    private func handlePan(_ pan: UIPanGestureRecognizer) {
        switch pan.state {
        case .began:
            isDragging = true
            dragStartOffset = contentOffset
            // Window coordinates: the scroll view's own change as it scrolls.
            dragStartTranslation = pan.translation(in: nil)
            delegate?.scrollViewWillBeginDragging(self)
        case .changed:
            let movable = movableAxes, l = limits, t = pan.translation(in: nil)
            var raw = dragStartOffset
            if movable.x { raw.x -= t.x - dragStartTranslation.x }
            if movable.y { raw.y -= t.y - dragStartTranslation.y }
            setOffset(CGPoint(x: banded(raw.x, l.x, bounds.width), y: banded(raw.y, l.y, bounds.height)))
        case .ended, .cancelled:
            endDrag(pan)
        default:
            break
        }
    }

    /// `raw` (the offset the finger asks for) shown on an axis with `limits`: past an edge, the
    /// rubber band (or the edge without `bounces`).
    private func banded(_ raw: CGFloat, _ limits: ClosedRange<CGFloat>, _ dimension: CGFloat) -> CGFloat {
        if raw < limits.lowerBound {
            return bounces ? limits.lowerBound - Self.rubberBand(limits.lowerBound - raw, dimension: dimension) : limits.lowerBound
        }
        if raw > limits.upperBound {
            return bounces ? limits.upperBound + Self.rubberBand(raw - limits.upperBound, dimension: dimension) : limits.upperBound
        }
        return raw
    }

    private func endDrag(_ pan: UIPanGestureRecognizer) {
        let movable = movableAxes, l = limits, r = rate, offset = contentOffset
        let finger = pan.state == .ended ? pan.velocity(in: nil) : .zero
        // The content moves against the finger: the offset's velocity is minus the finger's.
        let v = CGPoint(x: movable.x ? -finger.x : 0, y: movable.y ? -finger.y : 0)
        let natural = CGPoint(x: offset.x + ScrollAxisMotion.projectedDistance(velocity: v.x, rate: r),
                              y: offset.y + ScrollAxisMotion.projectedDistance(velocity: v.y, rate: r))
        var target = CGPoint(x: natural.x.clamped(to: l.x), y: natural.y.clamped(to: l.y))
        if isPagingEnabled {
            target = CGPoint(x: pageTarget(natural.x, start: dragStartOffset.x, page: bounds.width, limits: l.x),
                             y: pageTarget(natural.y, start: dragStartOffset.y, page: bounds.height, limits: l.y))
        }
        withUnsafeMutablePointer(to: &target) { pointer in
            delegate?.scrollViewWillEndDragging(self, withVelocity: CGPoint(x: v.x / 1000, y: v.y / 1000),
                                                targetContentOffset: pointer)
        }
        if !target.x.isFinite || !target.y.isFinite { target = natural }
        let x = ScrollAxisMotion.release(at: offset.x, velocity: v.x, target: target.x, natural: natural.x,
                                         limits: l.x, rate: r, bounces: bounces)
        let y = ScrollAxisMotion.release(at: offset.y, velocity: v.y, target: target.y, natural: natural.y,
                                         limits: l.y, rate: r, bounces: bounces)
        let decelerate = !(x.isFinished(at: 0) && y.isFinished(at: 0))
        isDragging = false
        isTracking = false
        delegate?.scrollViewDidEndDragging(self, willDecelerate: decelerate)
        guard decelerate else {
            setOffset(CGPoint(x: x.restingValue, y: y.restingValue))
            return
        }
        delegate?.scrollViewWillBeginDecelerating(self)
        startMotion(x: x, y: y, decelerating: true)
    }

    /// Paging's resting offset on one axis: the page boundary nearest to where the natural
    /// deceleration would stop, at most one page from the page the drag started on (so a
    /// flick turns one page, as on iOS), within `limits`. Apple documents only that paging
    /// "stops on multiples of the scroll view's bounds"; the one-page rule is Citrine's reading
    /// of iOS's behaviour.
    private func pageTarget(_ natural: CGFloat, start: CGFloat, page: CGFloat, limits: ClosedRange<CGFloat>) -> CGFloat {
        guard page > 0 else { return natural.clamped(to: limits) }
        let startPage = (start / page).rounded()
        let p = (natural / page).rounded().clamped(to: (startPage - 1)...(startPage + 1))
        return (p * page).clamped(to: limits)
    }

    // MARK: Motion

    private func startMotion(x: ScrollAxisMotion, y: ScrollAxisMotion, decelerating: Bool) {
        motion = (x, y, CACurrentMediaTime(), decelerating)
        isDecelerating = decelerating
        if displayLink == nil {
            let link = CADisplayLink { [weak self] link in self?.step(link.timestamp) }
            link.add(to: .main, forMode: .common)
            displayLink = link
        }
        displayLink?.isPaused = false
    }

    /// One frame of the motion at media time `time`. A motion still going after
    /// `ScrollAxisMotion.longest` seconds ends at its resting offset.
    private func step(_ time: CFTimeInterval) {
        guard let m = motion else { displayLink?.isPaused = true; return }
        let t = max(0, time - m.start)
        setOffset(CGPoint(x: m.x.value(at: t), y: m.y.value(at: t)))
        if (m.x.isFinished(at: t) && m.y.isFinished(at: t)) || t > ScrollAxisMotion.longest { finishMotion(m, stoppedByTouch: false) }
    }

    /// Ends the motion: at its resting offset, or where it is when a touch stopped it.
    private func finishMotion(_ m: (x: ScrollAxisMotion, y: ScrollAxisMotion, start: CFTimeInterval, decelerating: Bool),
                              stoppedByTouch: Bool) {
        motion = nil
        displayLink?.isPaused = true
        isDecelerating = false
        if !stoppedByTouch { setOffset(CGPoint(x: m.x.restingValue, y: m.y.restingValue)) }
        if m.decelerating {
            delegate?.scrollViewDidEndDecelerating(self)
        } else if !stoppedByTouch {
            delegate?.scrollViewDidEndScrollingAnimation(self)
        }
    }

    /// Stops a motion without the delegate's end callbacks (a new offset replaces it).
    private func stopMotion() {
        motion = nil
        isDecelerating = false
        displayLink?.isPaused = true
    }
}

/// The scroll view's pan: tells it when a finger goes down and up, before the pan begins.
private final class ScrollPanGestureRecognizer: UIPanGestureRecognizer {
    weak var scrollView: UIScrollView?

    required init() { super.init() }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        scrollView?.touchDown()
        super.touchesBegan(touches, with: event)
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        super.touchesEnded(touches, with: event)
        scrollView?.touchUp()
    }

    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        super.touchesCancelled(touches, with: event)
        scrollView?.touchUp()
    }
}
