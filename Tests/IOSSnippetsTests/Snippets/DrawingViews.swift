// Custom views that draw themselves in `draw(_:)`, as iOS tutorials and libraries write them:
// gauge and pie arcs with UIBezierPath, a capsule built from
// Core Graphics arcs and clipped, a dashed full circle, a clipped gradient, centred text, a
// shape-layer-backed view, and dots drawn as full-circle arcs. Written in the project's own
// words after patterns common in open-source iOS code. Compiled unchanged in Swift 6 mode
// (IOSSnippetsTests) and Swift 5 mode (IOSSnippetsSwift5Tests links this file).
import UIKit

/// A counter gauge: a 270° track open at the bottom, redrawn whenever the counter changes.
final class GaugeView: UIView {
    var counter = 0 {
        didSet { setNeedsDisplay() }
    }
    let maximum = 8
    var trackColor = UIColor.systemGray4
    var fillColor = UIColor.systemOrange
    private(set) var drawCount = 0

    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func draw(_ rect: CGRect) {
        drawCount += 1
        let centre = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
        let lineWidth: CGFloat = 10
        let radius = min(bounds.width, bounds.height) / 2 - lineWidth / 2
        let startAngle: CGFloat = 3 * .pi / 4
        let endAngle: CGFloat = .pi / 4

        let track = UIBezierPath(arcCenter: centre, radius: radius, startAngle: startAngle, endAngle: endAngle,
                                 clockwise: true)
        track.lineWidth = lineWidth
        trackColor.setStroke()
        track.stroke()

        let sweep = 2 * .pi - startAngle + endAngle
        let fillEnd = startAngle + sweep * CGFloat(counter) / CGFloat(maximum)
        let progress = UIBezierPath(arcCenter: centre, radius: radius, startAngle: startAngle, endAngle: fillEnd,
                                    clockwise: true)
        progress.lineWidth = lineWidth
        fillColor.setStroke()
        progress.stroke()
    }
}

/// A pie chart of one value, filled clockwise from 12 o'clock.
final class PieProgressView: UIView {
    var progress: CGFloat = 0 {
        didSet { setNeedsDisplay() }
    }
    private(set) var drawCount = 0

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .clear
        contentMode = .redraw
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func draw(_ rect: CGRect) {
        drawCount += 1
        let centre = CGPoint(x: rect.midX, y: rect.midY)
        let slice = UIBezierPath()
        slice.move(to: centre)
        slice.addArc(withCenter: centre, radius: min(rect.width, rect.height) / 2, startAngle: -.pi / 2,
                     endAngle: -.pi / 2 + 2 * .pi * progress, clockwise: true)
        slice.close()
        UIColor.systemGreen.setFill()
        slice.fill()
    }
}

/// A thermometer: a capsule outline from two Core Graphics arcs, filled up to `value` inside it.
final class CapsuleThermometerView: UIView {
    var value: CGFloat = 0.5 {
        didSet { setNeedsDisplay() }
    }

    override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        let inset = bounds.insetBy(dx: 1, dy: 1)
        let r = inset.height / 2
        let capsule = CGMutablePath()
        capsule.addArc(center: CGPoint(x: inset.minX + r, y: inset.midY), radius: r,
                       startAngle: .pi / 2, endAngle: 3 * .pi / 2, clockwise: false)
        capsule.addArc(center: CGPoint(x: inset.maxX - r, y: inset.midY), radius: r,
                       startAngle: 3 * .pi / 2, endAngle: .pi / 2, clockwise: false)
        capsule.closeSubpath()

        context.addPath(capsule)
        context.setLineWidth(2)
        context.setStrokeColor(UIColor.darkGray.cgColor)
        context.strokePath()

        context.saveGState()
        context.addPath(capsule)
        context.clip()
        context.setFillColor(UIColor.systemRed.cgColor)
        context.fill(CGRect(x: 0, y: 0, width: bounds.width * value, height: bounds.height))
        context.restoreGState()
    }
}

