import Foundation
import Synchronization

/// A transition animation for a layer's contents (Apple's `CATransition`): adding one to a layer
/// animates from how the layer's whole subtree looked when it was added (as last presented) to
/// how it looks after the transaction's changes, over the transition's duration and timing
/// function, between `startProgress` and `endProgress`. The compositor draws it
/// (`Compositor/LayerRenderer+Transition.swift` lists what each type looks like and why).
///
/// Types and subtypes use Apple's raw strings. Besides the four public types, the compositor draws
/// the private types iOS draws, by name (`CATransitionType(rawValue: "cube")`): `cube`, `oglFlip`,
/// `pageCurl`, `pageUnCurl`, `rippleEffect`, `suckEffect`, `cameraIris`, `cameraIrisHollowOpen`
/// and `cameraIrisHollowClose` — the list the iPhone Development Wiki marks as available on iOS
/// (iphonedevwiki.net, "UIViewAnimationState", table "Animation transitions") — and `flip`,
/// `alignedFlip` and `alignedCube`, drawn as `oglFlip`, `oglFlip` and `cube`: IBAnimatable's
/// maintainers tried them on iOS and found "the transition is the same as Flip and Cube … can't
/// see any differences" (IBAnimatable pull request 152, "Removing useless system type
/// transitions"). Any other name (`spewEffect`, `genieEffect`, `twist`, …, which the wiki's table
/// marks as unavailable, and `rotate`, which IBAnimatable lists but for which no description of
/// what iOS draws was found) is drawn as a fade, Apple's default type, and reported once through
/// `_diagnostics`.
open class CATransition: CAAnimation {
    override class func makeCoreAnimationAnimation() -> CAAnimation { CATransition() }
    /// The transition's type. Default `fade` (Apple).
    public var type: CATransitionType = .fade
    /// The direction of motion-based types. Default nil, which the motion-based types take as
    /// `fromLeft` (community documentation of iOS: "kCATransitionFromLeft 默认值", cnblogs
    /// xs514521/p/5198374; the fade, iris, ripple and suck types ignore it).
    public var subtype: CATransitionSubtype?
    /// Fraction of the transition at which it starts and ends. Defaults 0 and 1.
    public var startProgress: Float = 0
    public var endProgress: Float = 1
    /// A Core Image filter that would replace type and subtype (Apple). Citrine has no Core
    /// Image: the filter is ignored (the type is drawn) and reported once through `_diagnostics`.
    public var filter: Any?
    /// Citrine extension for renderers: the layer's subtree as the last commit left it when this
    /// transition was added to it — a copy of the layer and of every sublayer it then had, with
    /// their last presented values — the picture the transition starts from (Apple snapshots the
    /// render tree). Set by `CALayer.add(_:forKey:)`: sublayers removed earlier in the same
    /// transaction are in it, sublayers added earlier in it are not.
    package internal(set) var _sourceLayer: CALayer?
    /// Citrine extension for renderers: what a renderer keeps while this transition runs (the
    /// "from" and "to" bitmaps); nil until first drawn, and not copied with the transition.
    package var _renderState: AnyObject?

    open override class var animationProperties: [String: AnimationProperty] { Self.transitionProperties }

    private static let transitionProperties = CAAnimation.animationProperties.merging([
        "type": .init(\CATransition.type, .rawString),
        "subtype": .init(\CATransition.subtype, .optional(.rawString)),
        "startProgress": .init(\CATransition.startProgress, .number),
        "endProgress": .init(\CATransition.endProgress, .number),
        "filter": .init(\CATransition.filter, .same),
    ]) { $1 }

    open override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let o = other as? CATransition else { return }
        type = o.type; subtype = o.subtype; startProgress = o.startProgress; endProgress = o.endProgress
        filter = o.filter
        _sourceLayer = o._sourceLayer
    }

    /// The transition's progress (0…1) at `parentTime`, mapped into startProgress…endProgress;
    /// nil when it has no effect then. Citrine extension for the compositor.
    package func _progress(at parentTime: CFTimeInterval) -> Float? {
        let state = timingState(at: parentTime)
        guard state.isApplied else { return nil }
        return startProgress + (endProgress - startProgress) * Float(easedFraction(state))
    }

    // MARK: - Types drawn, diagnostics

    /// The types the compositor draws (see the class comment for the source of the list).
    package static let _drawnTypes: Set<String> = [
        "fade", "moveIn", "push", "reveal",
        "cube", "oglFlip", "pageCurl", "pageUnCurl", "rippleEffect", "suckEffect",
        "cameraIris", "cameraIrisHollowOpen", "cameraIrisHollowClose",
        "alignedCube", "flip", "alignedFlip",
    ]

    /// Citrine extension: the type as drawn — `type` when it is one iOS draws, else `fade`
    /// (what Apple's Core Animation does with a type it does not know).
    package var _drawnType: CATransitionType {
        CATransition._drawnTypes.contains(type.rawValue) ? type : .fade
    }

    private struct Diagnostics {
        var hook: (@Sendable (String) -> Void)? = CATransition._standardErrorHook
        var reported: Set<String> = []
    }
    private static let diagnostics = Mutex(Diagnostics())

    /// Writes a message to standard error (the default `_diagnostics`).
    package static let _standardErrorHook: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("Citrine: \(message)\n".utf8))
    }

    /// Citrine extension (diagnostics hook): receives a message the first time a transition is
    /// added with something Citrine does not draw as asked — a type iOS does not draw (drawn as
    /// a fade instead) or a `filter` (ignored) — once per distinct type or filter, per process.
    /// Default: the message goes to standard error; nil silences it. Never fatal.
    package static var _diagnostics: (@Sendable (String) -> Void)? {
        get { diagnostics.withLock { $0.hook } }
        set { diagnostics.withLock { $0.hook = newValue } }
    }

    /// Reports what `add(_:forKey:)` cannot draw as asked (once per distinct problem).
    func _reportUnsupported() {
        var messages: [String] = []
        if !CATransition._drawnTypes.contains(type.rawValue) {
            messages.append("CATransition type \"\(type.rawValue)\" is not one iOS draws; it is drawn as a fade, as Core Animation does with an unknown type")
        }
        if let filter {
            messages.append("CATransition.filter (\(Swift.type(of: filter))) is ignored: Citrine has no Core Image; the transition's type is drawn instead")
        }
        guard !messages.isEmpty else { return }
        let (hook, fresh) = CATransition.diagnostics.withLock { d -> ((@Sendable (String) -> Void)?, [String]) in
            let fresh = messages.filter { d.reported.insert($0).inserted }
            return (d.hook, fresh)
        }
        for m in fresh { hook?(m) }
    }
}

/// The key under which a layer stores its transition (Apple's `kCATransition`).
public let kCATransition = "transition"

public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let fade = CATransitionType(rawValue: "fade")
    public static let moveIn = CATransitionType(rawValue: "moveIn")
    public static let push = CATransitionType(rawValue: "push")
    public static let reveal = CATransitionType(rawValue: "reveal")
}

public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let fromRight = CATransitionSubtype(rawValue: "fromRight")
    public static let fromLeft = CATransitionSubtype(rawValue: "fromLeft")
    public static let fromTop = CATransitionSubtype(rawValue: "fromTop")
    public static let fromBottom = CATransitionSubtype(rawValue: "fromBottom")
}
