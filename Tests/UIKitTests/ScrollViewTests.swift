import Foundation
import Scene
import Testing
import UIKit

/// UIScrollView driven by scripted drags. Expected values: Apple's documented deceleration
/// factors (0.998 and 0.99 per millisecond) summed in closed form, the published rubber-band
/// values (@chpwn's formula, evaluated for d = 960 in "Analysis of Apple's rubber band
/// scrolling", 2013: 100 → 52.02, 400 → 178.98), the drag's own geometry (a pan begins at the
/// first move of 10 points or more, and a uniform drag's velocity is its step over its step
/// time), Apple's delegate sequence, and the ease-in-ease-out curve's symmetry (½ at ½).
extension UIClockSuite {
    @Suite struct ScrollViewTests {
        /// Records the delegate's calls, consecutive `didScroll`s collapsed into one.
        final class Recorder: UIScrollViewDelegate {
            var calls: [String] = []
            var dragOffsets: [CGPoint] = []
            var velocity: CGPoint?
            var target: CGPoint?
            var replaceTarget: CGPoint?
            /// Keeps the test's window alive (the application holds windows weakly).
            var window: UIWindow?
            func scrollViewDidScroll(_ s: UIScrollView) {
                if calls.last != "didScroll" { calls.append("didScroll") }
                if s.isDragging { dragOffsets.append(s.contentOffset) }
            }
            func scrollViewWillBeginDragging(_ s: UIScrollView) { calls.append("willBeginDragging") }
            func scrollViewWillEndDragging(_ s: UIScrollView, withVelocity velocity: CGPoint,
                                           targetContentOffset: UnsafeMutablePointer<CGPoint>) {
                calls.append("willEndDragging")
                self.velocity = velocity
                target = targetContentOffset.pointee
                if let replaceTarget { targetContentOffset.pointee = replaceTarget }
            }
            func scrollViewDidEndDragging(_ s: UIScrollView, willDecelerate decelerate: Bool) {
                calls.append("didEndDragging(\(decelerate))")
            }
            func scrollViewWillBeginDecelerating(_ s: UIScrollView) { calls.append("willBeginDecelerating") }
            func scrollViewDidEndDecelerating(_ s: UIScrollView) { calls.append("didEndDecelerating") }
            func scrollViewDidEndScrollingAnimation(_ s: UIScrollView) { calls.append("didEndScrollingAnimation") }
        }

        /// A 320 × `height` window filled by a scroll view of `content` with a recorder.
        static func make(height: CGFloat = 480, content: CGSize) -> (UIWindow, UIScrollView, Recorder) {
            let window = UIClockSuite.makeWindow(width: 320, height: height)
            let scroll = UIScrollView(frame: window.bounds)
            scroll.contentSize = content
            let recorder = Recorder()
            recorder.window = window
            scroll.delegate = recorder
            window.addSubview(scroll)
            return (window, scroll, recorder)
        }

        @Test func defaultsAreApples() {
            let scroll = UIScrollView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            #expect(UIScrollView.DecelerationRate.normal.rawValue == 0.998)
            #expect(UIScrollView.DecelerationRate.fast.rawValue == 0.99)
            #expect(scroll.decelerationRate == .normal)
            #expect(scroll.bounces && !scroll.alwaysBounceVertical && !scroll.alwaysBounceHorizontal)
            #expect(!scroll.isPagingEnabled && scroll.isScrollEnabled && scroll.clipsToBounds)
            #expect(scroll.showsVerticalScrollIndicator && scroll.showsHorizontalScrollIndicator)
            #expect(scroll.contentOffset == .zero && scroll.contentSize == .zero && scroll.contentInset == .zero)
            #expect(scroll.contentInsetAdjustmentBehavior == .automatic)
            #expect(scroll.panGestureRecognizer.view === scroll)
        }

        @Test func contentOffsetIsTheBoundsOrigin() {
            let (_, scroll, recorder) = Self.make(content: CGSize(width: 320, height: 2000))
            let row = UIView(frame: CGRect(x: 0, y: 500, width: 320, height: 44))
            scroll.addSubview(row)
            scroll.contentOffset = CGPoint(x: 0, y: 100)
            #expect(scroll.bounds.origin == CGPoint(x: 0, y: 100))
            #expect(row.convert(CGPoint.zero, to: nil) == CGPoint(x: 0, y: 400))
            #expect(recorder.calls == ["didScroll"])
            // The least scroll that shows the rect: its bottom at the view's bottom.
            scroll.scrollRectToVisible(CGRect(x: 0, y: 900, width: 10, height: 100), animated: false)
            #expect(scroll.contentOffset == CGPoint(x: 0, y: 520))
            scroll.scrollRectToVisible(CGRect(x: 0, y: 600, width: 10, height: 10), animated: false)
            #expect(scroll.contentOffset == CGPoint(x: 0, y: 520))
            scroll.scrollRectToVisible(CGRect(x: 0, y: 10, width: 10, height: 10), animated: false)
            #expect(scroll.contentOffset == CGPoint(x: 0, y: 10))
        }

