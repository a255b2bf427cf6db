import Compositor
import Foundation
import ImageCodecs
import QuartzCore
import Raster

/// Inputs the fuzzers (`Fuzz/`, `scripts/fuzz`) found, kept as regression cases: each runs the
/// public call its fuzz target made, on the input as found or minimized (RELIABILITY.md,
/// Fuzzing, lists the campaign that found it). Layer-tree findings are written out as the
/// operations their byte script performed; their raw inputs are also in `Fuzz/Corpus/layers`, so
/// every fuzz run replays them first.
extension BadInputCase {
    static let fuzzCases: [BadInputCase] = fuzzLayerCases + [
        // fuzz-lottie, a timeout (Fuzz/Corpus/lottie/found-keyframe-path-along-a-line.json): a
        // position keyframe whose spatial tangents lie on the line through its two equal ends is
        // a cubic running out and back along one line. Its speed is zero at the turn, where the
        // arc-length quadrature refined every panel to the last level (seconds per look-up in a
        // debug build, minutes for these frames). The curve, as a Core Animation user writes it:
        // x(t) = 150 + 60 t (1 − t)(2 − t), so half way along it (half time, linear timing) is
        // the turn at x = 150 + 40/√3 ≈ 173.094; frames around the turn and across the animation.
        BadInputCase("keyframe-path-out-and-back-along-a-line", area: "cost",
                     expected: "at half time (173.094, 40.000), drew 80 frames", seconds: 20) {
            CAMediaClock.setManualTime(0)
            let line = CGMutablePath()
            line.move(to: CGPoint(x: 150, y: 40))
            line.addCurve(to: CGPoint(x: 150, y: 40), control1: CGPoint(x: 190, y: 40), control2: CGPoint(x: 170, y: 40))
            let move = CAKeyframeAnimation(keyPath: "position")
            move.path = line
            move.duration = 1
            let layer = square()
            layer.add(move, forKey: nil)
            let besideTheTurn: [CFTimeInterval] = (-20..<20).map { 0.5 + CFTimeInterval($0) * 1e-7 }
            let across: [CFTimeInterval] = (0..<40).map { CFTimeInterval($0) / 40 }
            let times = (besideTheTurn + across).sorted()  // the first, at 0, commits the animation
            _ = try renderer(drawing: layer, at: times, scale: 1)
            CAMediaClock.setManualTime(0.5)
            guard let turn = layer.presentation()?.position else { return "not presented" }
            return String(format: "at half time (%.3f, %.3f), drew %d frames", turn.x, turn.y, times.count)
        },
        // fuzz-jpeg, campaign timeouts (13 s, then over 30 s, under ASan on the loaded machine):
        // a 115-byte CMYK JPEG whose header claims 6896×7709 pixels — within the decoding budget
        // — with a few bytes of scan data, then EOI. Strict: an error at the corrupt data, at
        // once. Lenient: the image libjpeg recovers, every pixel decoded and converted from CMYK,
        // time proportional to the pixels claimed, which the budget bounds — the documented
        // behaviour, not a defect; not run here (28.5 s in a debug build on the loaded machine).
        BadInputCase("fuzz-jpeg-cmyk-claims-53-megapixels-strict", area: "files", expected: "refused: <memory>: malformed image: Corrupt JPEG data") {
            _ = try JPEGCodec.decode(fuzzJPEGClaiming53Megapixels)
            return "decoded"
        },
        // Found while reading that case's decode path: a file cut short is an error either way,
        // yet libjpeg went on to fill every row it lacked with grey before the error was
        // reported. The decode now stops at the end of the data (strict and lenient alike).
        BadInputCase("jpeg-truncated-header-8192-squared-lenient", area: "files", expected: "refused: <memory>: truncated") {
            let cut = Array(jpeg(width: 8192, height: 8192, progressive: false).dropLast(2))
            _ = try cut.withUnsafeBytes { try JPEGCodec.decode(buffer: $0, lenient: true) }
            return "decoded"
        },
    ]

