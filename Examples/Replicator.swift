// A replicator.
//
// CAReplicatorLayer draws its sublayers instanceCount times. Each copy i is the original with
// instanceTransform applied i times, its animations started i × instanceDelay later, and its
// colour shifted i times by the colour offsets (Apple, "CAReplicatorLayer"). One bar and one
// animation make the whole equaliser: every copy 26 points to the right of the one before,
// a tenth of a second behind it, a little less red and a little more blue.
//
// citrine render Replicator.swift -o equaliser.gif --duration 1.6
import PlaygroundSupport
import UIKit

let view = UIView(frame: CGRect(x: 0, y: 0, width: 240, height: 160))
view.backgroundColor = UIColor(white: 0.12, alpha: 1)

let replicator = CAReplicatorLayer()
replicator.frame = view.bounds
replicator.instanceCount = 8
replicator.instanceTransform = CATransform3DMakeTranslation(26, 0, 0)
replicator.instanceDelay = 0.1
replicator.instanceColor = UIColor(red: 1, green: 0.55, blue: 0.2, alpha: 1).cgColor
replicator.instanceRedOffset = -0.1
replicator.instanceBlueOffset = 0.1
view.layer.addSublayer(replicator)

// The bar grows from its bottom edge: anchor point at the bottom.
let bar = CALayer()
bar.bounds = CGRect(x: 0, y: 0, width: 16, height: 100)
bar.anchorPoint = CGPoint(x: 0.5, y: 1)
bar.position = CGPoint(x: 29, y: 130)
bar.cornerRadius = 3
bar.backgroundColor = UIColor.white.cgColor
replicator.addSublayer(bar)

let pulse = CABasicAnimation(keyPath: "transform.scale.y")
pulse.fromValue = 1
pulse.toValue = 0.2
pulse.duration = 0.4
pulse.autoreverses = true
pulse.repeatCount = .infinity
pulse.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
bar.add(pulse, forKey: "pulse")

PlaygroundPage.current.liveView = view
