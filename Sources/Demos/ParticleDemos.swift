import QuartzCore

/// Particle demos: CAEmitterLayer written as iOS code writes it — confetti (a line
/// across the top emits four colours of spinning confetti) and fire (additive flame particles
/// that rise, shrink, redden and fade). Layer-only scenes in their own list (not from a seed),
/// to be concatenated where layer scenes are listed.
public enum ParticleDemos {
    public static let demos: [LayerDemo] = [
        LayerDemo(name: "confetti", seeds: [], size: CGSize(width: 240, height: 180), span: 4, build: confetti),
        LayerDemo(name: "fire", seeds: [], size: CGSize(width: 200, height: 240), span: 2, build: fire),
    ]

    /// One line on what each scene shows, for the demo list.
    static let descriptions = [
        "confetti": "CAEmitterLayer: a line above the top emits four colours of spinning confetti that fall and sway",
        "fire": "CAEmitterLayer: additive flame particles rise, shrink, redden and fade",
    ]

    /// A white image drawn by `draw` into a `width`×`height` bitmap context.
    static func image(width: Int, height: Int, _ draw: (CGContext) -> Void) -> CGImage? {
        let space = CGColorSpace(name: CGColorSpace.sRGB)!
        guard let ctx = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: space,
                                  bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else { return nil }
        draw(ctx)
        return ctx.makeImage()
    }

    static func confetti() -> CALayer {
        let size = CGSize(width: 240, height: 180)
        let root = LayerDemo.root(size)
        let emitter = CAEmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterShape = .line
        emitter.emitterPosition = CGPoint(x: size.width / 2, y: -10)
        emitter.emitterSize = CGSize(width: size.width, height: 1)
        let strip = image(width: 12, height: 6) { ctx in
            ctx.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: 12, height: 6))
        }
        let dot = image(width: 8, height: 8) { ctx in
            ctx.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
            ctx.fillEllipse(in: CGRect(x: 0, y: 0, width: 8, height: 8))
        }
        let colors = [LayerDemo.color(0.95, 0.26, 0.21), LayerDemo.color(0.13, 0.59, 0.95),
                      LayerDemo.color(1, 0.76, 0.03), LayerDemo.color(0.3, 0.69, 0.31)]
        emitter.emitterCells = colors.enumerated().map { i, color in
            let cell = CAEmitterCell()
            cell.name = "confetti\(i)"
            cell.contents = i % 2 == 0 ? strip : dot
            cell.color = color
            cell.birthRate = 10
            cell.lifetime = 6
            cell.velocity = 90
            cell.velocityRange = 40
            cell.emissionLongitude = .pi / 2   // down the screen
            cell.emissionRange = .pi / 5
            cell.yAcceleration = 30
            cell.spin = 3
            cell.spinRange = 4
            cell.scale = 0.8
            cell.scaleRange = 0.3
            cell.alphaSpeed = -0.1
            return cell
        }
        emitter.seed = 17
        root.addSublayer(emitter)
        return root
    }

    static func fire() -> CALayer {
        let size = CGSize(width: 200, height: 240)
        let root = LayerDemo.root(size)
        root.backgroundColor = LayerDemo.color(0.08, 0.06, 0.1)
        let emitter = CAEmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterShape = .line
        emitter.emitterMode = .outline
        emitter.emitterPosition = CGPoint(x: size.width / 2, y: size.height - 30)
        emitter.emitterSize = CGSize(width: 50, height: 1)
        emitter.renderMode = .additive
        let glow = image(width: 32, height: 32) { ctx in
            let colors = [CGColor(red: 1, green: 1, blue: 1, alpha: 1), CGColor(red: 1, green: 1, blue: 1, alpha: 0)]
            guard let gradient = CGGradient(colorsSpace: nil, colors: colors as CFArray, locations: nil) else { return }
            ctx.drawRadialGradient(gradient, startCenter: CGPoint(x: 16, y: 16), startRadius: 0,
                                   endCenter: CGPoint(x: 16, y: 16), endRadius: 16, options: [])
        }
        let flame = CAEmitterCell()
        flame.name = "flame"
        flame.contents = glow
        flame.birthRate = 260
        flame.lifetime = 1.1
        flame.lifetimeRange = 0.35
        flame.velocity = 70
        flame.velocityRange = 25
        flame.emissionLongitude = -.pi / 2   // up the screen
        flame.emissionRange = 0.3
        flame.yAcceleration = -60
        flame.scale = 1.1
        flame.scaleSpeed = -0.7
        flame.color = CGColor(red: 1, green: 0.55, blue: 0.2, alpha: 0.22)
        flame.greenSpeed = -0.45
        flame.blueSpeed = -0.2
        flame.alphaSpeed = -0.12
        emitter.emitterCells = [flame]
        emitter.seed = 17
        root.addSublayer(emitter)
        return root
    }
}
