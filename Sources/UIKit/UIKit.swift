// UIKit — `import UIKit` as on iOS: Apple's UIKit names and signatures for what Core Animation
// code uses around its layers (UIView and its layer, touches and gesture recognizers, UIView
// animations and transitions, UIScrollView, view-controller presentation and custom transitions,
// UINavigationController, UIBezierPath, UIColor, UIImage, image contexts, controls), on top of
// Citrine's QuartzCore. `#if canImport(UIKit)` is true in a target that depends on it.
//
// Design note
// -----------
// * A view is its layer's delegate, as on iOS. Three things go through that link:
//   `draw(_:in:)` (the renderer asks the layer for its content; the view pushes the context as
//   the current UIGraphics context and calls `draw(_ rect:)`), `layoutSublayers(of:)`
//   (→ `layoutSubviews()`), and `action(for:forKey:)`, which carries the implicit-animation
//   rule of views: outside an animation block the view answers `NSNull()` (its layer never
//   animates implicitly); inside `UIView.animate` it answers an animation with the block's
//   duration, curve, delay and options (a `CASpringAnimation` for the spring form), which the
//   layer then runs from its current presentation value. Layers that no view owns keep Core
//   Animation's implicit animations, as on iOS.
// * Completion blocks follow the animations they belong to: each animation a block creates
//   carries a delegate that reports to the block's tracker; `completion(finished)` runs when the
//   last one stops — at the commit or frame that observes the end (`CATransaction.flush()`),
//   with `finished == false` if one was removed or replaced by a later block first. A block that
//   animates nothing completes at the next run-loop turn (`UIApplication.advance(to:)`).
// * One event path for live and scripted input: raw pointer events (phase, window point,
//   timestamp, and a pointer number that tells two fingers apart) enter through
//   `UIApplication.sendPointerEvent(_:at:timestamp:pointer:in:)`, become `UITouch`/`UIEvent`, go to the gesture recognizers of the hit-tested view and its ancestors,
//   then to the view (and up the responder chain). `UIApplication.advance(to:)` is one turn of
//   the run loop at a media time: due timers of recognizers, deferred completions, layout,
//   `CADisplayLink.pump()`, `CATransaction.flush()`. The Scene module's driver calls both, with
//   the calling thread's media clock set to each call's time, for the window host, the
//   exporter and headless tests alike.
// * The view tree is a layer tree: `window.layer` is the root that `CARenderer` draws.
//
// Where Linux forces a difference (each also documented where it is declared):
// * No Objective-C runtime: target/action becomes closures (`UIPanGestureRecognizer { r in … }`,
//   `addTarget(_:)`); `layerClass` returns `AnyClass` as on iOS and must name a `CALayer`
//   subclass.
// * The classes are not `@MainActor`: like Citrine's layers, views may be built and rendered on
//   any one thread at a time (the exporter renders on worker threads). Animation blocks and
//   image contexts are per thread, as on iOS.
// * `UIImage(named:)` searches `UIImage._resourceDirectories` (default: the current directory)
//   instead of an app bundle.
@_exported import QuartzCore
@_exported import Compositor
