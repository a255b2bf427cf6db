// Drawing a path with strokeEnd.
//
// A CAShapeLayer strokes its path from strokeStart to strokeEnd, fractions of the path's length
// from 0 to 1 (Apple, "CAShapeLayer.strokeEnd"). Animate strokeEnd from 0 and the line draws
// itself; animate strokeStart after it and the line runs away. A group plays both on one clock:
// the tick draws in the first 0.6 s, waits, and is wiped from its start in the last 0.6 s.
import PlaygroundSupport
import UIKit

let view = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
view.backgroundColor = .white

let ring = CAShapeLayer()
ring.path = UIBezierPath(ovalIn: CGRect(x: 30, y: 30, width: 140, height: 140)).cgPath
ring.fillColor = UIColor.systemGreen.withAlphaComponent(0.12).cgColor
ring.strokeColor = nil
view.layer.addSublayer(ring)

let tick = UIBezierPath()
tick.move(to: CGPoint(x: 62, y: 104))
tick.addLine(to: CGPoint(x: 88, y: 130))
tick.addLine(to: CGPoint(x: 140, y: 74))

let shape = CAShapeLayer()
shape.path = tick.cgPath
shape.fillColor = nil
shape.strokeColor = UIColor.systemGreen.cgColor
shape.lineWidth = 12
shape.lineCap = .round
shape.lineJoin = .round
view.layer.addSublayer(shape)

let draw = CABasicAnimation(keyPath: "strokeEnd")
draw.fromValue = 0
draw.toValue = 1
draw.duration = 0.6
draw.timingFunction = CAMediaTimingFunction(name: .easeOut)

let wipe = CABasicAnimation(keyPath: "strokeStart")
wipe.fromValue = 0
wipe.toValue = 1
wipe.beginTime = 1.4
wipe.duration = 0.6
wipe.timingFunction = CAMediaTimingFunction(name: .easeIn)

let group = CAAnimationGroup()
group.animations = [draw, wipe]
group.duration = 2
group.repeatCount = .infinity
shape.add(group, forKey: "tick")

PlaygroundPage.current.liveView = view