    /// Layer-tree findings of fuzz-layers.
    static let fuzzLayerCases: [BadInputCase] = [
        // Found by `scripts/fuzz --release layers` (a timeout: 18 s of CPU in the release build):
        // a rasterized layer with a shadow is drawn as a group over its blurred alpha, here
        // 2 542² pixels blurred with σ = 152 pixels — the exact kernel's 915 taps per pixel and
        // pass. Past `Pixmap.maxExactBlurWork` the blur's cost no longer grows with σ.
        BadInputCase("shadow-radius-76-on-a-rasterized-layer-2542-pixels-wide", area: "cost", expected: "drew", seconds: 30) {
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 1271, height: 1271)
            layer.position = CGPoint(x: 16, y: 16)
            layer.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
            layer.shouldRasterize = true
            layer.rasterizationScale = 2
            layer.shadowOpacity = 1
            layer.shadowRadius = 76
            return try drawn(layer, at: [0], scale: 2)
        },
        // Found: a fade transition (duration −17, so the default 0.25 s) with a time offset of
        // 9.7e24 s, drawn after its end: the play index of the final cycle (≈ 4e25 cycles) was
        // converted to Int and trapped (Fuzz/Corpus/layers/found-transition-time-offset-1e25).
        // Every play index is now clamped to 0…Int32.max, wherever it is computed.
        BadInputCase("fuzz-transition-time-offset-1e25-after-its-end", area: "numbers", expected: "drew") {
            let transition = CATransition()
            transition.duration = -17
            transition.timeOffset = 9.7e24
            return try drawnAfterItsEnd(transition)
        },
        BadInputCase("animation-time-offset-1e30-after-its-end", area: "numbers", expected: "drew") {
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0
            fade.duration = 1
            fade.timeOffset = 1e30
            fade.fillMode = .forwards
            fade.isRemovedOnCompletion = false
            return try drawnAfterItsEnd(fade)
        },
        // Found: an emitter cell whose scale is −6.6e35 (with a 1×1 image) puts a particle's
        // sprite at a device box of ±1e36 pixels; the sprite drawer converted it to Int and
        // trapped (Fuzz/Corpus/layers/found-emitter-cell-scale-6e35, the operations it performs).
        // Every rectangle conversion of the sprite drawer is clamped to the image and target now.
        BadInputCase("fuzz-emitter-cell-scale-6e35", area: "numbers", expected: "drew") {
            CAMediaClock.setManualTime(0)
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 32, height: 32)
            root.position = CGPoint(x: 16, y: 16)
            let emitter = CAEmitterLayer()
            emitter.bounds = CGRect(x: 0, y: 0, width: 30, height: 30)
            emitter.position = CGPoint(x: 20, y: 16)
            emitter.backgroundColor = CGColor(red: 200 / 255, green: 100 / 255, blue: 50 / 255, alpha: 1)
            root.addSublayer(emitter)
            let huge = CAEmitterCell(), plain = CAEmitterCell()
            for (cell, pixel) in [(huge, [UInt8(0), 4, 0, 255]), (plain, [0, 0, 0, 0])] {
                cell.birthRate = 4
                cell.lifetime = 1
                let image = try Pixmap(width: 1, height: 1)
                for (i, byte) in pixel.enumerated() { image.pixels[i] = byte }
                cell.contents = CGImage(pixmap: image)
            }
            huge.scale = CGFloat(Float(bitPattern: 0xFAFF_0000))
            huge.birthRate = 0.5
            emitter.emitterCells = [huge, plain]
            return try drawn(root, at: [0.25, 1, 4.5], scale: 1)
        },
        // Found (three timeouts): a 32-point layer scaled ×115 on a 32×32 target was rasterized
        // into a retained bitmap of 3 682² pixels at each frame (10–104 s per input under ASan on
        // the loaded machine). A retained bitmap is now at most four frames' worth of pixels;
        // larger layers are drawn directly, clipped to the target.
        BadInputCase("fuzz-layer-scaled-115-on-a-small-target", area: "memory", expected: "drew; retained bitmaps: scaled 0, unscaled 1") {
            func retained(scale: CGFloat) throws -> Int {
                CAMediaClock.setManualTime(0)
                let layer = square()
                layer.setValue(scale, forKeyPath: "transform.scale")
                let drawn = try renderer(drawing: layer, at: [0.25, 1, 4.5], scale: 1)
                return drawn._retainedBitmapCount
            }
            return "drew; retained bitmaps: scaled \(try retained(scale: 115)), unscaled \(try retained(scale: 1))"
        },
        // Found: a layer's picture composited 1e300 pixels above the target (a transition under
        // a huge scale and a spring animation; Fuzz/Corpus/layers/found-texture-1e300-off-target):
        // the texture drawer's row range was converted to Int and trapped. Here the same call,
        // directly: a 4×4 image under a finite map that puts it 1e300 pixels off a 32×32 target.
        BadInputCase("fuzz-texture-drawn-1e300-pixels-off-the-target", area: "numbers", expected: "drew") {
            let target = try Pixmap(width: 32, height: 32), image = try Pixmap(width: 4, height: 4)
            for i in 0..<64 { image.pixels[i] = 255 }
            target.drawTexture(image, transform: Transform(a: 2, b: 0, c: 0, d: 1, tx: 0, ty: -1e300))
            return "drew"
        },
        // Found: the same for a transition's mesh and polygon textures (clamped on one side only:
        // a box 1e300 pixels off the far side trapped; Fuzz/Corpus/layers/found-mesh-texture-1e300-off-target).
        BadInputCase("fuzz-mesh-and-polygon-1e300-pixels-off-the-target", area: "numbers", expected: "drew") {
            let target = try Pixmap(width: 32, height: 32), image = try Pixmap(width: 4, height: 4)
            for i in 0..<64 { image.pixels[i] = 255 }
            let far = [Point(x: -2e300, y: 0), Point(x: -1e300, y: 0), Point(x: -1e300, y: 10)]
            target.drawTexture(image, inside: far, imageToDevice: Projective(Transform(a: 1, b: 0, c: 0, d: 1, tx: -1e300, ty: 0)))
            let beyond = [Point(x: 1e300, y: 0), Point(x: 2e300, y: 0), Point(x: 2e300, y: 10)]
            target.drawMesh(image: image, positions: beyond, texCoords: [Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 4, y: 4)],
                            indices: [0, 1, 2])
            return "drew"
        },
        // Found (five timeouts, 184–422 s per input under ASan on the loaded machine): a fade
        // (and a shadowed picture) on a 32-point layer scaled by −1.7e38 pictured the whole
        // layer at up to 4 096² pixels per frame and cross-dissolved it, whatever reached the
        // 32×32 target (Fuzz/Corpus/layers/found-transition-on-layer-scaled-1e38 and two more).
        // A transition picture is now bounded in pixels as retained bitmaps are (four frames'
        // worth, at least 256²): the three inputs take under a second.
        BadInputCase("fuzz-transition-on-a-layer-scaled-1e38", area: "memory", expected: "drew", seconds: 30) {
            CAMediaClock.setManualTime(0)
            let layer = square()
            layer.setValue(-1.7e38, forKeyPath: "transform.scale")
            layer.shadowOpacity = 1
            layer.add(CATransition(), forKey: nil)
            return try drawn(layer, at: [0.05, 0.1, 0.15, 0.2], scale: 2)
        },
        // Found (three crash inputs, session 11's campaign): two intersecting layers whose cut
        // pieces reach 10¹⁹ pixels and more (Fuzz/Corpus/layers/found-depth-cut-plane-beyond-int-*):
        // the depth order's surface box for a cut plane converted its device bounds to Int and
        // trapped. Its coordinates are clamped like every other device box now.
        BadInputCase("fuzz-depth-order-cut-plane-1e28-pixels-wide", area: "numbers", expected: "drew") {
            CAMediaClock.setManualTime(0)
            let root = square()
            root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
            for lean: CGFloat in [1, -1] {
                let plane = CALayer()
                plane.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
                plane.position = CGPoint(x: 16, y: 16)
                plane.backgroundColor = CGColor(red: lean > 0 ? 1 : 0, green: 0, blue: lean > 0 ? 0 : 1, alpha: 1)
                var t = CATransform3DMakeScale(1e28, 1e28, 1)
                t.m13 = lean
                plane.transform = t
                root.addSublayer(plane)
            }
            return try drawn(root, at: [0, 0.5], scale: 1)
        },
        // Found (one crash input): cubicPaced keyframes whose spline is infinitely long
        // (Fuzz/Corpus/layers/found-cubic-paced-nan-length): the arc-length look-up turned the
        // NaN position into a segment index and trapped. An unmeasurable spline paces by the
        // distance between values instead, as `.paced` does.
        BadInputCase("fuzz-cubic-paced-keyframes-of-infinite-length", area: "numbers", expected: "drew") {
            let fall = CAKeyframeAnimation(keyPath: "position")
            fall.values = [CGPoint(x: CGFloat.greatestFiniteMagnitude, y: 96.5), CGPoint(x: -121.625, y: -121.625)]
            fall.calculationMode = .cubicPaced
            fall.duration = 1
            return try drawnAfterItsEnd(fall)
        },
        // Found (one crash input, Fuzz/Corpus/layers/found-cubic-paced-colours): `.cubicPaced`
        // keyframes whose values are none of number, point or size (colours) trapped while the
        // spline's arc length was tabulated. Such values pace by the distance between them, as
        // `.paced` does.
        BadInputCase("fuzz-cubic-paced-keyframes-of-colours", area: "numbers", expected: "drew") {
            let fade = CAKeyframeAnimation(keyPath: "backgroundColor")
            fade.values = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1),
                           CGColor(red: 0, green: 1, blue: 0, alpha: 1)]
            fade.calculationMode = .cubicPaced
            fade.duration = 1
            return try drawnAfterItsEnd(fade)
        },
        // Found by `scripts/fuzz layers` (a trap in the spline's tangent sum): keyframe values of
        // different kinds — points and numbers — give vectors of different lengths. Each
        // calculation mode draws them; a spline segment between values of different kinds
        // interpolates as `.linear` does.
        BadInputCase("fuzz-keyframes-of-mixed-kinds-in-every-mode", area: "numbers", expected: "drew") {
            for mode: CAAnimationCalculationMode in [.linear, .discrete, .paced, .cubic, .cubicPaced] {
                let move = CAKeyframeAnimation(keyPath: "position")
                move.values = [CGPoint(x: 1, y: 2), 5.0, CGPoint(x: 3, y: 4), 7.0]
                move.calculationMode = mode
                move.duration = 1
                _ = try drawnAfterItsEnd(move)
            }
            return "drew"
        },
    ]

    /// Draws `layer` into a 32×32-point renderer at `scale`, at each media time of `times`.
    static func drawn(_ layer: CALayer, at times: [CFTimeInterval], scale: CGFloat) throws -> String {
        _ = try renderer(drawing: layer, at: times, scale: scale)
        return "drew"
    }

    /// A 32×32-point renderer at `scale` that has drawn `layer` at each media time of `times`.
    static func renderer(drawing layer: CALayer, at times: [CFTimeInterval], scale: CGFloat) throws -> CARenderer {
        let renderer = try CARenderer(width: 32, height: 32, scale: scale)
        renderer.layer = layer
        for t in times {
            CAMediaClock.setManualTime(t)
            renderer.beginFrame(atTime: t)
            renderer.render()
            renderer.endFrame()
        }
        return renderer
    }

    /// Adds `animation` to a square at media time 0 and draws it at 0.25, 1 and 4.5 s.
    static func drawnAfterItsEnd(_ animation: CAAnimation) throws -> String {
        CAMediaClock.setManualTime(0)
        let layer = square()
        layer.add(animation, forKey: nil)
        return try drawn(layer, at: [0.25, 1, 4.5], scale: 2)
    }

    static let fuzzJPEGClaiming53Megapixels = [UInt8](Data(base64Encoded:
        "/9gA/9sAQwAIBgYHBgUICQoIBwwU7AcNDAsLDBkSEw8UHRofHh0aHBwjHCQoNiksMDE0NDUfJzk9ODI8LjM0Mv/AABQuMzQy/8AAFAgeHRrwBEMRAE0RAFkRAEsRAAAB+v/aAA4EQwBNAFkASwAAca//2Q==")!)
}
