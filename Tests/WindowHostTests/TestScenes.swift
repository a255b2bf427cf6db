import QuartzCore
import Raster
import WindowHost

/// Colours the tests look for (opaque, so premultiplied = straight).
enum Palette {
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let whiteRGB: [UInt8] = [255, 255, 255]
    static let redRGB: [UInt8] = [255, 0, 0]
    static let blueRGB: [UInt8] = [0, 0, 255]
}

/// A white scene with a red `dot` that the pointer drags (a press on the dot grabs it; moves
/// shift it by the pointer's motion, without implicit animation) and, optionally, a blue `bar`
/// whose centre animates linearly along x from `barFrom` to `barTo` over `barDuration` seconds from
/// the first commit. Records what the host calls, with the media clock read during each call.
final class DragScene: HostedScene {
    let rootLayer = CALayer()
    let size: CGSize
    let dot = CALayer()
    let bar: CALayer?
    static let dotSize: CGFloat = 20
    static let barFrom: CGFloat = 30, barTo: CGFloat = 170
    let barDuration: CFTimeInterval
    static let barY: CGFloat = 85

    private(set) var events: [HostPointerEvent] = []
    /// `CACurrentMediaTime()` as read inside each `handle`.
    private(set) var clockDuringHandle: [CFTimeInterval] = []
    private(set) var advances: [CFTimeInterval] = []
    private(set) var clockDuringAdvance: [CFTimeInterval] = []
    private(set) var keys: [HostKey] = []
    private var grab: CGPoint?

    /// Builds the tree and commits it (call with the media clock at the scene's start time).
    init(size: CGSize = CGSize(width: 200, height: 100), dotCenter: CGPoint = CGPoint(x: 50, y: 40), animatedBar: Bool,
         barDuration: CFTimeInterval = 1) {
        self.size = size
        self.barDuration = barDuration
        rootLayer.frame = CGRect(origin: .zero, size: size)
        rootLayer.backgroundColor = Palette.white
        dot.bounds = CGRect(x: 0, y: 0, width: Self.dotSize, height: Self.dotSize)
        dot.position = dotCenter
        dot.backgroundColor = Palette.red
        rootLayer.addSublayer(dot)
        if animatedBar {
            let bar = CALayer()
            bar.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
            bar.position = CGPoint(x: Self.barTo, y: Self.barY)
            bar.backgroundColor = Palette.blue
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = Self.barFrom
            move.toValue = Self.barTo
            move.duration = barDuration
            move.timingFunction = CAMediaTimingFunction(name: .linear)
            bar.add(move, forKey: "move")
            rootLayer.addSublayer(bar)
            self.bar = bar
        } else {
            bar = nil
        }
        CATransaction.flush()
    }

    /// The bar's centre x at scene time `t` (closed form: linear from the start time 0).
    static func barX(at t: CFTimeInterval, start: CFTimeInterval = 0, duration: CFTimeInterval = 1) -> CGFloat {
        let u = min(max((t - start) / duration, 0), 1)
        return barFrom + (barTo - barFrom) * CGFloat(u)
    }

    func handle(_ event: HostPointerEvent) {
        events.append(event)
        clockDuringHandle.append(CACurrentMediaTime())
        switch event.phase {
        case .began:
            grab = dot.frame.contains(event.location) ? event.location : nil
        case .moved, .ended:
            guard let g = grab else { break }
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            dot.position = CGPoint(x: dot.position.x + event.location.x - g.x, y: dot.position.y + event.location.y - g.y)
            CATransaction.commit()
            grab = event.phase == .ended ? nil : event.location
        case .cancelled:
            grab = nil
        }
    }

    func advance(to time: CFTimeInterval) {
        advances.append(time)
        clockDuringAdvance.append(CACurrentMediaTime())
        CATransaction.flush()
    }

    func handleKey(_ key: HostKey) { keys.append(key) }
}

extension Pixmap {
    /// The colour channels of pixel (x, y) (premultiplied; opaque in these tests).
    func rgb(_ x: Int, _ y: Int) -> [UInt8] {
        let p = pixel(x: x, y: y)
        return [p.r, p.g, p.b]
    }
}
