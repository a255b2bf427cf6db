import Testing
import Dispatch
import QuartzCore

/// CATransaction nesting and key-value storage (Apple's CATransaction reference: 0.25 s default
/// duration; nested transactions inherit the enclosing values and restore them on commit).
extension MediaClockSuite {
    @Suite struct TransactionTests {
        /// Animations of many layers that end at the same moment report in the order their
        /// layers got them, every run (DESIGN §1.5: deterministic, no hash-order iteration).
        @Test func simultaneousStopsArriveInLayerOrder() {
            CAMediaClock.setManualTime(5)
            let recorder = StopRecorder()
            let names = (0..<40).map { "layer \($0)" }
            var layers: [CALayer] = []
            for name in names {
                let layer = CALayer()
                let a = CABasicAnimation(keyPath: "opacity")
                a.fromValue = 0; a.toValue = 1; a.duration = 1
                a.setValue(name, forKey: "name")
                a.delegate = recorder
                layer.add(a, forKey: "fade")
                layers.append(layer)
            }
            CATransaction.flush()
            CAMediaClock.setManualTime(7)
            CATransaction.flush()
            #expect(recorder.names == names)
        }

        @Test func nestedTransactionsInheritAndRestore() {
            #expect(CATransaction.animationDuration() == 0.25)
            #expect(!CATransaction.disableActions())
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.begin()
            #expect(CATransaction.animationDuration() == 1)
            CATransaction.setAnimationDuration(3)
            CATransaction.setDisableActions(true)
            #expect(CATransaction.animationDuration() == 3 && CATransaction.disableActions())
            CATransaction.commit()
            #expect(CATransaction.animationDuration() == 1 && !CATransaction.disableActions())
            CATransaction.commit()
            #expect(CATransaction.animationDuration() == 0.25)
        }

        @Test func valueForKeyMirrorsTheTypedAccessors() {
            CATransaction.begin()
            CATransaction.setValue(0.75, forKey: kCATransactionAnimationDuration)
            CATransaction.setValue(true, forKey: kCATransactionDisableActions)
            CATransaction.setValue("x", forKey: "custom")
            #expect(CATransaction.animationDuration() == 0.75 && CATransaction.disableActions())
            #expect(CATransaction.value(forKey: "custom") as? String == "x")
            CATransaction.commit()
            #expect(CATransaction.value(forKey: "custom") == nil)
        }

        /// Apple keeps one transaction stack per thread: values set on one thread are not seen
        /// by transactions on another.
        @Test func transactionsArePerThread() {
            let mismatches = Counter()
            DispatchQueue.concurrentPerform(iterations: 4) { i in
                for _ in 0..<200 {
                    CATransaction.begin()
                    CATransaction.setAnimationDuration(Double(i + 1))
                    if CATransaction.animationDuration() != Double(i + 1) { mismatches.increment() }
                    CATransaction.commit()
                }
            }
            #expect(mismatches.value == 0)
            #expect(CATransaction.animationDuration() == 0.25)
        }

        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var count = 0
            func increment() { lock.lock(); count += 1; lock.unlock() }
            var value: Int { lock.lock(); defer { lock.unlock() }; return count }
        }

        @Test func lockIsReentrantAcrossCommit() {
            CATransaction.lock()
            CATransaction.begin()
            CATransaction.commit()
            CATransaction.unlock()
            #expect(CATransaction.animationDuration() == 0.25)
        }
    }
}