        @Test func rubberBandMatchesThePublishedValues() {
            // d = 960 (the view's height); content no taller, so only alwaysBounceVertical lets it move.
            for (pull, shown) in [(CGFloat(100), CGFloat(52.02)), (400, 178.98)] {
                let (_, scroll, recorder) = Self.make(height: 960, content: CGSize(width: 320, height: 960))
                scroll.alwaysBounceVertical = true
                // 10-point steps: the pan begins at the first (10 points), then the finger pulls `pull` further.
                let steps = Int(pull / 10) + 1
                SceneScript([.drag(from: CGPoint(x: 100, y: 100), to: CGPoint(x: 100, y: 100 + CGFloat(steps) * 10),
                                   at: 0.1, duration: Double(steps) * 0.1, steps: steps)])
                    .play(through: 0.1 + Double(steps) * 0.1 + 1.5)
                #expect(abs((recorder.dragOffsets.last?.y ?? 0) + shown) < 0.005)
                // Released at rest past the edge: it bounces back to the edge.
                #expect(scroll.contentOffset == .zero && !scroll.isDecelerating)
                #expect(recorder.calls.suffix(2) == ["didScroll", "didEndDecelerating"])
            }
        }

        @Test func withoutBouncesTheDragStopsAtTheEdge() {
            let (_, scroll, recorder) = Self.make(content: CGSize(width: 320, height: 2000))
            scroll.bounces = false
            SceneScript([.drag(from: CGPoint(x: 100, y: 100), to: CGPoint(x: 100, y: 300), at: 0.1, duration: 1, steps: 20)])
                .play(through: 1.2)
            #expect(recorder.dragOffsets.allSatisfy { $0.y == 0 })
        }

        @Test func decelerationTravelsTheGeometricSum() {
            for rate in [UIScrollView.DecelerationRate.normal, .fast] {
                let (_, scroll, recorder) = Self.make(content: CGSize(width: 320, height: 4800))
                scroll.decelerationRate = rate
                // The finger moves up 200 points in 0.2 s in 10 steps of 20: 1000 points per second,
                // so the offset grows at 1 point per millisecond. The pan begins at the first step.
                SceneScript([.drag(from: CGPoint(x: 100, y: 400), to: CGPoint(x: 100, y: 200), at: 0.1, duration: 0.2, steps: 10)])
                    .play(through: 0.8)
                let r = rate.rawValue
                #expect(isClose(recorder.velocity ?? .zero, CGPoint(x: 0, y: 1), 1e-9))
                // Each millisecond moves v·rⁿ: the whole distance is v·r/(1 − r) (v = 1 point/ms).
                let released: CGFloat = 180
                #expect(isClose(recorder.target ?? .zero, CGPoint(x: 0, y: released + r / (1 - r)), 1e-6))
                // Half a second (500 ms) after the release at 0.3 s: v·r·(1 − r⁵⁰⁰)/(1 − r).
                let expected = released + r * (1 - pow(r, 500)) / (1 - r)
                if rate == .normal {
                    #expect(abs(scroll.contentOffset.y - expected) < 1e-6 && scroll.isDecelerating)
                }
                SceneScript([]).play(from: 0.8, through: 6)
                #expect(isClose(scroll.contentOffset, CGPoint(x: 0, y: released + r / (1 - r)), 1e-6))
                #expect(!scroll.isDecelerating && !scroll.isDragging && !scroll.isTracking)
            }
        }

