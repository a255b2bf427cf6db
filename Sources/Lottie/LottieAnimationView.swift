import Foundation
import QuartzCore
import UIKit

/// A view that plays a `LottieAnimation` (lottie-ios's `LottieAnimationView`): a
/// `LottieAnimationLayer` laid out in the view by `contentMode` (default `.scaleAspectFit`, as
/// lottie-ios sets it), with the layer's playback API.
open class LottieAnimationView: UIView {
    /// The layer that draws and plays the animation.
    public let animationLayer: LottieAnimationLayer

    public init(animation: LottieAnimation?) {
        animationLayer = LottieAnimationLayer(animation: animation)
        super.init(frame: CGRect(origin: .zero, size: animation?.size ?? .zero))
        contentMode = .scaleAspectFit
        layer.addSublayer(animationLayer)
        layoutAnimation()
    }

    /// The animation named `name` in `bundle` (`LottieAnimation.named`); an empty view when there is none.
    public convenience init(name: String, bundle: Bundle = .main, subdirectory: String? = nil) {
        self.init(animation: LottieAnimation.named(name, bundle: bundle, subdirectory: subdirectory))
    }

    public override convenience init(frame: CGRect) {
        self.init(animation: nil)
        self.frame = frame
    }

    public required init?(coder: NSCoder) { nil }

    public var animation: LottieAnimation? {
        get { animationLayer.animation }
        set {
            animationLayer.animation = newValue
            layoutAnimation()
        }
    }

    open override var intrinsicContentSize: CGSize { animation?.size ?? .zero }

    open override var contentMode: UIView.ContentMode {
        didSet { layoutAnimation() }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        layoutAnimation()
    }

    /// Places the animation's `size` in the bounds by `contentMode`: scaled to fill, fit or fill
    /// keeping the aspect, or unscaled at the centre, an edge or a corner.
    private func layoutAnimation() {
        guard let size = animation?.size, size.width > 0, size.height > 0 else { return }
        let box = bounds
        var sx = box.width / size.width, sy = box.height / size.height
        switch contentMode {
        case .scaleToFill, .redraw: break
        case .scaleAspectFit: sx = min(sx, sy); sy = sx
        case .scaleAspectFill: sx = max(sx, sy); sy = sx
        default: sx = 1; sy = 1
        }
        let (w, h) = (size.width * sx, size.height * sy)
        var x = box.minX + (box.width - w) / 2, y = box.minY + (box.height - h) / 2
        switch contentMode {
        case .left, .topLeft, .bottomLeft: x = box.minX
        case .right, .topRight, .bottomRight: x = box.maxX - w
        default: break
        }
        switch contentMode {
        case .top, .topLeft, .topRight: y = box.minY
        case .bottom, .bottomLeft, .bottomRight: y = box.maxY - h
        default: break
        }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        animationLayer.anchorPoint = .zero
        animationLayer.position = CGPoint(x: x, y: y)
        animationLayer.transform = CATransform3DMakeScale(sx, sy, 1)
        CATransaction.commit()
    }

    // MARK: - Playback (LottieAnimationLayer's)

    public var loopMode: LottieLoopMode {
        get { animationLayer.loopMode }
        set { animationLayer.loopMode = newValue }
    }
    public var animationSpeed: CGFloat {
        get { animationLayer.animationSpeed }
        set { animationLayer.animationSpeed = newValue }
    }
    public var currentFrame: AnimationFrameTime {
        get { animationLayer.currentFrame }
        set { animationLayer.currentFrame = newValue }
    }
    public var currentProgress: AnimationProgressTime {
        get { animationLayer.currentProgress }
        set { animationLayer.currentProgress = newValue }
    }
    public var currentTime: TimeInterval {
        get { animationLayer.currentTime }
        set { animationLayer.currentTime = newValue }
    }
    public var isAnimationPlaying: Bool { animationLayer.isAnimationPlaying }

    public func play(completion: LottieCompletionBlock? = nil) { animationLayer.play(completion: completion) }

    public func play(fromProgress: AnimationProgressTime? = nil, toProgress: AnimationProgressTime,
                     loopMode: LottieLoopMode? = nil, completion: LottieCompletionBlock? = nil) {
        animationLayer.play(fromProgress: fromProgress, toProgress: toProgress, loopMode: loopMode, completion: completion)
    }

    public func play(fromFrame: AnimationFrameTime? = nil, toFrame: AnimationFrameTime,
                     loopMode: LottieLoopMode? = nil, completion: LottieCompletionBlock? = nil) {
        animationLayer.play(fromFrame: fromFrame, toFrame: toFrame, loopMode: loopMode, completion: completion)
    }

    public func pause() { animationLayer.pause() }
    public func stop() { animationLayer.stop() }
}