/// The dash pattern of the dashed ring: 6 points on, 3 off.
let dashedRingPattern: [CGFloat] = [6, 3]

/// A dashed ring: a full-circle arc stroked with a dash pattern.
final class DashedRingView: UIView {
    override func draw(_ rect: CGRect) {
        let ring = UIBezierPath(arcCenter: CGPoint(x: bounds.midX, y: bounds.midY), radius: 30,
                                startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        var pattern = dashedRingPattern
        ring.setLineDash(&pattern, count: pattern.count, phase: 0)
        ring.lineWidth = 4
        UIColor.label.setStroke()
        ring.stroke()
    }
}

/// A card with a vertical gradient, clipped to a rounded rectangle.
final class GradientCardView: UIView {
    var startColor = UIColor.systemBlue
    var endColor = UIColor.systemPurple

    override func draw(_ rect: CGRect) {
        let clip = UIBezierPath(roundedRect: rect, byRoundingCorners: .allCorners,
                                cornerRadii: CGSize(width: 8, height: 8))
        clip.addClip()
        let context = UIGraphicsGetCurrentContext()!
        let colors = [startColor.cgColor, endColor.cgColor] as CFArray
        let locations: [CGFloat] = [0, 1]
        let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors, locations: locations)!
        context.drawLinearGradient(gradient, start: CGPoint(x: 0, y: 0), end: CGPoint(x: 0, y: bounds.height),
                                   options: [])
    }
}

/// A percentage centred in a ring: the text is measured, then drawn from the corner that
/// centres it.
final class PercentRingView: UIView {
    var percent = 42 {
        didSet { setNeedsDisplay() }
    }
    let font = UIFont.systemFont(ofSize: 17)
    private(set) var textOrigin = CGPoint.zero

    override func draw(_ rect: CGRect) {
        let centre = CGPoint(x: bounds.midX, y: bounds.midY)
        let ring = UIBezierPath(arcCenter: centre, radius: min(bounds.width, bounds.height) / 2 - 3,
                                startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        ring.lineWidth = 6
        UIColor.systemBlue.setStroke()
        ring.stroke()

        let text = "\(percent) %" as NSString
        let attributes: [NSAttributedString.Key: Any] = [.font: font, .foregroundColor: UIColor.label]
        let size = text.size(withAttributes: attributes)
        textOrigin = CGPoint(x: centre.x - size.width / 2, y: centre.y - size.height / 2)
        text.draw(at: textOrigin, withAttributes: attributes)
    }
}

/// A view whose layer is a shape layer: an oval inset by half the line width, laid out with
/// the view.
final class OvalOutlineView: UIView {
    override class var layerClass: AnyClass { CAShapeLayer.self }

    var shapeLayer: CAShapeLayer { layer as! CAShapeLayer }

    var lineWidth: CGFloat = 4 {
        didSet { setNeedsLayout() }
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        shapeLayer.fillColor = nil
        shapeLayer.strokeColor = UIColor.systemPink.cgColor
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        shapeLayer.lineWidth = lineWidth
        shapeLayer.path = UIBezierPath(ovalIn: bounds.insetBy(dx: lineWidth / 2, dy: lineWidth / 2)).cgPath
    }
}

/// Page dots: one full-circle arc per page, the current one in the tint colour.
final class PageDotsView: UIView {
    var numberOfPages = 5
    var currentPage = 0 {
        didSet { setNeedsDisplay() }
    }
    let dotDiameter: CGFloat = 8
    let spacing: CGFloat = 8

    func dotCentre(_ page: Int) -> CGPoint {
        CGPoint(x: dotDiameter / 2 + CGFloat(page) * (dotDiameter + spacing), y: bounds.midY)
    }

    override func draw(_ rect: CGRect) {
        for page in 0..<numberOfPages {
            let dot = UIBezierPath(arcCenter: dotCentre(page), radius: dotDiameter / 2,
                                   startAngle: 0, endAngle: 2 * .pi, clockwise: false)
            (page == currentPage ? tintColor! : UIColor.systemGray3).setFill()
            dot.fill()
        }
    }
}
