// Implicit vs explicit animation.
//
// Change an animatable property of a standalone layer that is already on screen and Core
// Animation animates the change by itself: the layer's default action, 0.25 s (Apple, "Core
// Animation Programming Guide: Changing a Layer's Default Behavior"). An explicit
// CABasicAnimation is yours to shape (1 s, ease in and out here), but it only changes what is
// presented: set the model value too, or the layer jumps back when the animation ends.
// Tap the view: the top square moves implicitly, the bottom one explicitly.
//
// citrine render ImplicitVsExplicit.swift -o implicit.gif --tap 160,100@0.25 --tap 160,100@1.6 --duration 3
import PlaygroundSupport
import UIKit

let view = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 200))
view.backgroundColor = .white

func square(_ color: UIColor, y: CGFloat) -> CALayer {
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
    layer.position = CGPoint(x: 40, y: y)
    layer.cornerRadius = 6
    layer.backgroundColor = color.cgColor
    view.layer.addSublayer(layer)
    return layer
}

let implicit = square(.systemOrange, y: 60)
let explicit = square(.systemBlue, y: 140)
var atRight = false

view.addGestureRecognizer(UITapGestureRecognizer { _ in
    atRight.toggle()
    let x: CGFloat = atRight ? 280 : 40

    // Implicit: just set it. The layer's action for "position" animates from the old value.
    implicit.position.x = x

    // Explicit: an animation from where the layer is now, then the model value set without
    // an implicit action of its own.
    let move = CABasicAnimation(keyPath: "position.x")
    move.fromValue = explicit.presentation()?.position.x ?? explicit.position.x
    move.toValue = x
    move.duration = 1
    move.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
    explicit.add(move, forKey: "move")
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    explicit.position.x = x
    CATransaction.commit()
})

PlaygroundPage.current.liveView = view
