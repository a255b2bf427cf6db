// A 3D flip with perspective.
//
// A rotation about the y axis alone looks flat: the card only gets narrower. Perspective comes
// from the m34 entry of a transform, -1/d for an eye d points in front of the layer, which
// divides each point by 1 - z/d so the near edge grows and the far edge shrinks (Apple,
// "CATransform3D"). Set it as the container's sublayerTransform ("CALayer.sublayerTransform") and
// every card inside shares one eye, at the container's centre. The card's two faces are layers
// back to back in a CATransformLayer, each with isDoubleSided = false, so the one facing away is
// hidden.
import PlaygroundSupport
import UIKit

let view = UIView(frame: CGRect(x: 0, y: 0, width: 260, height: 200))
view.backgroundColor = .white

let stage = CALayer()
stage.frame = view.bounds
var eye = CATransform3DIdentity
eye.m34 = -1.0 / 500
stage.sublayerTransform = eye
view.layer.addSublayer(stage)

let card = CATransformLayer()
card.bounds = CGRect(x: 0, y: 0, width: 160, height: 110)
card.position = CGPoint(x: 130, y: 100)
stage.addSublayer(card)

func face(_ color: UIColor, _ text: String) -> CALayer {
    let layer = CALayer()
    layer.frame = card.bounds
    layer.cornerRadius = 12
    layer.backgroundColor = color.cgColor
    layer.isDoubleSided = false
    let label = CATextLayer()
    label.string = text
    label.fontSize = 40
    label.alignmentMode = .center
    label.foregroundColor = UIColor.white.cgColor
    label.frame = CGRect(x: 0, y: 30, width: 160, height: 50)
    layer.addSublayer(label)
    card.addSublayer(layer)
    return layer
}

let front = face(.systemBlue, "front")
let back = face(.systemOrange, "back")
back.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)

// Linear, so the angle at time t is π·t/2 while it turns over: 60° at 2/3 s.
let flip = CABasicAnimation(keyPath: "transform.rotation.y")
flip.fromValue = 0
flip.toValue = CGFloat.pi
flip.duration = 2
flip.autoreverses = true
flip.repeatCount = .infinity
card.add(flip, forKey: "flip")

PlaygroundPage.current.liveView = view
