import Compositor
import Foundation
import CoreGraphics
import QuartzCore

/// Size: deep and wide trees, many animations, long texts, huge paths, fine dashes and huge
/// replicators cost time and memory proportional to what is drawn (each case runs under the
/// probe's 3 GiB address-space limit and its wall-clock limit; RELIABILITY.md has the numbers).
extension BadInputCase {
    static let costCases: [BadInputCase] = [
        BadInputCase("deep-chain-100k-hit-test", area: "depth", expected: "hit the deepest layer", seconds: 300) {
            let root = chain(depth: 100_000, topDown: true)
            return root.hitTest(CGPoint(x: 5, y: 5)) === deepest(root) ? "hit the deepest layer" : "missed"
        },
        BadInputCase("deep-chain-2k-hit-test-on-a-128-KiB-thread", area: "depth", expected: "hit the deepest layer") {
            try onThread(stackSize: 128 << 10) {
                let root = chain(depth: 2_000, topDown: true)
                return root.hitTest(CGPoint(x: 5, y: 5)) === deepest(root) ? "hit the deepest layer" : "missed"
            }
        },
        BadInputCase("deep-chain-100k-hit-test-misses", area: "depth", expected: "hit nil", seconds: 300) {
            let root = chain(depth: 100_000, topDown: true)
            return "hit \(root.hitTest(CGPoint(x: 50, y: 50)).map { _ in "a layer" } ?? "nil")"
        },
        BadInputCase("deep-chain-100k-convert-point", area: "depth", expected: "converted (5.0, 5.0)", seconds: 300) {
            let root = chain(depth: 100_000, topDown: true)
            let p = root.convert(CGPoint(x: 5, y: 5), from: deepest(root))
            let q = deepest(root).convert(p, from: root)
            return "converted (\(q.x), \(q.y))"
        },
        BadInputCase("animations-100k-on-one-layer", area: "cost", expected: "presented opacity 0.5, drew", seconds: 300) {
            CAMediaClock.setManualTime(0)
            let l = square()
            for i in 0..<100_000 {
                let fade = CABasicAnimation(keyPath: "opacity")
                fade.fromValue = 0; fade.toValue = 1; fade.duration = 1
                l.add(fade, forKey: "fade\(i)")
            }
            CATransaction.flush()
            CAMediaClock.setManualTime(0.5)
            let opacity = l.presentation()?.opacity ?? -1
            _ = try CARenderer.image(of: l, size: CGSize(width: 32, height: 32), at: 0.5)
            return "presented opacity \(opacity), drew"
        },
        BadInputCase("text-truncation-10k-characters", area: "cost", expected: "drew") {
            let text = CATextLayer()
            text.frame = CGRect(x: 0, y: 0, width: 200, height: 20)
            text.fontSize = 12
            text.truncationMode = .middle
            text.string = String(repeating: "The quick brown fox jumps. ", count: 400)   // 10 800 characters
            return try drawn(text, size: CGSize(width: 200, height: 20))
        },
        // Two of the squares touch the 32-point target (x = 0 and 20); a few more are looked at.
        BadInputCase("replicator-instance-count-int-max", area: "cost", expected: "drew, visiting at most 8 instances",
                     seconds: 300) {
            try drawnVisiting(replicator(count: .max, step: 20), atMost: 8)
        },
        BadInputCase("replicator-instance-count-10m", area: "cost", expected: "drew, visiting at most 8 instances",
                     seconds: 300) {
            try drawnVisiting(replicator(count: 10_000_000, step: 20), atMost: 8)
        },
        BadInputCase("replicator-instance-count-int-max-spiralling-in-and-out", area: "cost", expected: "drew",
                     seconds: 300) {
            for scale: CGFloat in [0.8, 1.25] {
                let r = replicator(count: .max, step: 0)
                r.instanceTransform = CATransform3DScale(CATransform3DMakeRotation(0.3, 0, 0, 1), scale, scale, 1)
                _ = try drawn(r)
            }
            return "drew"
        },
        // A sublayer that moves under an instanceDelay: only the instances whose shifted time
        // falls within the animation (t − 0.1·i in 0…1 at t = 0: the first) differ; the rest
        // show it before its begin, one picture, whose visible instances the closed form finds.
        BadInputCase("replicator-instance-count-int-max-delayed-moving", area: "cost", expected: "drew, visiting at most 8 instances") {
            CAMediaClock.setManualTime(0)
            let r = replicator(count: .max, step: 20)
            r.instanceDelay = 0.1
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = 0
            move.toValue = 100
            move.duration = 1
            r.sublayers?.first?.add(move, forKey: "move")
            CATransaction.flush()
            return try drawnVisiting(r, atMost: 8)
        },
        BadInputCase("replicator-instance-count-int-max-turning", area: "cost", expected: "drew (+ one line on stderr)",
                     seconds: 300) {
            let r = replicator(count: .max, step: 0)
            r.instanceTransform = CATransform3DMakeRotation(0.3, 0, 0, 1)
            return try drawn(r) + " (+ one line on stderr)"
        },
        BadInputCase("replicator-instance-count-int-max-fading-out", area: "cost", expected: "drew") {
            let r = replicator(count: .max, step: 1)
            r.instanceAlphaOffset = -0.01
            return try drawn(r)
        },
        BadInputCase("siblings-250k-rendered", area: "memory", expected: "drew", seconds: 300) {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
            for i in 0..<250_000 {
                let l = CALayer()
                l.frame = CGRect(x: i % 64, y: (i / 64) % 64, width: 1, height: 1)
                l.backgroundColor = CGColor(gray: 0.5, alpha: 1)
                root.addSublayer(l)
            }
            return try drawn(root, size: CGSize(width: 64, height: 64))
        },
        BadInputCase("path-10m-segments-filled-and-stroked", area: "memory", expected: "drew", seconds: 300) {
            try zigzag(segments: 10_000_000, step: 0.001)
        },
        BadInputCase("path-250k-segments-on-the-target-filled-and-stroked", area: "memory", expected: "drew", seconds: 300) {
            try zigzag(segments: 250_000, step: 0.00012)
        },
        BadInputCase("dashed-stroke-495k-round-dashes-width-27", area: "memory", expected: "drew") {
            try dashedCircleStroke(width: 27)
        },
        BadInputCase("dashed-stroke-495k-round-dashes-width-2000", area: "memory", expected: "drew") {
            try dashedCircleStroke(width: 2_000)
        },
        BadInputCase("dashed-stroke-495k-round-dashes-width-27-with-a-shadow", area: "memory", expected: "drew") {
            try dashedCircleStroke(width: 27, shadow: true)
        },
        BadInputCase("dashed-stroke-992k-pieces-peak-memory", area: "memory",
                     expected: "drew, the peak did not grow with the dash count", seconds: 300) {
            try dashPeakGrowth()
        },
        BadInputCase("dashed-shape-layer-495k-round-dashes-width-27", area: "memory", expected: "drew") {
            let shape = CAShapeLayer()
            shape.frame = CGRect(x: 0, y: 0, width: 256, height: 256)
            shape.path = CGPath(ellipseIn: CGRect(x: 28, y: 28, width: 200, height: 200), transform: nil)
            shape.fillColor = nil
            shape.strokeColor = CGColor(gray: 0, alpha: 1)
            shape.lineWidth = 27
            shape.lineCap = .round
            shape.lineDashPattern = [0.0005, 0.00077]   // 628 / 0.00127: 495 k dashes (990 k pieces, under Dasher.maxDashes)
            return try drawn(shape, size: CGSize(width: 256, height: 256))
        },
    ]

