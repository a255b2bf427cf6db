import QuartzCore
import Raster

/// Emitter layers: their particles (`CAEmitterLayer._particles(atMediaTime:into:)`, a closed
/// form of the layer's time and seed) drawn as sprites between the layer's own content and its
/// sublayers.
///
/// Each particle draws its cell's `contents` image (`contentsRect` of it), centred on the
/// particle, `scale / contentsScale` device-independent points per image pixel, turned by its
/// angle, every texel multiplied by the particle's colour (premultiplied: rgb·colour·alpha,
/// alpha·alpha), bilinear, source-over — or added (`.additive` render mode: Apple's "source-
/// additive" compositing, clamped per channel). A cell without a `CGImage` draws nothing.
/// Particles are flattened into the layer's plane; a layer under perspective draws none
/// (they need the layer's map to be affine). In a banded frame the particles are computed once,
/// before the bands draw (`Bands.prepare`), and each band draws the rows of the sprites it holds.
extension LayerRenderer {
    func drawParticles(_ emitter: CAEmitterLayer, matrix: CATransform3D, time: CFTimeInterval, into canvas: Pixmap) {
        guard let affine = LayerGeometry.affine(matrix), emitter.emitterCells?.isEmpty == false else { return }
        let frame: (cells: [CAEmitterCell], particles: [CAEmitterLayer.Particle])
        let slot = preparedParticles[ObjectIdentifier(emitter)]
        assert(bandLog == nil || slot != nil, "a band draws the particles its frame's prepare computed")
        if let slot {
            frame = particleSlots[slot]   // a band of a frame: `Bands.prepare` computed them
        } else {
            emitter._particles(atMediaTime: time, into: &particleFrame)
            frame = (particleFrame.cells, particleFrame.particles)
        }
        let blend: Pixmap.SpriteBlend = emitter.renderMode == .additive ? .additive : .sourceOver
        // The cells' images and source rectangles, looked up once per frame.
        let sprites = frame.cells.map { cell -> (image: Pixmap, source: Rect, center: Point, perPixel: Double)? in
            guard let image = cell.contents as? CGImage, cell.contentsScale > 0, cell.contentsScale.isFinite else { return nil }
            let r = cell.contentsRect
            let source = Rect(x: Double(r.minX) * Double(image.width), y: Double(r.minY) * Double(image.height),
                              width: Double(r.width) * Double(image.width), height: Double(r.height) * Double(image.height))
            return (image.pixmap, source, Point(x: source.x + source.width / 2, y: source.y + source.height / 2),
                    1 / Double(cell.contentsScale))
        }
        for particle in frame.particles {
            guard let sprite = sprites[particle.cell], particle.scale > 0, particle.alpha > 0 else { continue }
            let k = particle.scale * sprite.perPixel
            let cosA = cos(particle.angle) * k, sinA = sin(particle.angle) * k
            // image pixel → layer point: about the source's centre, scaled, turned, moved to the particle.
            let local = Transform(a: cosA, b: sinA, c: -sinA, d: cosA,
                                  tx: particle.x - (cosA * sprite.center.x - sinA * sprite.center.y),
                                  ty: particle.y - (sinA * sprite.center.x + cosA * sprite.center.y))
            canvas.drawSprite(sprite.image, source: sprite.source, transform: local.concatenating(affine),
                              tint: (particle.red, particle.green, particle.blue, particle.alpha), blend: blend)
        }
    }
}
