// Design note: custom view-controller transitions, as Apple's UIKit defines them. A transition
// (a presentation, a dismissal, a navigation push or pop) builds a `UITransitionContext` (this
// module's `UIViewControllerContextTransitioning`) with a container view in the window, asks the
// delegate for an animator (else uses the default one: cover vertical for presentations, a
// horizontal slide for navigation), and, when the delegate gives an interaction controller, lets
// it drive the animator's Core Animation animations by pausing the container's layer (speed 0)
// and moving its `timeOffset` — as UIKit's `UIPercentDrivenInteractiveTransition` does. The
// animator calls `completeTransition(_:)`, which puts the views where the outcome wants them.
//
// Deviation (no Objective-C): the protocols' optional methods have default implementations that
// do what an absent optional method does on iOS; the protocols do not require NSObjectProtocol
// (a class that subclasses NSObject, as iOS code does, conforms all the same).

/// The keys of a transition's two views (Apple's `UITransitionContextViewKey`, raw values the
/// strings iOS uses).
public struct UITransitionContextViewKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The view of the controller that is going away.
    public static let from = UITransitionContextViewKey(rawValue: "fromView")
    /// The view of the controller that is coming.
    public static let to = UITransitionContextViewKey(rawValue: "toView")
}

/// The keys of a transition's two view controllers (Apple's `UITransitionContextViewControllerKey`).
public struct UITransitionContextViewControllerKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let from = UITransitionContextViewControllerKey(rawValue: "UITransitionContextFromViewControllerKey")
    public static let to = UITransitionContextViewControllerKey(rawValue: "UITransitionContextToViewControllerKey")
}

/// How a presented controller is shown (Apple's `UIModalPresentationStyle`, raw values Apple's).
/// Citrine shows every style but `.custom` as `.fullScreen` (the presenter's view is removed
/// once the presentation ends); `.custom` and `.overFullScreen`/`.overCurrentContext` keep the
/// presenter's view on screen underneath.
public enum UIModalPresentationStyle: Int, Sendable {
    case fullScreen = 0, pageSheet, formSheet, currentContext, custom, overFullScreen, overCurrentContext, popover
    case none = -1
    case automatic = -2
}

/// The default presentation animation (Apple's `UIModalTransitionStyle`, raw values Apple's).
/// Citrine animates every style as `.coverVertical`.
public enum UIModalTransitionStyle: Int, Sendable {
    case coverVertical = 0, flipHorizontal, crossDissolve, partialCurl
}

/// What a transition's animator and interaction controller see (Apple's
/// `UIViewControllerContextTransitioning`).
public protocol UIViewControllerContextTransitioning: AnyObject {
    /// The view the transition happens in: the animator adds the to-view to it.
    var containerView: UIView { get }
    /// Whether the transition was asked for with `animated: true`.
    var isAnimated: Bool { get }
    /// Whether an interaction controller drives the transition.
    var isInteractive: Bool { get }
    /// Whether the interactive transition was cancelled (the animator passes
    /// `!transitionWasCancelled` to `completeTransition(_:)`).
    var transitionWasCancelled: Bool { get }
    /// The presented controller's style (`.custom` for a navigation transition's purposes).
    var presentationStyle: UIModalPresentationStyle { get }
    /// The fraction done of an interactive transition (0…1).
    func updateInteractiveTransition(_ percentComplete: CGFloat)
    /// The interactive transition will finish.
    func finishInteractiveTransition()
    /// The interactive transition will go back to where it started.
    func cancelInteractiveTransition()
    /// The interactive transition pauses (iOS 10).
    func pauseInteractiveTransition()
    /// The animator's animations are done: `didComplete` false puts everything back.
    func completeTransition(_ didComplete: Bool)
    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
    /// The view of either side; nil for the presenter's view in a `.custom` presentation or
    /// dismissal (Apple: it stays where it is, not part of the transition).
    func view(forKey key: UITransitionContextViewKey) -> UIView?
    /// A rotation to apply (always identity here: no rotation).
    var targetTransform: CGAffineTransform { get }
    /// Where `vc`'s view starts (`.zero` when unknown: a view that is coming).
    func initialFrame(for vc: UIViewController) -> CGRect
    /// Where `vc`'s view ends (`.zero` when unknown: a view that is going).
    func finalFrame(for vc: UIViewController) -> CGRect
}

/// An object that animates a transition (Apple's `UIViewControllerAnimatedTransitioning`).
public protocol UIViewControllerAnimatedTransitioning: AnyObject {
    /// The transition's length, seconds (an interactive transition maps its fraction onto it).
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval
    /// Adds the to-view to the container, animates (UIView.animate or Core Animation), and calls
    /// `completeTransition(_:)` when done.
    func animateTransition(using transitionContext: UIViewControllerContextTransitioning)
    /// After `completeTransition(_:)`. Default: nothing.
    func animationEnded(_ transitionCompleted: Bool)
}

public extension UIViewControllerAnimatedTransitioning {
    func animationEnded(_ transitionCompleted: Bool) {}
}

/// An object that drives a transition with the user's input (Apple's
/// `UIViewControllerInteractiveTransitioning`).
public protocol UIViewControllerInteractiveTransitioning: AnyObject {
    func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning)
    /// Speed of the rest of the transition after the user lets go. Default 1.
    var completionSpeed: CGFloat { get }
    /// Curve of the rest of the transition after the user lets go. Default `.easeInOut`.
    var completionCurve: UIView.AnimationCurve { get }
    /// Whether the transition starts interactively (iOS 10). Default true.
    var wantsInteractiveStart: Bool { get }
}

public extension UIViewControllerInteractiveTransitioning {
    var completionSpeed: CGFloat { 1 }
    var completionCurve: UIView.AnimationCurve { .easeInOut }
    var wantsInteractiveStart: Bool { true }
}

/// Supplies a presentation's animators (Apple's `UIViewControllerTransitioningDelegate`). Every
/// method defaults to nil: UIKit's own animation, not interactive.
public protocol UIViewControllerTransitioningDelegate: AnyObject {
    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning?
    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning?
}

public extension UIViewControllerTransitioningDelegate {
    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning? { nil }
    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning? { nil }
}