    /// Draws the replicator `r` into its bounds and says whether that visited at most `limit`
    /// instances (`CARenderer._replicatorInstancesVisited`).
    static func drawnVisiting(_ r: CAReplicatorLayer, atMost limit: Int) throws -> String {
        let renderer = try CARenderer(width: Int(r.bounds.width), height: Int(r.bounds.height))
        renderer.layer = r
        renderer.beginFrame(atTime: 0)
        renderer.render()
        renderer.endFrame()
        let visited = renderer._replicatorInstancesVisited
        return visited <= limit ? "drew, visiting at most \(limit) instances" : "drew, visiting \(visited) instances"
    }

    /// A replicator of `count` 8×8 squares, each `step` points right of the one before.
    static func replicator(count: Int, step: CGFloat) -> CAReplicatorLayer {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
        r.instanceCount = count
        r.instanceTransform = CATransform3DMakeTranslation(step, 0, 0)
        let l = square()
        l.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        r.addSublayer(l)
        return r
    }

    /// Strokes rows of butt-capped [0.3, 0.3] dashes (width 2) across a 256×256 context — 124
    /// rows, 99 200 pieces (dashes and gaps), then 1 240 rows, 992 000 pieces (just under
    /// `Dasher.maxDashes`), all on the target — and compares the process's peak resident size
    /// after each: dashes are cut and outlined as the path is flattened and rasterized in
    /// batches, so ten times the dashes must not raise the peak by more than 8 MiB
    /// (the list of dashes alone was about 100 bytes a dash, 50 MB here).
    static func dashPeakGrowth() throws -> String {
        func peakKiB() -> Int {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return usage.ru_maxrss
        }
        func stroke(rows: Int) throws {
            guard let ctx = CGContext(data: nil, width: 256, height: 256, bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(),
                                      bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else {
                throw CocoaError(.featureUnsupported)
            }
            for r in 0..<rows {
                let y = 3 + CGFloat(r) * 250 / CGFloat(rows)
                ctx.move(to: CGPoint(x: 8, y: y))
                ctx.addLine(to: CGPoint(x: 248, y: y))
            }
            ctx.setLineWidth(2)
            ctx.setLineDash(phase: 0, lengths: [0.3, 0.3])
            ctx.strokePath()
        }
        let start = peakKiB()
        try stroke(rows: 124)
        let small = peakKiB()
        try stroke(rows: 1_240)
        let large = peakKiB()
        let figures = "+\((small - start) / 1024) MiB at 99 200 pieces, +\((large - small) / 1024) MiB more at 992 000"
        return large - small < 8 * 1024 ? "drew, the peak did not grow with the dash count (\(figures))"
                                        : "the peak grew with the dash count: \(figures)"
    }

    /// A circle of radius 100 stroked in a 256×256 context with about 495 000 round-capped
    /// dashes (990 000 dashes and gaps, just under `Dasher.maxDashes`), with a blurred shadow if
    /// `shadow`.
    static func dashedCircleStroke(width: CGFloat, shadow: Bool = false) throws -> String {
        guard let ctx = CGContext(data: nil, width: 256, height: 256, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else {
            throw CocoaError(.featureUnsupported)
        }
        ctx.addEllipse(in: CGRect(x: 28, y: 28, width: 200, height: 200))
        ctx.setLineWidth(width)
        ctx.setLineCap(.round)
        ctx.setLineDash(phase: 0, lengths: [0.0005, 0.00077])
        if shadow { ctx.setShadow(offset: CGSize(width: 4, height: -4), blur: 6) }
        ctx.strokePath()
        return "drew"
    }
}
