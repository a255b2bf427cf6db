import Testing
import QuartzCore

/// Apple's action search order (CALayer `action(forKey:)` documentation): delegate, then the
/// `actions` dictionary, then the `style` dictionary's "actions", then `defaultAction(forKey:)`;
/// `NSNull` ends the search.
extension MediaClockSuite {
    @Suite struct ActionTests {
        final class Marker: CAAction {
            let name: String
            var runs: [(String, Bool)] = []
            init(_ name: String) { self.name = name }
            func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
                runs.append((event, anObject is CALayer))
            }
        }

        final class Delegate: CALayerDelegate {
            var answer: CAAction?
            func action(for layer: CALayer, forKey event: String) -> CAAction? { answer }
        }

        @Test func searchOrder() {
            let l = CALayer()
            let d = Delegate()
            let fromActions = Marker("actions"), fromStyle = Marker("style"), fromDelegate = Marker("delegate")
            l.style = ["actions": ["opacity": fromStyle]]
            #expect((l.action(forKey: "opacity") as? Marker) === fromStyle)
            l.actions = ["opacity": fromActions]
            #expect((l.action(forKey: "opacity") as? Marker) === fromActions)
            l.delegate = d
            d.answer = fromDelegate
            #expect((l.action(forKey: "opacity") as? Marker) === fromDelegate)
            d.answer = NSNull()
            #expect(l.action(forKey: "opacity") == nil)
            d.answer = nil
            l.actions = ["opacity": NSNull()]
            #expect(l.action(forKey: "opacity") == nil)
            l.actions = nil
            l.style = nil
            let builtIn = l.action(forKey: "opacity") as? CABasicAnimation
            #expect(builtIn?.keyPath == "opacity")
        }

        @Test func customActionRunsOnAChangeOfACommittedLayer() {
            CAMediaClock.setManualTime(100)
            let l = CALayer()
            let m = Marker("m")
            l.actions = ["position": m]
            l.position = CGPoint(x: 1, y: 1)   // not committed yet: no action
            #expect(m.runs.isEmpty)
            CATransaction.flush()
            l.position = CGPoint(x: 2, y: 2)
            #expect(m.runs.count == 1 && m.runs[0].0 == "position" && m.runs[0].1)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            l.position = CGPoint(x: 3, y: 3)
            CATransaction.commit()
            #expect(m.runs.count == 1)
            CATransaction.flush()
        }

        /// The built-in action uses the transaction's duration and timing function.
        @Test func builtInActionTakesTheTransactionsDuration() {
            CAMediaClock.setManualTime(200)
            let l = CALayer()
            CATransaction.flush()
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            l.opacity = 0
            CATransaction.commit()
            let a = l.animation(forKey: "opacity")
            #expect(a?.duration == 2)
            CAMediaClock.setManualTime(200.5)   // linear, from 1 to 0 over 2 s: 0.75
            #expect(abs(Double(l.presentation()!.opacity) - 0.75) < 1e-6)
            #expect(l.opacity == 0)
            CAMediaClock.setManualTime(203)
            _ = l.presentation()
            #expect(l.animationKeys() == nil)
        }
    }
}
