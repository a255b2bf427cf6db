import Compositor
import QuartzCore
import Testing

/// What the emitter, text and tiled layer snippets do. Expected: the emitter's documented
/// closed form (births at k / R; alive while age < lifetime), Apple's key-path access to cells,
/// and the tiled layer's one draw per visible tile.
extension SnippetSuite {
    @Suite struct LayerKindsTests {
        static func count(_ emitter: CAEmitterLayer, at t: CFTimeInterval) -> Int {
            var frame = CAEmitterLayer.ParticleFrame()
            (emitter.presentation() ?? emitter)._particles(atMediaTime: t, into: &frame)
            return frame.particles.count
        }

        @Test func confettiEmitsStopsAndFades() {
            let emitter = SnippetSuite.at(50) { makeConfettiEmitter(width: 320) }
            CATransaction.flush()
            // 6 per second from beginTime 50: births at 0, 1/6, …; at 52.1, k = 0…12.
            #expect(SnippetSuite.at(52.1) { Self.count(emitter, at: 52.1) } == 13)
            stopConfetti(emitter)
            #expect(emitter.emitterCells?.first?.birthRate == 0)
            // Stopped at 52.1: none is born after it, and the 13 born before live on (lifetime
            // 14 s): on Apple a birth-rate change changes only the births to come.
            #expect(SnippetSuite.at(52.2) { Self.count(emitter, at: 52.2) } == 13)
            #expect(SnippetSuite.at(70) { Self.count(emitter, at: 70) } == 0)
            emitter.setValue(6, forKeyPath: "emitterCells.confetti.birthRate")
            CATransaction.flush()
            SnippetSuite.at(53) { fadeOutConfetti(emitter); CATransaction.flush() }
            let halfway = SnippetSuite.at(54) { emitter.presentation()?.value(forKeyPath: "emitterCells.confetti.birthRate") as? CGFloat }
            #expect(halfway == 3)
        }

        @Test func titleLayerDrawsItsRuns() throws {
            let image = try CARenderer.image(of: makeTitleLayer(), size: CGSize(width: 120, height: 60), at: 0, scale: 2)
            var red = 0, dark = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image.pixmap.pixel(x: x, y: y)
                    guard p.a > 200 else { continue }
                    if p.r > 200 && p.g < 60 { red += 1 } else if p.r < 60 { dark += 1 }
                }
            }
            #expect(red > 0 && dark > 0)   // "Hello" in the default black, "Citrine" in red
        }

        @Test func gridLayerDrawsOnlyVisibleTiles() throws {
            let grid = makeGridLayer()
            #expect(GridLayer.fadeDuration() == 0)
            let image = try CARenderer.image(of: grid, size: CGSize(width: 600, height: 400), at: 0)
            // 600×400 of a 4000×4000 layer, tiles of 512 pixels at 1 pixel per point: 2 × 1 tiles;
            // the tile edge at x = 512 carries both tiles' outlines.
            #expect(image.pixmap.pixel(x: 511, y: 200).r < 40 && image.pixmap.pixel(x: 300, y: 200).r > 200)
        }
    }
}
