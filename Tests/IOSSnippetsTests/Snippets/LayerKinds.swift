// Emitter, text and tiled layers, written as Apple's documentation and
// common tutorials write them.
import Foundation
import QuartzCore

/// A white 8×8 square to emit (tutorials use `UIImage(named:)?.cgImage`).
func confettiImage() -> CGImage? {
    let context = CGContext(data: nil, width: 8, height: 8, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
    context?.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
    context?.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
    return context?.makeImage()
}

/// The confetti emitter of countless tutorials: a line across the top, cells falling.
func makeConfettiEmitter(width: CGFloat) -> CAEmitterLayer {
    let emitter = CAEmitterLayer()
    emitter.emitterPosition = CGPoint(x: width / 2, y: -10)
    emitter.emitterShape = .line
    emitter.emitterSize = CGSize(width: width, height: 1.0)
    emitter.beginTime = CACurrentMediaTime()
    let cell = CAEmitterCell()
    cell.name = "confetti"
    cell.birthRate = 6.0
    cell.lifetime = 14.0
    cell.velocity = CGFloat(350)
    cell.velocityRange = CGFloat(80)
    cell.emissionLongitude = CGFloat(Double.pi)
    cell.emissionRange = CGFloat(Double.pi / 4)
    cell.spin = CGFloat(3.5)
    cell.spinRange = CGFloat(4.0)
    cell.scaleRange = CGFloat(0.25)
    cell.scale = CGFloat(0.1)
    cell.color = CGColor(red: 0.95, green: 0.26, blue: 0.21, alpha: 1)
    cell.contents = confettiImage()
    emitter.emitterCells = [cell]
    return emitter
}

/// Stopping the emission the documented way, through the layer's key path.
func stopConfetti(_ emitter: CAEmitterLayer) {
    emitter.setValue(0, forKeyPath: "emitterCells.confetti.birthRate")
}

/// Fading the emission out with an animation of a cell's key path.
func fadeOutConfetti(_ emitter: CAEmitterLayer) {
    let animation = CABasicAnimation(keyPath: "emitterCells.confetti.birthRate")
    animation.fromValue = 6
    animation.toValue = 0
    animation.duration = 2
    animation.fillMode = .forwards
    animation.isRemovedOnCompletion = false
    emitter.add(animation, forKey: "stop")
}

/// A text layer with an attributed string in Core Text's attributes.
func makeTitleLayer() -> CATextLayer {
    let text = NSMutableAttributedString(string: "Hello, Citrine")
    let font = CTFontCreateWithName("Helvetica-Bold" as CFString, 24, nil)
    text.addAttribute(NSAttributedString.Key(rawValue: kCTFontAttributeName as String), value: font,
                      range: NSRange(location: 0, length: 5))
    text.addAttribute(NSAttributedString.Key(rawValue: kCTForegroundColorAttributeName as String),
                      value: CGColor(red: 1, green: 0, blue: 0, alpha: 1), range: NSRange(location: 7, length: 7))
    let layer = CATextLayer()
    layer.frame = CGRect(x: 0, y: 0, width: 120, height: 60)
    layer.string = text
    layer.isWrapped = true
    layer.truncationMode = .end
    layer.alignmentMode = .justified
    layer.contentsScale = 2
    return layer
}

/// A tiled layer drawing a grid, one tile at a time.
final class GridLayer: CATiledLayer {
    override class func fadeDuration() -> CFTimeInterval { 0 }

    override func draw(in ctx: CGContext) {
        let rect = ctx.boundingBoxOfClipPath
        ctx.setFillColor(CGColor(red: 0.9, green: 0.9, blue: 0.9, alpha: 1))
        ctx.fill(rect)
        ctx.setStrokeColor(CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        ctx.setLineWidth(2)
        ctx.stroke(rect.insetBy(dx: 1, dy: 1))
    }
}

func makeGridLayer() -> GridLayer {
    let grid = GridLayer()
    grid.frame = CGRect(x: 0, y: 0, width: 4000, height: 4000)
    grid.tileSize = CGSize(width: 512, height: 512)
    grid.levelsOfDetail = 4
    grid.levelsOfDetailBias = 2
    return grid
}
