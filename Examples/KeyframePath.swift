// A keyframe animation along a path.
//
// CAKeyframeAnimation's `path` moves a layer's position along a CGPath instead of through a list
// of values. With calculationMode .paced the layer keeps one speed along the whole path (its arc
// length, not its segments, is divided evenly over the duration), and rotationMode .rotateAuto
// turns the layer to follow the path's tangent, as a car follows a road (Apple,
// "CAKeyframeAnimation"). The track here is a circle drawn clockwise from its rightmost point.
import PlaygroundSupport
import UIKit

let view = UIView(frame: CGRect(x: 0, y: 0, width: 240, height: 240))
view.backgroundColor = .white

let centre = CGPoint(x: 120, y: 120)
let radius: CGFloat = 80
let road = UIBezierPath(arcCenter: centre, radius: radius, startAngle: 0, endAngle: 2 * .pi, clockwise: true)

let track = CAShapeLayer()
track.path = road.cgPath
track.fillColor = nil
track.strokeColor = UIColor.systemGray4.cgColor
track.lineWidth = 14
view.layer.addSublayer(track)

let car = CALayer()
car.bounds = CGRect(x: 0, y: 0, width: 28, height: 14)
car.position = CGPoint(x: centre.x + radius, y: centre.y)
car.cornerRadius = 4
car.backgroundColor = UIColor.systemRed.cgColor
view.layer.addSublayer(car)

// A lighter nose, so the turning shows.
let nose = CALayer()
nose.frame = CGRect(x: 20, y: 2, width: 6, height: 10)
nose.cornerRadius = 2
nose.backgroundColor = UIColor.systemYellow.cgColor
car.addSublayer(nose)

let drive = CAKeyframeAnimation(keyPath: "position")
drive.path = road.cgPath
drive.calculationMode = .paced
drive.rotationMode = .rotateAuto
drive.duration = 4
drive.repeatCount = .infinity
car.add(drive, forKey: "drive")

PlaygroundPage.current.liveView = view
