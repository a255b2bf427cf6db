// Runs the main run loop by hand, as an iOS command-line tool or test does, on the process's
// real main thread (a test process's main thread is its test runner's): a `.common`-mode display
// link on `.main`, a transaction completion block and an animation delegate, and nothing but
// `RunLoop.main.run(until:)` to deliver them — no `flush()`, no `presentation()`. Prints what
// arrived as one line of `key=value` pairs (IOSSnippetsTests' RunLoopDeliveryTests reads it).
import Foundation
import QuartzCore

final class Events: CAAnimationDelegate {
    var started = 0, stopped = 0
    func animationDidStart(_ anim: CAAnimation) { started += 1 }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { if flag { stopped += 1 } }
}

var frames: [CFTimeInterval] = []
let link = CADisplayLink { link in frames.append(link.timestamp) }
link.preferredFramesPerSecond = 60
link.add(to: .main, forMode: .common)

let events = Events()
var completed = 0
let layer = CALayer()
CATransaction.begin()
CATransaction.setCompletionBlock { completed += 1 }
let move = CABasicAnimation(keyPath: "position.x")
move.toValue = 100
move.duration = 0.05
move.delegate = events
layer.add(move, forKey: nil)
CATransaction.commit()
let before = "\(events.stopped)\(completed)"   // stop and completion: none yet

RunLoop.main.run(until: Date().addingTimeInterval(0.4))
link.invalidate()
let increasing = zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 }
print("main=\(Thread.isMainThread) before=\(before) frames=\(frames.count) increasing=\(increasing)",
      "started=\(events.started) stopped=\(events.stopped) completed=\(completed)")
