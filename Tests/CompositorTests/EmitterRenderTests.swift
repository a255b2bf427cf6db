import Compositor
import QuartzCore
import Raster
import Testing

/// Emitter layers drawn: each particle is its cell's image centred on the particle, scaled and
/// multiplied by its colour; `.additive` adds, the other modes composite source-over. Expected
/// pixels are closed-form: an opaque white 4×4 image times the colour, rounded to 8 bits.
@Suite(.serialized) struct EmitterRenderTests {
    static func whiteSquare(_ side: Int) throws -> CGImage {
        let p = try Pixmap(width: side, height: side)
        p.fill(with: PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        return CGImage(pixmap: p)
    }

    /// An emitter 40×40 points whose cells sit at (20, 20), each with one particle at time 10
    /// (birth rate 1, started 0.5 s before).
    static func emitter(_ colors: [CGColor], scale: CGFloat = 1, mode: CAEmitterLayerRenderMode = .unordered) throws -> CAEmitterLayer {
        CAMediaClock.setManualTime(9.5)
        let layer = CAEmitterLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        layer.beginTime = 9.5
        layer.emitterPosition = CGPoint(x: 20, y: 20)
        layer.renderMode = mode
        let image = try whiteSquare(4)
        layer.emitterCells = colors.map { color in
            let cell = CAEmitterCell()
            cell.birthRate = 1; cell.lifetime = 100; cell.contents = image; cell.color = color; cell.scale = scale
            return cell
        }
        CATransaction.flush()
        return layer
    }

    @Test func aParticleIsItsImageTimesItsColour() throws {
        let layer = try Self.emitter([CGColor(red: 1, green: 0, blue: 0, alpha: 1)])
        let img = try CARenderer.image(of: layer, size: CGSize(width: 40, height: 40), at: 10)
        #expect(img.pixmap.pixel(x: 19, y: 19) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        #expect(img.pixmap.pixel(x: 18, y: 21) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        #expect(img.pixmap.pixel(x: 23, y: 20).a == 0)
        #expect(img.pixmap.pixel(x: 5, y: 5).a == 0)
    }

    /// `contentsRect` (unit coordinates of the image) picks the part of the image a particle
    /// draws: the right half of an 8×4 image whose left half is red and right half blue.
    @Test func contentsRectPicksThePartOfTheImageDrawn() throws {
        let layer = try Self.emitter([CGColor(red: 1, green: 1, blue: 1, alpha: 1)])
        let p = try Pixmap(width: 8, height: 4)
        p.fill(with: PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        for y in 0..<4 { for x in 0..<4 { p.setPixel(x: x, y: y, PremultipliedColor(r: 255, g: 0, b: 0, a: 255)) } }
        let cell = try #require(layer.emitterCells?.first)
        cell.contents = CGImage(pixmap: p)
        cell.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let img = try CARenderer.image(of: layer, size: CGSize(width: 40, height: 40), at: 10)
        // A 4×4 sprite centred on (20, 20): pixels 18…21, each on a texel centre of the right half.
        for (x, y) in [(18, 18), (21, 21), (19, 20)] {
            #expect(img.pixmap.pixel(x: x, y: y) == PremultipliedColor(r: 0, g: 0, b: 255, a: 255), "(\(x), \(y))")
        }
        #expect(img.pixmap.pixel(x: 22, y: 20).a == 0 && img.pixmap.pixel(x: 17, y: 20).a == 0)
    }

    @Test func scaleEnlargesTheSprite() throws {
        let layer = try Self.emitter([CGColor(red: 0, green: 0, blue: 1, alpha: 1)], scale: 2)
        let img = try CARenderer.image(of: layer, size: CGSize(width: 40, height: 40), at: 10)
        // 8 device pixels over 4 texels: pixel 17's centre samples texel 0.25 (inside), pixel 16's
        // texel −0.25, a bilinear ¾ of the edge texel on each axis: 255·0.75² = 143.4.
        #expect(img.pixmap.pixel(x: 17, y: 17) == PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        #expect(img.pixmap.pixel(x: 22, y: 22) == PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        #expect(img.pixmap.pixel(x: 16, y: 16) == PremultipliedColor(r: 0, g: 0, b: 143, a: 143))
        #expect(img.pixmap.pixel(x: 25, y: 20).a == 0)
    }

    @Test func additiveAddsAndSourceOverCovers() throws {
        let half = CGColor(red: 0.4, green: 0, blue: 0, alpha: 1)
        let added = try CARenderer.image(of: try Self.emitter([half, half], mode: .additive),
                                         size: CGSize(width: 40, height: 40), at: 10)
        let covered = try CARenderer.image(of: try Self.emitter([half, half], mode: .unordered),
                                           size: CGSize(width: 40, height: 40), at: 10)
        // 0.4·255 = 102 per particle: added 204 (alpha saturates), covered 102.
        #expect(added.pixmap.pixel(x: 20, y: 20) == PremultipliedColor(r: 204, g: 0, b: 0, a: 255))
        #expect(covered.pixmap.pixel(x: 20, y: 20) == PremultipliedColor(r: 102, g: 0, b: 0, a: 255))
    }

    @Test func particlesMoveWithTimeAndTheRendererRedraws() throws {
        let layer = try Self.emitter([CGColor(red: 1, green: 1, blue: 1, alpha: 1)])
        layer.emitterCells?.first?.velocity = 10   // to +x
        let r = try CARenderer(width: 40, height: 40, scale: 1)
        r.layer = layer
        r.beginFrame(atTime: 10); r.render(); r.endFrame()
        #expect(r.nextFrameTime() == CACurrentMediaTime())   // an emitter always needs the next frame
        r.beginFrame(atTime: 11); r.render(); r.endFrame()
        // At 11 particle 0 is 1.5 s old: 15 points right of the emitter; particle 1 is at 5.
        let img = r.makeImage()
        #expect(img.pixmap.pixel(x: 35, y: 20).a == 255)
        #expect(img.pixmap.pixel(x: 25, y: 20).a == 255)
        #expect(img.pixmap.pixel(x: 20, y: 20).a == 0)
    }

    /// An animated birth rate (and an animated cell velocity) drawn by one renderer frame after
    /// frame — which keeps the plans of past birth steps between frames — gives the pixels a
    /// fresh renderer gives at each time, also after each change that must drop what it kept
    /// (a direct write to a cell, a recorded model change, an animation added and removed).
    @Test func animatedBirthRateDrawsTheSameWithKeptSteps() throws {
        CAMediaClock.setManualTime(9.5)
        let layer = CAEmitterLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        layer.beginTime = 9.5
        layer.emitterPosition = CGPoint(x: 32, y: 32)
        let cell = CAEmitterCell()
        cell.name = "dot"
        cell.contents = try Self.whiteSquare(4)
        cell.birthRate = 30; cell.lifetime = 1.5; cell.velocity = 12; cell.emissionRange = .pi
        cell.color = CGColor(red: 0.3, green: 0.6, blue: 0.9, alpha: 0.5)
        layer.emitterCells = [cell]
        let pulse = CABasicAnimation(keyPath: "birthRate")
        pulse.fromValue = 0.5; pulse.toValue = 1.5; pulse.duration = 0.5
        pulse.autoreverses = true; pulse.repeatCount = .infinity
        layer.add(pulse, forKey: "pulse")
        let speedUp = CABasicAnimation(keyPath: "emitterCells.dot.velocity")
        speedUp.fromValue = 0; speedUp.toValue = 30; speedUp.duration = 2
        layer.add(speedUp, forKey: "speedUp")
        CATransaction.flush()
        let kept = try CARenderer(width: 64, height: 64, scale: 1)
        kept.layer = layer
        func expectSame(at t: CFTimeInterval, _ what: String) throws {
            CAMediaClock.setManualTime(t)
            kept.beginFrame(atTime: t); kept.render(); kept.endFrame()
            let fresh = try CARenderer.image(of: layer, size: CGSize(width: 64, height: 64), at: t)
            var differing = 0, drawn = 0
            for y in 0..<64 {
                for x in 0..<64 {
                    if kept.pixmap.pixel(x: x, y: y) != fresh.pixmap.pixel(x: x, y: y) { differing += 1 }
                    if fresh.pixmap.pixel(x: x, y: y).a > 0 { drawn += 1 }
                }
            }
            #expect(drawn > 50, "\(what) at \(t): too little drawn to compare")
            #expect(differing == 0, "\(what) at \(t): \(differing) pixels differ")
        }
        for t in [10.5, 10.52, 11.0, 10.7] { try expectSame(at: t, "animated") }
        cell.yAcceleration = 30   // direct writes to the model's cell (values no animation sets)
        try expectSame(at: 11.1, "direct write")
        cell.contents = try Self.whiteSquare(6)
        try expectSame(at: 11.15, "direct contents write")
        layer.setValue(2, forKeyPath: "emitterCells.dot.scale")   // recorded: a new segment
        CATransaction.flush()
        try expectSame(at: 11.3, "model change")
        let grow = CABasicAnimation(keyPath: "emitterCells.dot.scaleRange")
        grow.fromValue = 1; grow.toValue = 1; grow.duration = 2
        grow.beginTime = 1   // layer time, in the past: it changes steps already drawn
        layer.add(grow, forKey: "grow")
        try expectSame(at: 11.4, "animation added in the past")
        layer.removeAnimation(forKey: "speedUp")
        try expectSame(at: 11.6, "animation removed")
    }
}
