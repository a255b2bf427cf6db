import Compositor
import FuzzSupport
import QuartzCore

/// One fuzz input read as a script: each step is an operation byte and its operands — make a
/// layer of one of the seven classes, move layers around the tree (cycles and masks included:
/// they must be refused or harmless), set any key-value-coded property or sub-key path to a
/// value shaped like it (hostile numbers included), build basic, keyframe, spring and group
/// animations and transitions and add them, open and commit transactions, and draw frames at
/// times the script picks into a small `CARenderer`. At the end every transaction still open
/// is committed and three more frames are drawn.
///
/// Bounds, so each input costs milliseconds and the fuzzer measures code rather than
/// allocations: at most `maxLayers` layers, `maxAnimations` animations, `maxSteps` steps,
/// `maxFrames` frames, `maxTransactionDepth` nested transactions, a 32×32-point target; the
/// values that multiply work are bounded in `FuzzInput.boundedKeys`. A small input that still
/// takes unbounded time or memory is a finding.
struct LayerScript {
    static let maxLayers = 24
    static let maxAnimations = 16
    static let maxSteps = 200
    static let maxFrames = 8
    static let maxTransactionDepth = 8
    static let layerClasses: [@Sendable () -> CALayer] = [{ CALayer() }, { CAShapeLayer() }, { CAGradientLayer() }, { CATextLayer() },
                                                { CAReplicatorLayer() }, { CATransformLayer() }, { CAEmitterLayer() }]
    /// Sub-key paths (Apple's KVC extensions) set with a number.
    static let numberKeyPaths = [
        "position.x", "position.y", "bounds.size.width", "bounds.size.height", "bounds.origin.x", "shadowOffset.height",
        "transform.rotation", "transform.rotation.x", "transform.rotation.y", "transform.scale", "transform.scale.x",
        "transform.translation.x", "transform.translation.z", "sublayerTransform.rotation.z", "sublayerTransform.scale",
        "instanceTransform.rotation.z", "instanceTransform.translation.x", "anchorPoint.x", "frame.size.width",
    ]
    static let animationKeys: [String?] = [nil, "a", "b", "position", "transform", "opacity"]
    static let transitionTypes = ["fade", "moveIn", "push", "reveal", "cube", "oglFlip", "pageCurl", "pageUnCurl",
                                  "rippleEffect", "suckEffect", "cameraIris", "cameraIrisHollowOpen", "alignedFlip", "swirl"]

    var input: FuzzInput
    let renderer: CARenderer
    var layers: [CALayer]
    var animations: [CAAnimation] = []
    var openTransactions = 0
    var frames = 0

