import Testing
import UIKit

/// UIActivityIndicatorView: Apple's documented defaults (style .medium, hidesWhenStopped true,
/// hidden until it animates) and the iOS 13+ look it draws (8 spokes stepping one spoke, 45°,
/// per eighth of a second: a discrete keyframe animation of n evenly timed values holds value k
/// from k/n to (k+1)/n of the duration).
extension UIClockSuite {
    @Suite struct ActivityIndicatorTests {
        @Test func defaultsAndSizes() {
            let medium = UIActivityIndicatorView(style: .medium)
            #expect(medium.style == .medium && medium.hidesWhenStopped && !medium.isAnimating && medium.isHidden)
            #expect(medium.frame.size == CGSize(width: 20, height: 20))
            #expect(UIActivityIndicatorView(style: .large).intrinsicContentSize == CGSize(width: 37, height: 37))
            #expect(UIActivityIndicatorView(style: .whiteLarge).intrinsicContentSize == CGSize(width: 37, height: 37))
            #expect(UIActivityIndicatorView(style: .white).color == .white)
            #expect(UIActivityIndicatorView(frame: .zero).style == .medium)
            #expect(UIActivityIndicatorView.Style.medium.rawValue == 100 && UIActivityIndicatorView.Style.gray.rawValue == 2)
        }

        @Test func startShowsAndSpinsStopHides() throws {
            let window = UIClockSuite.makeWindow(at: 0)
            let spinner = UIActivityIndicatorView(style: .large)
            spinner.color = .systemRed
            window.addSubview(spinner)
            UIClockSuite.advance(to: 0)
            spinner.startAnimating()
            #expect(spinner.isAnimating && !spinner.isHidden)
            UIClockSuite.advance(to: 1)   // the spin starts at this commit
            let wheel = try #require(spinner.layer.sublayers?.first as? CAReplicatorLayer)
            #expect(wheel.instanceCount == 8)
            func angle(at t: CFTimeInterval) -> CGFloat {
                CAMediaClock.setManualTime(t)
                return (wheel.presentation()?.value(forKeyPath: "transform.rotation.z") as? CGFloat) ?? -1
            }
            // 0.3 s in: step 2 of 8 (0.25…0.375 s), 2 × 45°; 0.9 s: step 7; 1.05 s: a new turn, step 0.
            func same(_ a: CGFloat, _ b: CGFloat) -> Bool { abs(cos(a) - cos(b)) < 1e-9 && abs(sin(a) - sin(b)) < 1e-9 }
            #expect(same(angle(at: 1.3), .pi / 2))
            #expect(same(angle(at: 1.9), 7 * .pi / 4))
            #expect(same(angle(at: 2.05), 0))
            spinner.stopAnimating()
            #expect(!spinner.isAnimating && spinner.isHidden)
            #expect(wheel.animationKeys() == nil)
            spinner.hidesWhenStopped = false
            #expect(!spinner.isHidden)
        }

        @Test func drawsEightSpokesInItsColour() {
            let spinner = UIActivityIndicatorView(style: .large)
            spinner.color = .black
            spinner.hidesWhenStopped = false
            UIGraphicsBeginImageContext(CGSize(width: 37, height: 37))
            defer { UIGraphicsEndImageContext() }
            let context = UIGraphicsGetCurrentContext()!
            spinner.layer.render(in: context)
            let bytes = context.data!.assumingMemoryBound(to: UInt8.self)
            func alpha(_ x: Int, _ y: Int) -> Int { Int(bytes[y * context.bytesPerRow + x * 4 + 3]) }
            // Each spoke's middle lies at 3/4 of the radius (18.5 pt) from the centre, every 45°;
            // the centre is empty. The first spoke (12 o'clock) is opaque, the others fainter.
            let c = 18.5, r = 0.725 * 18.5
            var alphas: [Int] = []
            for k in 0..<8 {
                let a = -CGFloat.pi / 2 - CGFloat(k) * .pi / 4
                alphas.append(alpha(Int(c + r * cos(a)), Int(c + r * sin(a))))
            }
            #expect(alphas.allSatisfy { $0 > 0 })
            #expect(alphas[0] > 200)
            #expect(alpha(18, 18) == 0)
        }
    }
}
