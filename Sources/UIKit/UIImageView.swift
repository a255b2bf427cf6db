/// A view that shows an image (Apple's `UIImageView`): the image's `CGImage` becomes the layer's
/// `contents` (at the image's scale), placed by `contentMode` (default `.scaleToFill`). As on
/// iOS, user interaction is off by default.
///
/// `animationImages` play as a `CAKeyframeAnimation` of `contents` (discrete, each image for
/// an equal share of `animationDuration`) under the key "UIImageAnimation".
open class UIImageView: UIView {
    static let animationKey = "UIImageAnimation"

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
        // Apple's UIImageView reference, as quoted by others (angelolloqui.com, 2012: "UIImageView
        // will not call drawRect: a subclass"; the README of ratulSharker/RSUIImageViewMultiborder:
        // "The UIImageView class does not draw its content using the drawRect: method"): the image
        // is the layer's contents, so the layer draws nothing of its own from the start (it is
        // then retained and damage-tracked like any layer drawn from its properties,
        // `_drawsContent(of:)`).
        drawsNothing = true
    }

    /// An image view the size of `image` (in points).
    public convenience init(image: UIImage?) {
        self.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        self.image = image
        updateContents()  // property observers do not run in the class's own initializers
    }

    public convenience init(image: UIImage?, highlightedImage: UIImage?) {
        self.init(image: image)
        self.highlightedImage = highlightedImage
        updateContents()
    }

    public required init?(coder: NSCoder) { return nil }

    /// The image shown. Default nil.
    open var image: UIImage? { didSet { updateContents() } }
    /// The image shown while `isHighlighted`.
    open var highlightedImage: UIImage? { didSet { updateContents() } }
    open var isHighlighted = false { didSet { updateContents() } }

    private func updateContents() {
        let shown = isHighlighted ? (highlightedImage ?? image) : image
        layer.contents = shown?.cgImage
        layer.contentsScale = shown?.scale ?? layer.contentsScale
    }

    /// The image's size (points), or the current size without an image.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { image?.size ?? bounds.size }

    // MARK: Frame animation

    /// Images to play in turn (`startAnimating()`).
    open var animationImages: [UIImage]?
    /// Seconds for one pass through `animationImages`; 0 (default) means 1/30 s per image.
    open var animationDuration: TimeInterval = 0
    /// Passes to play; 0 (default) repeats forever.
    open var animationRepeatCount = 0

    /// Starts playing `animationImages` (does nothing without them).
    open func startAnimating() {
        guard let images = animationImages, !images.isEmpty else { return }
        let animation = CAKeyframeAnimation(keyPath: "contents")
        animation.values = images.compactMap(\.cgImage)
        animation.calculationMode = .discrete
        animation.duration = animationDuration > 0 ? animationDuration : Double(images.count) / 30
        animation.repeatCount = animationRepeatCount > 0 ? Float(animationRepeatCount) : .infinity
        layer.contentsScale = images[0].scale
        layer.add(animation, forKey: Self.animationKey)
    }

    /// Stops playing `animationImages`.
    open func stopAnimating() { layer.removeAnimation(forKey: Self.animationKey) }

    /// Whether `animationImages` are playing.
    open var isAnimating: Bool { layer.animation(forKey: Self.animationKey) != nil }
}
