// Runs the main run loop by hand, as an iOS command-line tool or test does, on the process's
// real main thread (a test process's main thread is its test runner's): a `.common`-mode display
// link on `.main`, a transaction completion block and an animation delegate, and nothing but
// the run loop to deliver them — no `flush()`, no `presentation()`. With no argument the loop
// is `RunLoop.main.run(until:)` for 0.4 s; with `dispatchMain` it is `dispatchMain()`, ended
// after 0.4 s by a block on the main queue. Prints what arrived as one line of `key=value`
// pairs (IOSSnippetsTests' DisplayLinkTests reads it).
import Foundation
import QuartzCore

final class Probe: CAAnimationDelegate, @unchecked Sendable {
    var started = 0, stopped = 0, completed = 0
    var frames: [CFTimeInterval] = []
    var link: CADisplayLink?
    let layer = CALayer()
    /// Stop and completion before the run loop ran: none expected.
    var before = ""

    func animationDidStart(_ anim: CAAnimation) { started += 1 }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { if flag { stopped += 1 } }

    func start() {
        let link = CADisplayLink { [unowned self] link in frames.append(link.timestamp) }
        link.preferredFramesPerSecond = 60
        link.add(to: .main, forMode: .common)
        self.link = link

        CATransaction.begin()
        CATransaction.setCompletionBlock { [unowned self] in completed += 1 }
        let move = CABasicAnimation(keyPath: "position.x")
        move.toValue = 100
        move.duration = 0.05
        move.delegate = self
        layer.add(move, forKey: nil)
        CATransaction.commit()
        before = "\(started)\(stopped)\(completed)"   // start, stop and completion: none yet
    }

    func report() {
        link?.invalidate()
        let increasing = zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 }
        print("main=\(Thread.isMainThread) before=\(before) frames=\(frames.count) increasing=\(increasing)",
              "started=\(started) stopped=\(stopped) completed=\(completed)")
    }
}

let probe = Probe()
probe.start()
if CommandLine.arguments.dropFirst().first == "dispatchMain" {
    DispatchQueue.main.asyncAfter(deadline: .now() + 0.4) { [probe] in
        probe.report()
        exit(0)
    }
    dispatchMain()
} else {
    RunLoop.main.run(until: Date().addingTimeInterval(0.4))
    probe.report()
}
