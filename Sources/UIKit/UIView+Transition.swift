// UIView's transitions: a `CATransition` on a container view's layer, so that Core Animation
// shows the container as it was (a picture taken when the transition is added) turning into
// the container as it is after the changes.
//
//     option                      CATransition type   subtype
//     transitionFlipFromLeft      "oglFlip"           fromLeft
//     transitionFlipFromRight     "oglFlip"           fromRight
//     transitionFlipFromTop       "oglFlip"           fromTop
//     transitionFlipFromBottom    "oglFlip"           fromBottom
//     transitionCurlUp            "pageCurl"          —
//     transitionCurlDown          "pageUnCurl"        —
//     transitionCrossDissolve     fade                —
//
// (The flip and curl types are the private Core Animation types the seed tutorial lists; the
// compositor decides how each is drawn.)

extension UIView {
    /// A transition of `view`: `animations` changes it (adds, removes, shows or hides subviews,
    /// changes content), and the transition chosen in `options` animates from how it looked to
    /// how it looks after, over `duration` seconds with the options' curve. Without
    /// `.allowAnimatedContent` the block's changes are shown only through the transition (not
    /// animated themselves); with it, or when `options` name no transition, they animate as in
    /// `animate(withDuration:…)`. `completion(finished)` runs when the transition (and any
    /// animation of the block) has ended. A duration of 0 or less makes the changes at once.
    public class func transition(with view: UIView, duration: TimeInterval, options: UIView.AnimationOptions = [],
                                 animations: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        let tracker = UIViewAnimationTracker(completion: completion)
        let animated = duration > 0 && areAnimationsEnabled
        let transition = animated ? options.transition : nil
        if let transition {
            addTransition(transition, duration: duration, options: options, to: view, tracker: tracker)
        }
        if animated && (transition == nil || options.contains(.allowAnimatedContent)) {
            let timing = UIViewAnimationContext.Timing(duration: duration, delay: 0, options: options, spring: nil)
            UIViewAnimationContext.run(.animating(timing), tracker: tracker) { animations?() }
        } else {
            UIViewAnimationContext.run(.suppressed, tracker: nil) { animations?() }
        }
        tracker.seal()
    }

    /// A transition from `fromView` to `toView` in `fromView`'s superview: `toView` takes
    /// `fromView`'s place among the superview's subviews and `fromView` is removed (with
    /// `.showHideTransitionViews`: `fromView` is hidden and `toView` shown, both staying in the
    /// hierarchy), and the transition chosen in `options` animates the superview from the old
    /// picture to the new one over `duration` seconds. `completion(finished)` runs when the
    /// transition ends.
    ///
    /// The views are swapped when the transition starts, not when it ends: the transition is
    /// the superview's `transition(with:…)` of that change (Apple: "the to-view is added to,
    /// and the from-view is removed from, the parent view's list of subviews"), and the picture
    /// it animates to must already show the new view. Without a superview nothing happens but
    /// the completion (at the next run-loop turn).
    public class func transition(from fromView: UIView, to toView: UIView, duration: TimeInterval,
                                 options: UIView.AnimationOptions = [], completion: ((Bool) -> Void)? = nil) {
        guard let container = fromView.superview else {
            if let completion { UIApplication.shared.enqueueForNextTurn { completion(true) } }
            return
        }
        let tracker = UIViewAnimationTracker(completion: completion)
        if duration > 0, areAnimationsEnabled, let transition = options.transition {
            addTransition(transition, duration: duration, options: options, to: container, tracker: tracker)
        }
        UIViewAnimationContext.run(.suppressed, tracker: nil) {
            if options.contains(.showHideTransitionViews) {
                fromView.isHidden = true
                toView.isHidden = false
            } else {
                if toView.superview !== container || toView === fromView {
                    container.insertSubview(toView, aboveSubview: fromView)
                }
                if toView !== fromView { fromView.removeFromSuperview() }
            }
        }
        tracker.seal()
    }

    /// Adds the `CATransition` of `kind` to `view`'s layer, reporting to `tracker`.
    private static func addTransition(_ kind: (type: CATransitionType, subtype: CATransitionSubtype?),
                                      duration: TimeInterval, options: UIView.AnimationOptions, to view: UIView,
                                      tracker: UIViewAnimationTracker) {
        let transition = CATransition()
        transition.type = kind.type
        transition.subtype = kind.subtype
        transition.duration = duration
        transition.timingFunction = options.timingFunction
        transition.delegate = tracker.token(view: view, key: kCATransition,
                                            blocksInteraction: !options.contains(.allowUserInteraction))
        view.layer.add(transition, forKey: kCATransition)
    }
}
