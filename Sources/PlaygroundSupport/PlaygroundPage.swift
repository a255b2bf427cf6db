import Foundation
import UIKit

/// The page of a playground whose code is running (Apple's `PlaygroundPage`): what it shows
/// live and whether it keeps running after its top-level code.
public final class PlaygroundPage: @unchecked Sendable {
    /// The page whose code is running.
    public static let current = PlaygroundPage()

    // Set by the page's code, read by the host after it: a lock, as either may run anywhere.
    private let lock = NSLock()
    nonisolated(unsafe) private var storedLiveView: PlaygroundLiveViewable?
    nonisolated(unsafe) private var storedNeedsIndefiniteExecution = false

    private init() {}

    /// What the page shows live (Apple: a view or a view controller; default nil). Setting one
    /// keeps the page running after its top-level code, as on Apple: `citrine play` shows it in
    /// a window until the window is closed, `citrine render` exports it.
    public var liveView: PlaygroundLiveViewable? {
        get { lock.withLock { storedLiveView } }
        set { lock.withLock { storedLiveView = newValue } }
    }

    /// Whether the page keeps running after its top-level code ends (Apple's default: false), so
    /// that asynchronous work — timers, dispatched blocks, display links — can finish: the main
    /// run loop runs until `finishExecution()`.
    public var needsIndefiniteExecution: Bool {
        get { lock.withLock { storedNeedsIndefiniteExecution } }
        set { lock.withLock { storedNeedsIndefiniteExecution = newValue } }
    }

    /// Ends the page's execution at once (Apple: "Instructs Xcode that the playground page has
    /// finished execution"): standard output is flushed and the process exits with status 0 —
    /// a live view being shown or exported stops with it.
    public func finishExecution() -> Never {
        fflush(nil)  // every output stream
        exit(0)
    }
}

/// Something a playground page can show live (Apple's `PlaygroundLiveViewable`).
public protocol PlaygroundLiveViewable {
    /// How the page shows it.
    var playgroundLiveViewRepresentation: PlaygroundLiveViewRepresentation { get }
}

/// How a live view is shown (Apple's `PlaygroundLiveViewRepresentation`, iOS cases).
public enum PlaygroundLiveViewRepresentation {
    /// A view, shown at its bounds' size.
    case view(UIView)
    /// A view controller's view, shown at its bounds' size.
    case viewController(UIViewController)
}

extension UIView: PlaygroundLiveViewable {
    public var playgroundLiveViewRepresentation: PlaygroundLiveViewRepresentation { .view(self) }
}

extension UIViewController: PlaygroundLiveViewable {
    public var playgroundLiveViewRepresentation: PlaygroundLiveViewRepresentation { .viewController(self) }
}

/// Citrine extension: a layer shown live by itself; Citrine's command line shows the layer
/// directly. Its representation, for code that asks, is a new view of the layer's frame size
/// from the origin whose layer holds it — asking moves the layer into that view (a layer has
/// one superlayer).
extension CALayer: PlaygroundLiveViewable {
    public var playgroundLiveViewRepresentation: PlaygroundLiveViewRepresentation {
        let host = UIView(frame: CGRect(origin: .zero, size: CGSize(width: frame.maxX, height: frame.maxY)))
        host.layer.addSublayer(self)
        return .view(host)
    }
}
