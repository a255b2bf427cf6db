import Testing
import QuartzCore

/// CAScrollLayer (Apple: scrolling changes the bounds origin; scrollMode limits the axes;
/// scroll(_:) puts a sublayer's point at the scroll layer's origin).
struct LayerScrollTests {
    func scene() -> (CAScrollLayer, CALayer) {
        let s = CAScrollLayer()
        s.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let content = CALayer()
        content.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        s.addSublayer(content)
        return (s, content)
    }

    @Test func scrollModeLimitsTheAxes() {
        let (s, _) = scene()
        #expect(s.scrollMode == .both && CAScrollLayerScrollMode.horizontally.rawValue == "horizontally")
        s.scrollMode = .vertically
        s.scroll(to: CGPoint(x: 30, y: 40))
        #expect(s.bounds.origin == CGPoint(x: 0, y: 40))
    }

    @Test func scrollRectMovesTheLeastAmount() {
        let (s, content) = scene()
        s.scroll(to: CGRect(x: 150, y: 20, width: 30, height: 30))   // x: right edge at 180 → origin 80
        #expect(s.bounds.origin == CGPoint(x: 80, y: 0))
        content.scroll(CGPoint(x: 200, y: 250))                       // content (200,250) = scroll (200,250)
        #expect(s.bounds.origin == CGPoint(x: 200, y: 250))
        #expect(content.visibleRect == CGRect(x: 200, y: 250, width: 100, height: 100))
        content.scrollRectToVisible(CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(s.bounds.origin == CGPoint(x: 0, y: 0))
        #expect(CALayer().visibleRect == .zero)
    }
}
