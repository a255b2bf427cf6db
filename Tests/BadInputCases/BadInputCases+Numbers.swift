import Compositor
import Foundation
import CoreGraphics
import QuartzCore
import Raster

/// Non-finite and huge numbers: each is refused with an error naming the value, clamped, or
/// treated as Apple treats NaN geometry (the layer draws nothing; see RELIABILITY.md).
extension BadInputCase {
    static let numberCases: [BadInputCase] = [
        BadInputCase("renderer-scale-nan", area: "numbers", expected: "refused: invalid pixmap size") {
            _ = try CARenderer(width: 10, height: 10, scale: .nan); return "made"
        },
        BadInputCase("renderer-scale-infinite", area: "numbers", expected: "refused: invalid pixmap size") {
            _ = try CARenderer(width: 10, height: 10, scale: .infinity); return "made"
        },
        BadInputCase("renderer-scale-1e30", area: "numbers", expected: "refused: invalid pixmap size") {
            _ = try CARenderer(width: 10, height: 10, scale: 1e30); return "made"
        },
        BadInputCase("image-size-nan", area: "numbers", expected: "refused: invalid pixmap size") {
            try drawn(CALayer(), size: CGSize(width: CGFloat.nan, height: 10))
        },
        BadInputCase("image-size-infinite", area: "numbers", expected: "refused: invalid pixmap size") {
            try drawn(CALayer(), size: CGSize(width: 10, height: -CGFloat.infinity))
        },
        BadInputCase("image-size-1e30", area: "numbers", expected: "refused: invalid pixmap size") {
            try drawn(CALayer(), size: CGSize(width: 1e30, height: 1e30))
        },
        BadInputCase("image-scale-nan", area: "numbers", expected: "refused: invalid pixmap size") {
            try drawn(CALayer(), size: CGSize(width: 10, height: 10), scale: .nan)
        },
        BadInputCase("shadow-radius-1e30", area: "numbers", expected: "drew") {
            let l = square()
            l.shadowOpacity = 1
            l.shadowRadius = 1e30
            return try drawn(l)
        },
        BadInputCase("shadow-radius-nan", area: "numbers", expected: "drew") {
            let l = square()
            l.shadowOpacity = 1
            l.shadowRadius = .nan
            return try drawn(l)
        },
        BadInputCase("context-shadow-blur-1e30", area: "numbers", expected: "drew") {
            let ctx = try context()
            ctx.setShadow(offset: CGSize(width: 2, height: 2), blur: 1e30, color: CGColor(gray: 0, alpha: 1))
            ctx.setFillColor(gray: 0.5, alpha: 1)
            ctx.fill(CGRect(x: 8, y: 8, width: 16, height: 16))
            return "drew"
        },
        BadInputCase("path-control-point-1e38-filled", area: "numbers", expected: "drew") {
            let ctx = try context()
            ctx.addPath(hugeCurve(1e38))
            ctx.fillPath()
            return "drew"
        },
        BadInputCase("path-control-point-1e300-stroked", area: "numbers", expected: "drew") {
            let ctx = try context()
            ctx.addPath(hugeCurve(1e300))
            ctx.setLineWidth(3)
            ctx.strokePath()
            return "drew"
        },
        BadInputCase("path-control-point-1e38-shape-layer", area: "numbers", expected: "drew") {
            let shape = CAShapeLayer()
            shape.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
            shape.path = hugeCurve(1e38)
            shape.strokeColor = CGColor(gray: 0, alpha: 1)
            return try drawn(shape)
        },
        BadInputCase("replicator-instance-color-nan", area: "numbers", expected: "drew") {
            let r = CAReplicatorLayer()
            r.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
            r.instanceCount = 3
            r.instanceColor = CGColor(red: .nan, green: 1, blue: .nan, alpha: .nan)
            r.addSublayer(square())
            return try drawn(r)
        },
        BadInputCase("replicator-color-offsets-nan", area: "numbers", expected: "drew") {
            let r = CAReplicatorLayer()
            r.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
            r.instanceCount = 3
            r.instanceRedOffset = .nan
            r.instanceGreenOffset = .infinity
            r.instanceBlueOffset = -.infinity
            r.instanceAlphaOffset = .nan
            r.addSublayer(square())
            return try drawn(r)
        },
        BadInputCase("instance-count-kvc-nan", area: "numbers", expected: "instanceCount 1") {
            let r = CAReplicatorLayer()
            r.setValue(Double.nan, forKey: "instanceCount")
            return "instanceCount \(r.instanceCount)"
        },
        BadInputCase("instance-count-kvc-1e30", area: "numbers", expected: "instanceCount 1") {
            let r = CAReplicatorLayer()
            r.setValue(CGFloat(1e30), forKey: "instanceCount")
            return "instanceCount \(r.instanceCount)"
        },
        BadInputCase("hit-test-nan-bounds", area: "numbers", expected: "hit nil") {
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 10)
            l.position = CGPoint(x: 5, y: 5)
            return "hit \(l.hitTest(CGPoint(x: 5, y: 5)).map { _ in "layer" } ?? "nil")"
        },
        BadInputCase("hit-test-nan-point", area: "numbers", expected: "hit nil") {
            let l = square()
            return "hit \(l.hitTest(CGPoint(x: CGFloat.nan, y: 5)).map { _ in "layer" } ?? "nil")"
        },
        BadInputCase("nan-geometry-draws-nothing", area: "numbers", expected: "drew sibling only") {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
            let bad = square()
            bad.bounds = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 16)
            bad.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let good = square()
            good.frame = CGRect(x: 16, y: 16, width: 16, height: 16)
            root.addSublayer(bad)
            root.addSublayer(good)
            let image = try CARenderer.image(of: root, size: CGSize(width: 32, height: 32), at: 0)
            let redAnywhere = (0..<32).contains { y in
                (0..<32).contains { x in let c = image.pixmap.pixel(x: x, y: y); return c.r > 0 && c.g == 0 }
            }
            let sibling = image.pixmap.pixel(x: 24, y: 24).a == 255
            return redAnywhere ? "drew the NaN layer" : sibling ? "drew sibling only" : "lost the sibling"
        },
    ]

    /// A 16-point grey square at (0, 0).
    static func square() -> CALayer {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        l.backgroundColor = CGColor(gray: 0.5, alpha: 1)
        return l
    }

    /// Renders `layer` (at t = 0) and says "drew".
    static func drawn(_ layer: CALayer, size: CGSize = CGSize(width: 32, height: 32), scale: CGFloat = 1) throws -> String {
        _ = try CARenderer.image(of: layer, size: size, at: 0, scale: scale)
        return "drew"
    }

    /// A 32×32 bitmap context.
    static func context() throws -> CGContext {
        guard let ctx = CGContext(data: nil, width: 32, height: 32, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else {
            throw CocoaError(.featureUnsupported)
        }
        return ctx
    }

    /// A closed cubic whose control points reach `magnitude`.
    static func hugeCurve(_ magnitude: CGFloat) -> CGPath {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 1))
        p.addCurve(to: CGPoint(x: 30, y: 30), control1: CGPoint(x: magnitude, y: -magnitude),
                   control2: CGPoint(x: -magnitude, y: magnitude))
        p.closeSubpath()
        return p
    }
}