        @Test func delegateCallsComeInApplesOrder() {
            let (_, scroll, recorder) = Self.make(content: CGSize(width: 320, height: 4800))
            var trackingWhileDown: [Bool] = []
            scroll.panGestureRecognizer.addTarget { _ in trackingWhileDown.append(scroll.isTracking && scroll.isDragging) }
            SceneScript([.drag(from: CGPoint(x: 100, y: 400), to: CGPoint(x: 100, y: 200), at: 0.1, duration: 0.2, steps: 10)])
                .play(through: 5)
            #expect(recorder.calls == ["willBeginDragging", "didScroll", "willEndDragging", "didEndDragging(true)",
                                       "willBeginDecelerating", "didScroll", "didEndDecelerating"])
            #expect(trackingWhileDown.dropLast().allSatisfy { $0 })
        }

        @Test func aTouchStopsTheDeceleration() {
            let (_, scroll, recorder) = Self.make(content: CGSize(width: 320, height: 4800))
            SceneScript([.drag(from: CGPoint(x: 100, y: 400), to: CGPoint(x: 100, y: 200), at: 0.1, duration: 0.2, steps: 10),
                         .down(CGPoint(x: 100, y: 100), at: 0.6)])
                .play(through: 1)
            let stopped = scroll.contentOffset
            #expect(!scroll.isDecelerating && scroll.isTracking && stopped.y > 180 && stopped.y < 679)
            #expect(recorder.calls.last == "didEndDecelerating")
        }

        @Test func theDelegateMayMoveTheTarget() {
            let (_, scroll, recorder) = Self.make(content: CGSize(width: 320, height: 4800))
            recorder.replaceTarget = CGPoint(x: 0, y: 300)
            SceneScript([.drag(from: CGPoint(x: 100, y: 400), to: CGPoint(x: 100, y: 200), at: 0.1, duration: 0.2, steps: 10)])
                .play(through: 8)
            #expect(scroll.contentOffset == CGPoint(x: 0, y: 300))
        }

        @Test func pagingStopsOnPageBoundaries() {
            func page(duration: Double) -> CGFloat {
                let (_, scroll, recorder) = Self.make(content: CGSize(width: 320 * 5, height: 480))
                scroll.isPagingEnabled = true
                // 100 points left in 10 steps; the pan begins at the first, so the offset is 90 at release.
                SceneScript([.drag(from: CGPoint(x: 300, y: 100), to: CGPoint(x: 200, y: 100), at: 0.1, duration: duration, steps: 10)])
                    .play(through: 0.1 + duration + 8)
                #expect(recorder.target?.x == scroll.contentOffset.x)
                return scroll.contentOffset.x
            }
            // Slow (100 points/s): would stop at 90 + 0.1·0.998/0.002 = 139.9, nearest page 0.
            #expect(page(duration: 1) == 0)
            // A flick (1000 points/s): would stop at 90 + 499 = 589, page 2, but a flick turns one page.
            #expect(page(duration: 0.1) == 320)
        }

        @Test func animatedSetContentOffsetEasesInAndOut() {
            let (_, scroll, recorder) = Self.make(content: CGSize(width: 320, height: 2000))
            UIClockSuite.advance(to: 1)
            scroll.setContentOffset(CGPoint(x: 0, y: 400), animated: true)
            #expect(scroll.contentOffset == .zero)
            SceneScript([]).play(from: 1, through: 1.15)
            // The ease-in-ease-out curve is symmetric: half way at half the time.
            #expect(abs(scroll.contentOffset.y - 200) < 1e-6)
            SceneScript([]).play(from: 1.15, through: 1.5)
            #expect(scroll.contentOffset == CGPoint(x: 0, y: 400))
            #expect(recorder.calls == ["didScroll", "didEndScrollingAnimation"])
        }

        @Test func badValuesAreTolerated() {
            let (_, scroll, recorder) = Self.make(content: CGSize(width: 320, height: 4800))
            scroll.contentInset = UIEdgeInsets(top: .nan, left: .infinity, bottom: 0, right: 0)
            scroll.decelerationRate = UIScrollView.DecelerationRate(rawValue: 0)
            scroll.setContentOffset(CGPoint(x: CGFloat.nan, y: 10), animated: true)
            scroll.scrollRectToVisible(CGRect(x: 0, y: CGFloat.infinity, width: 1, height: 1), animated: false)
            #expect(scroll.contentOffset == .zero)
            // A delegate target far beyond the content; a rate of 0 (used as 0.001).
            recorder.replaceTarget = CGPoint(x: 0, y: 1e300)
            SceneScript([.drag(from: CGPoint(x: 100, y: 400), to: CGPoint(x: 100, y: 200), at: 0.1, duration: 0.2, steps: 10)])
                .play(through: 40)
            #expect(!scroll.isDecelerating && scroll.contentOffset.y.isFinite)
            #expect(recorder.calls.last == "didEndDecelerating")
        }

        @Test func contentInsetWidensTheRange() {
            let (_, scroll, recorder) = Self.make(content: CGSize(width: 320, height: 480))
            scroll.contentInset = UIEdgeInsets(top: 50, left: 0, bottom: 30, right: 0)
            #expect(scroll.adjustedContentInset == scroll.contentInset)
            // A drag down past −50 is banded; released, the offset settles at the top inset.
            SceneScript([.drag(from: CGPoint(x: 100, y: 100), to: CGPoint(x: 100, y: 300), at: 0.1, duration: 1, steps: 20)])
                .play(through: 3)
            #expect(scroll.contentOffset == CGPoint(x: 0, y: -50))
            scroll.scrollRectToVisible(CGRect(x: 0, y: 470, width: 10, height: 10), animated: false)
            #expect(scroll.contentOffset == CGPoint(x: 0, y: 0))
            #expect(recorder.calls.last == "didScroll")
        }
    }
}