    init(_ input: FuzzInput) throws {
        self.input = input
        renderer = try CARenderer(width: 32, height: 32, scale: 1 + Double(self.input.byte() % 2))
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 32, height: 32)
        root.position = CGPoint(x: 16, y: 16)
        renderer.layer = root
        layers = [root]
    }

    /// Runs the whole script, then commits what is open and draws the last frames.
    mutating func run() {
        CAMediaClock.setManualTime(0)
        var steps = 0
        while !input.isEmpty, steps < Self.maxSteps {
            step()
            steps += 1
        }
        while openTransactions > 0 { commit() }
        for t in [0.25, 1.0, 4.5] { drawFrame(at: t) }
    }

    mutating func step() {
        switch input.byte() % 20 {
        case 0: makeLayer()
        case 1: layer().addSublayer(layer())
        case 2: layer().insertSublayer(layer(), at: UInt32(input.byte()) * (input.flag() ? 1 : 0x0100_0000))
        case 3:
            let (parent, sibling) = (layer(), layer())
            if input.flag() { parent.insertSublayer(layer(), below: sibling) } else { parent.insertSublayer(layer(), above: sibling) }
        case 4: replaceSublayer()
        case 5: layer().removeFromSuperlayer()
        case 6: layer().mask = input.flag() ? layer() : nil
        case 7, 8, 9: setProperty()
        case 10: layer().setValue(input.value(), forKeyPath: Self.numberKeyPaths[input.index(Self.numberKeyPaths.count)])
        case 11: makeBasicAnimation()
        case 12: makeKeyframeAnimation()
        case 13: makeGroup()
        case 14: addAnimation()
        case 15: removeAnimation()
        case 16: transaction()
        case 17: setEmitterCells()
        case 18: addTransition()
        default:
            let t = input.flag() ? input.value() : Double(input.byte()) / 16
            if frames < Self.maxFrames { drawFrame(at: t) }
        }
    }

    /// A layer of the script (the root when the byte picks none).
    mutating func layer() -> CALayer { layers[input.index(layers.count)] }

    mutating func makeLayer() {
        guard layers.count < Self.maxLayers else { return }
        let layer = Self.layerClasses[input.index(Self.layerClasses.count)]()
        layer.bounds = CGRect(x: 0, y: 0, width: Double(input.byte() % 40), height: Double(input.byte() % 40))
        layer.position = CGPoint(x: Double(input.byte() % 40), y: Double(input.byte() % 40))
        layer.backgroundColor = input.color()
        layers.append(layer)
        if input.flag() { layers[input.index(layers.count - 1)].addSublayer(layer) }
    }

    mutating func replaceSublayer() {
        let parent = layer()
        guard let old = parent.sublayers?[input.index(parent.sublayers?.count ?? 0)] else { return }
        parent.replaceSublayer(old, with: layer())
    }

    /// Sets one key-value-coded property of a layer's class to a value shaped like its own.
    mutating func setProperty() {
        let target = layer()
        let keys = type(of: target).propertyRegistry.keys.sorted()
        let key = keys[input.index(keys.count)]
        if key == "mask" { return }  // layers move through `mask =` (case 6)
        if key == "emitterCells" { return setEmitterCells(of: target) }
        target.setValue(input.value(forKey: key, like: target.value(forKey: key)), forKey: key)
    }

    /// A key path animated, and a value for it shaped like the target's current value.
    mutating func animatedKeyPath(on target: CALayer) -> String {
        let keys = type(of: target).propertyRegistry.keys.sorted()
        return input.flag() ? Self.numberKeyPaths[input.index(Self.numberKeyPaths.count)] : keys[input.index(keys.count)]
    }

    mutating func animationValue(_ keyPath: String, on target: CALayer) -> Any? {
        input.value(forKey: keyPath, like: target.value(forKeyPath: keyPath))
    }

    /// The timing every animation shares (CAMediaTiming), with hostile numbers.
    mutating func setTiming(_ a: CAAnimation) {
        a.duration = input.flag() ? input.value() : Double(input.byte() % 8) / 4
        if input.flag() { a.beginTime = input.value() }
        if input.flag() { a.speed = Float(input.value()) }
        if input.flag() { a.timeOffset = input.value() }
        if input.flag() { a.repeatCount = Float(input.value()) }
        if input.flag() { a.repeatDuration = input.value() }
        a.autoreverses = input.flag()
        a.fillMode = [.removed, .forwards, .backwards, .both][input.index(4)]
        a.isRemovedOnCompletion = input.flag()
        switch input.byte() % 4 {
        case 0: a.timingFunction = nil
        case 1: a.timingFunction = CAMediaTimingFunction(name: [.linear, .easeIn, .easeOut, .easeInEaseOut, .default][input.index(5)])
        default: a.timingFunction = CAMediaTimingFunction(controlPoints: Float(input.value()), Float(input.value()),
                                                          Float(input.value()), Float(input.value()))
        }
    }

    mutating func keep(_ a: CAAnimation) {
        if animations.count < Self.maxAnimations { animations.append(a) } else { animations[input.index(animations.count)] = a }
    }

    /// A basic or (every third) spring animation of a key path of some layer.
    mutating func makeBasicAnimation() {
        let target = layer()
        let keyPath = animatedKeyPath(on: target)
        let a: CABasicAnimation
        if input.byte() % 3 == 0 {
            let spring = CASpringAnimation(keyPath: keyPath)
            spring.mass = input.value(); spring.stiffness = input.value(); spring.damping = input.value()
            spring.initialVelocity = input.value(); spring.allowsOverdamping = input.flag()
            a = spring
        } else {
            a = CABasicAnimation(keyPath: keyPath)
        }
        if input.flag() { a.fromValue = animationValue(keyPath, on: target) }
        if input.flag() { a.toValue = animationValue(keyPath, on: target) }
        if input.flag() { a.byValue = animationValue(keyPath, on: target) }
        a.isAdditive = input.flag()
        a.isCumulative = input.flag()
        if input.byte() % 8 == 0 { a.valueFunction = CAValueFunction(name: [.rotateZ, .scale, .translateX][input.index(3)]) }
        setTiming(a)
        keep(a)
    }

    mutating func makeKeyframeAnimation() {
        let target = layer()
        let keyPath = input.byte() % 4 == 0 ? "position" : animatedKeyPath(on: target)
        let a = CAKeyframeAnimation(keyPath: keyPath)
        a.values = (0..<input.index(6)).map { _ in animationValue(keyPath, on: target) as Any }
        if input.flag() { a.keyTimes = input.numbers { $0.value() } }
        if input.byte() % 4 == 0 { a.path = input.path() }
        a.calculationMode = [.linear, .discrete, .paced, .cubic, .cubicPaced][input.index(5)]
        if input.flag() { a.rotationMode = input.flag() ? .rotateAuto : .rotateAutoReverse }
        if input.flag() {
            a.timingFunctions = (0..<input.index(5)).map { _ in CAMediaTimingFunction(name: input.flag() ? .easeIn : .linear) }
        }
        if input.byte() % 4 == 0 {
            a.tensionValues = input.numbers { $0.value() }
            a.continuityValues = input.numbers { $0.value() }
            a.biasValues = input.numbers { $0.value() }
        }
        setTiming(a)
        keep(a)
    }

    /// A new group of some animations, or an existing group given new ones (a cycle must be
    /// refused).
    mutating func makeGroup() {
        let members = (0..<input.index(4)).compactMap { _ in animations.isEmpty ? nil : animations[input.index(animations.count)] }
        if input.flag(), !animations.isEmpty, let group = animations[input.index(animations.count)] as? CAAnimationGroup {
            group.animations = members
        } else {
            let group = CAAnimationGroup()
            group.animations = members
            setTiming(group)
            keep(group)
        }
    }

    mutating func addAnimation() {
        guard !animations.isEmpty else { return }
        layer().add(animations[input.index(animations.count)], forKey: Self.animationKeys[input.index(Self.animationKeys.count)])
    }

    mutating func removeAnimation() {
        let target = layer()
        if input.flag() { target.removeAllAnimations() } else {
            target.removeAnimation(forKey: Self.animationKeys[input.index(Self.animationKeys.count)] ?? "a")
        }
    }

    mutating func addTransition() {
        let t = CATransition()
        t.type = CATransitionType(rawValue: Self.transitionTypes[input.index(Self.transitionTypes.count)])
        t.subtype = [nil, .fromLeft, .fromRight, .fromTop, .fromBottom][input.index(5)]
        if input.flag() { t.startProgress = Float(input.value()); t.endProgress = Float(input.value()) }
        setTiming(t)
        layer().add(t, forKey: input.flag() ? "transition" : nil)
    }

    /// Up to two emitter cells, each with up to one child cell, on `target` (an emitter, or any
    /// layer: the property is then ignored).
    mutating func setEmitterCells(of target: CALayer? = nil) {
        let target = target ?? layer()
        guard let emitter = target as? CAEmitterLayer else { return }
        emitter.emitterCells = input.flag() ? nil : (0..<input.index(3)).map { _ in makeCell(children: 1) }
    }

    static let cellKeys = ["birthRate", "lifetime", "lifetimeRange", "velocity", "velocityRange", "emissionRange",
                           "emissionLongitude", "yAcceleration", "scale", "scaleRange", "scaleSpeed", "spin", "color",
                           "alphaSpeed", "contents", "contentsRect", "beginTime", "duration", "enabled"]

    mutating func makeCell(children: Int) -> CAEmitterCell {
        let cell = CAEmitterCell()
        cell.birthRate = 4
        cell.lifetime = 1
        cell.contents = input.image()
        for _ in 0..<input.index(6) {
            let key = Self.cellKeys[input.index(Self.cellKeys.count)]
            cell.setValue(input.value(forKey: key, like: cell.value(forKey: key) ?? input.image()), forKey: key)
        }
        if children > 0, input.flag() { cell.emitterCells = [makeCell(children: children - 1)] }
        return cell
    }

    mutating func transaction() {
        switch input.byte() % 6 {
        case 0 where openTransactions < Self.maxTransactionDepth:
            CATransaction.begin()
            openTransactions += 1
        case 1 where openTransactions > 0: commit()
        case 2: CATransaction.flush()
        case 3: CATransaction.setAnimationDuration(input.value())
        case 4: CATransaction.setDisableActions(input.flag())
        default: CATransaction.setAnimationTimingFunction(input.flag() ? nil : CAMediaTimingFunction(name: .easeOut))
        }
    }

    mutating func commit() {
        CATransaction.commit()
        openTransactions -= 1
    }

    /// A frame at media time `t`: the clock is set to `t`, the tree drawn, and the questions a
    /// host asks between frames are asked of a layer (presentation, hit test, conversion, the
    /// next frame time).
    mutating func drawFrame(at t: Double) {
        frames += 1
        CAMediaClock.setManualTime(t)
        renderer.beginFrame(atTime: t)
        renderer.render()
        renderer.endFrame()
        let probe = layer(), other = layer()
        let point = input.point()
        _ = probe.presentation()?.hitTest(point)
        _ = probe.hitTest(point)
        _ = probe.convert(point, to: other)
        _ = probe.convert(input.rect(), from: other)
        _ = probe.convertTime(t, from: other)
        _ = renderer.nextFrameTime()
    }
}
