import Testing
import UIKit

/// UIView's layer and geometry: `layerClass`, and the relations Apple documents between frame,
/// bounds, center and transform ("the center is the center of the frame"; "changing the frame
/// rectangle automatically redisplays … and updates bounds and center"; "if transform is not
/// the identity, frame is undefined / the bounding box of the transformed bounds").
extension UIClockSuite {
    @Suite struct ViewGeometryTests {
        final class ReplicatorView: UIView {
            override class var layerClass: AnyClass { CAReplicatorLayer.self }
        }

        @Test func layerComesFromLayerClass() {
            let reflection = ReplicatorView(frame: CGRect(x: 0, y: 0, width: 100, height: 80))
            #expect(reflection.layer is CAReplicatorLayer)
            #expect(reflection.layer.delegate === reflection)
            // The seed's reflection view configures its layer as a replicator.
            let replicator = reflection.layer as! CAReplicatorLayer
            replicator.instanceCount = 2
            replicator.instanceTransform = CATransform3DRotate(CATransform3DMakeTranslation(0, reflection.bounds.height, 0), .pi, 1, 0, 0)
            #expect(replicator.instanceCount == 2)
            #expect(type(of: UIView().layer) == CALayer.self)
            #expect(type(of: UIImageView().layer) == CALayer.self)
        }

