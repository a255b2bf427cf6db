// Scene S8 `layer-storm` as a real CALayer tree: the layer benchmarks (layer-storm-bench,
// band-bench) and BandTests build the same tree.
import CoreGraphics
import QuartzCore

extension S8LayerStorm {
    /// S8's 1000 rounded, bordered, image- or colour-filled, rotated, translucent layers under a
    /// 1920×1080 root, committed (media clock at 0); `animated`: every layer drifts, a third rotate,
    /// a fifth fade (committed too).
    @MainActor public static func layerTree(animated: Bool) -> CALayer {
        let scene = S8LayerStorm()
        let image = CGImage(pixmap: scene.image)
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 1920, height: 1080)
        for l in scene.layers {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: l.w, height: l.h)
            layer.position = CGPoint(x: l.cx, y: l.cy)
            layer.cornerRadius = CGFloat(l.radius)
            layer.borderWidth = CGFloat(S8LayerStorm.borderWidth)
            layer.borderColor = CGColor(red: CGFloat(l.border.r) / 255, green: CGFloat(l.border.g) / 255,
                                        blue: CGFloat(l.border.b) / 255, alpha: 1)
            if l.isImage {
                layer.contents = image
                layer.masksToBounds = true
            } else {
                layer.backgroundColor = CGColor(red: CGFloat(l.background.r) / 255, green: CGFloat(l.background.g) / 255,
                                                blue: CGFloat(l.background.b) / 255, alpha: 1)
            }
            layer.opacity = Float(l.alpha8) / 255
            layer.transform = CATransform3DScale(CATransform3DMakeRotation(CGFloat(l.theta), 0, 0, 1), CGFloat(l.s), CGFloat(l.s), 1)
            root.addSublayer(layer)
        }
        CATransaction.flush()
        guard animated else { return root }
        for (i, layer) in (root.sublayers ?? []).enumerated() {
            let drift = CABasicAnimation(keyPath: "position")
            drift.byValue = CGPoint(x: 40, y: 20)
            drift.duration = 2
            drift.autoreverses = true
            drift.repeatCount = .infinity
            layer.add(drift, forKey: "drift")
            if i % 3 == 0 {
                let spin = CABasicAnimation(keyPath: "transform.rotation.z")
                spin.byValue = CGFloat.pi / 2
                spin.duration = 3
                spin.repeatCount = .infinity
                layer.add(spin, forKey: "spin")
            }
            if i % 5 == 1 {
                let fade = CABasicAnimation(keyPath: "opacity")
                fade.toValue = 0.3
                fade.duration = 1
                fade.autoreverses = true
                fade.repeatCount = .infinity
                layer.add(fade, forKey: "fade")
            }
        }
        CATransaction.flush()
        return root
    }
}
