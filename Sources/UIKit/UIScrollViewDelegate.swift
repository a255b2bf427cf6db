/// What a scroll view tells its delegate (Apple's `UIScrollViewDelegate`). Linux has no
/// optional protocol requirements, so each method has a default implementation that does
/// nothing, as an unimplemented optional method does on iOS.
///
/// Order of the calls for a drag that ends with a flick (Apple's documented sequence):
/// `scrollViewWillBeginDragging` → `scrollViewDidScroll`… → `scrollViewWillEndDragging(_:
/// withVelocity:targetContentOffset:)` → `scrollViewDidEndDragging(_:willDecelerate:)` →
/// `scrollViewWillBeginDecelerating` → `scrollViewDidScroll`… → `scrollViewDidEndDecelerating`.
/// `setContentOffset(_:animated: true)` and `scrollRectToVisible(_:animated: true)` end with
/// `scrollViewDidEndScrollingAnimation` instead.
public protocol UIScrollViewDelegate: AnyObject {
    /// The content offset changed (by a drag, a deceleration, an animation or a direct set).
    func scrollViewDidScroll(_ scrollView: UIScrollView)
    /// A drag is about to scroll the content.
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView)
    /// The finger lifted: `velocity` is in points per millisecond (Apple: "The velocity of the
    /// scroll view (in points per millisecond) at the moment the touch was released"), positive
    /// where the content offset grows; `targetContentOffset` is where the scroll will come to
    /// rest, and the delegate may change it.
    func scrollViewWillEndDragging(_ scrollView: UIScrollView, withVelocity velocity: CGPoint,
                                   targetContentOffset: UnsafeMutablePointer<CGPoint>)
    /// The drag ended; `decelerate` says whether the content goes on moving.
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
    /// The content starts moving on its own after a drag.
    func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView)
    /// The content has come to rest after a drag.
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView)
    /// An animation started by `setContentOffset(_:animated:)` or `scrollRectToVisible(_:animated:)` ended.
    func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView)
    /// The adjusted content inset changed (iOS 11).
    func scrollViewDidChangeAdjustedContentInset(_ scrollView: UIScrollView)
}

public extension UIScrollViewDelegate {
    func scrollViewDidScroll(_ scrollView: UIScrollView) {}
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {}
    func scrollViewWillEndDragging(_ scrollView: UIScrollView, withVelocity velocity: CGPoint,
                                   targetContentOffset: UnsafeMutablePointer<CGPoint>) {}
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {}
    func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView) {}
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {}
    func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) {}
    func scrollViewDidChangeAdjustedContentInset(_ scrollView: UIScrollView) {}
}
