// A drag that springs back.
//
// A pan gesture recognizer reports the finger's translation from where it went down; moving the
// view by it, with the translation reset after each move, keeps the ball under the finger. When
// the finger lifts, a spring animation takes the ball home: UIView's spring form animates with a
// CASpringAnimation whose damping ratio below 1 overshoots and settles, and whose initial
// velocity — in distances per second — carries on from the gesture's own (Apple,
// "UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:animations:completion:)").
//
// citrine render SpringDrag.swift -o spring.gif --drag 80,100:240,50@0.2+0.5 --duration 2.4
import PlaygroundSupport
import UIKit

let view = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 200))
view.backgroundColor = .white

let home = CGPoint(x: 80, y: 100)
let ball = UIView(frame: CGRect(x: 0, y: 0, width: 56, height: 56))
ball.center = home
ball.backgroundColor = .systemPink
ball.layer.cornerRadius = 28
view.addSubview(ball)

ball.addGestureRecognizer(UIPanGestureRecognizer { pan in
    switch pan.state {
    case .began, .changed:
        let moved = pan.translation(in: view)
        ball.center = CGPoint(x: ball.center.x + moved.x, y: ball.center.y + moved.y)
        pan.setTranslation(.zero, in: view)
    case .ended, .cancelled:
        // The gesture's velocity towards home, in distances home per second (negative: the
        // finger was still moving away).
        let velocity = pan.velocity(in: view)
        let away = CGPoint(x: home.x - ball.center.x, y: home.y - ball.center.y)
        let distanceSquared = away.x * away.x + away.y * away.y
        let speed = distanceSquared > 0 ? (velocity.x * away.x + velocity.y * away.y) / distanceSquared : 0
        UIView.animate(withDuration: 1.2, delay: 0, usingSpringWithDamping: 0.45,
                       initialSpringVelocity: speed, options: [], animations: {
            ball.center = home
        })
    default:
        break
    }
})

PlaygroundPage.current.liveView = view