        @Test func frameCenterAndBounds() {
            let v = UIView(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
            #expect(v.center == CGPoint(x: 60, y: 45))
            #expect(v.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
            #expect(v.layer.position == v.center && v.layer.bounds == v.bounds)
            // Moving the center moves the frame, keeps the bounds.
            v.center = CGPoint(x: 100, y: 100)
            #expect(v.frame == CGRect(x: 50, y: 75, width: 100, height: 50))
            // Resizing the bounds resizes the frame about the center.
            v.bounds.size = CGSize(width: 40, height: 40)
            #expect(v.frame == CGRect(x: 80, y: 80, width: 40, height: 40))
            // The bounds' origin shifts the content, not the frame.
            v.bounds.origin = CGPoint(x: 5, y: 5)
            #expect(v.frame == CGRect(x: 80, y: 80, width: 40, height: 40))
            // Setting the frame sets the center and the bounds' size, keeping the bounds' origin.
            v.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
            #expect(v.center == CGPoint(x: 10, y: 5) && v.bounds == CGRect(x: 5, y: 5, width: 20, height: 10))
        }

        @Test func transformChangesFrameNotBoundsOrCenter() {
            let v = UIView(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
            v.transform = CGAffineTransform(scaleX: 2, y: 2)
            #expect(v.bounds.size == CGSize(width: 100, height: 50) && v.center == CGPoint(x: 60, y: 45))
            // The frame is the transformed bounds' box about the center: 200 × 100 around (60, 45).
            #expect(isClose(v.frame, CGRect(x: -40, y: -5, width: 200, height: 100)))
            v.transform = CGAffineTransform(rotationAngle: .pi / 2)
            #expect(isClose(v.frame, CGRect(x: 35, y: -5, width: 50, height: 100), 1e-9))
            #expect(v.layer.affineTransform() == v.transform)
            v.transform = .identity
            #expect(v.frame == CGRect(x: 10, y: 20, width: 100, height: 50))
        }

        @Test func appearanceMapsToTheLayer() {
            let v = UIView()
            #expect(v.alpha == 1 && !v.isHidden && !v.clipsToBounds && v.backgroundColor == nil)
            v.alpha = 0.25
            #expect(v.layer.opacity == 0.25)
            v.backgroundColor = .orange
            #expect(v.layer.backgroundColor == UIColor.orange.cgColor && v.backgroundColor == .orange)
            v.isHidden = true
            v.clipsToBounds = true
            #expect(v.layer.isHidden && v.layer.masksToBounds)
            v.contentMode = .scaleAspectFit
            #expect(v.layer.contentsGravity == .resizeAspect)
            // UIKit: `.top` aligns the content "at the top in the view's bounds" — on screen. The
            // layer's gravity names follow its y axis (CALayer.h: "top" always means maximum Y,
            // the visual bottom in iOS's y-down space), so that is the gravity `.bottom`.
            v.contentMode = .top
            #expect(v.layer.contentsGravity == .bottom)
            v.contentMode = .bottomRight
            #expect(v.layer.contentsGravity == .topRight)
            #expect(v.tag == 0 && v.isUserInteractionEnabled)
        }

        @Test func subviewsAndSublayersStayInStep() {
            let root = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            let a = UIView(), b = UIView(), c = UIView()
            root.addSubview(a)
            root.addSubview(b)
            root.insertSubview(c, belowSubview: b)
            #expect(root.subviews.map(ObjectIdentifier.init) == [a, c, b].map(ObjectIdentifier.init))
            #expect(root.layer.sublayers?.map(ObjectIdentifier.init) == [a, c, b].map { ObjectIdentifier($0.layer) })
            root.bringSubviewToFront(a)
            #expect(root.subviews.last === a && root.layer.sublayers?.last === a.layer)
            root.sendSubviewToBack(b)
            #expect(root.subviews.first === b && root.layer.sublayers?.first === b.layer)
            #expect(a.superview === root && root.viewWithTag(0) === root)
            c.tag = 7
            #expect(root.viewWithTag(7) === c)
            // A view is moved, not copied, between superviews.
            let other = UIView()
            other.addSubview(c)
            #expect(root.subviews.count == 2 && c.superview === other && c.layer.superlayer === other.layer)
            c.removeFromSuperview()
            #expect(c.superview == nil && c.layer.superlayer == nil && other.subviews.isEmpty)
            // Cycles are refused.
            a.addSubview(root)
            #expect(root.superview == nil)
        }

        @Test func convertBetweenViews() {
            let window = UIClockSuite.makeWindow()
            let outer = UIView(frame: CGRect(x: 20, y: 30, width: 200, height: 200))
            let inner = UIView(frame: CGRect(x: 10, y: 5, width: 50, height: 50))
            window.addSubview(outer)
            outer.addSubview(inner)
            #expect(inner.convert(CGPoint(x: 1, y: 2), to: nil) == CGPoint(x: 31, y: 37))
            #expect(inner.convert(CGPoint(x: 31, y: 37), from: nil) == CGPoint(x: 1, y: 2))
            #expect(outer.convert(CGPoint(x: 1, y: 2), from: inner) == CGPoint(x: 11, y: 7))
            #expect(inner.convert(CGRect(x: 0, y: 0, width: 10, height: 10), to: window) == CGRect(x: 30, y: 35, width: 10, height: 10))
            // A bounds origin shifts the subviews' space.
            outer.bounds.origin = CGPoint(x: 10, y: 0)
            #expect(inner.convert(CGPoint.zero, to: nil) == CGPoint(x: 20, y: 35))
            // A scaled view: its points are scaled about its center.
            inner.transform = CGAffineTransform(scaleX: 2, y: 2)
            let p = inner.convert(CGPoint(x: 25, y: 25), to: outer)
            #expect(isClose(p, inner.center))
            #expect(isClose(inner.convert(CGPoint(x: 0, y: 0), to: outer), CGPoint(x: 35 - 50, y: 30 - 50)))
        }

        @Test func layoutSubviewsRunsOncePerPass() {
            final class Counting: UIView {
                var layouts = 0
                override func layoutSubviews() { layouts += 1 }
            }
            let v = Counting(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            v.layoutIfNeeded()
            let before = v.layouts
            v.setNeedsLayout()
            v.setNeedsLayout()
            v.layoutIfNeeded()
            v.layoutIfNeeded()
            #expect(v.layouts == before + 1)
            // A size change asks for layout; a move does not.
            v.center = CGPoint(x: 50, y: 50)
            v.layoutIfNeeded()
            #expect(v.layouts == before + 1)
            v.bounds.size = CGSize(width: 20, height: 20)
            v.layoutIfNeeded()
            #expect(v.layouts == before + 2)
        }

        @Test func windowStartsHiddenUntilMadeKeyAndVisible() {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            // Apple: a window is shown by makeKeyAndVisible() (or isHidden = false).
            #expect(window.isHidden && !window.isKeyWindow && window.hitTest(CGPoint(x: 5, y: 5), with: nil) == nil)
            window.makeKeyAndVisible()
            #expect(!window.isHidden && window.isKeyWindow && UIApplication.shared.keyWindow === window)
            #expect(window.window === window && window.next === UIApplication.shared)
            #expect(UIApplication.shared.windows.contains { $0 === window })
        }
    }
}
