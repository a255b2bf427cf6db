import Foundation

/// Where particles originate (Apple's `CAEmitterLayerEmitterShape`, Apple's raw strings). The
/// geometry is Apple's documentation's: a line of length `emitterSize.width` along x, a rectangle
/// or cuboid of `emitterSize` (× `emitterDepth`), a circle or sphere of radius
/// `emitterSize.width`, all centred on (`emitterPosition`, `emitterZPosition`).
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let point = CAEmitterLayerEmitterShape(rawValue: "point")
    public static let line = CAEmitterLayerEmitterShape(rawValue: "line")
    public static let rectangle = CAEmitterLayerEmitterShape(rawValue: "rectangle")
    public static let cuboid = CAEmitterLayerEmitterShape(rawValue: "cuboid")
    public static let circle = CAEmitterLayerEmitterShape(rawValue: "circle")
    public static let sphere = CAEmitterLayerEmitterShape(rawValue: "sphere")
}

/// Which part of the shape particles originate from (Apple's `CAEmitterLayerEmitterMode`).
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let points = CAEmitterLayerEmitterMode(rawValue: "points")
    public static let outline = CAEmitterLayerEmitterMode(rawValue: "outline")
    public static let surface = CAEmitterLayerEmitterMode(rawValue: "surface")
    public static let volume = CAEmitterLayerEmitterMode(rawValue: "volume")
}

/// In which order, and how, particles are composited (Apple's `CAEmitterLayerRenderMode`).
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let unordered = CAEmitterLayerRenderMode(rawValue: "unordered")
    public static let oldestFirst = CAEmitterLayerRenderMode(rawValue: "oldestFirst")
    public static let oldestLast = CAEmitterLayerRenderMode(rawValue: "oldestLast")
    public static let backToFront = CAEmitterLayerRenderMode(rawValue: "backToFront")
    public static let additive = CAEmitterLayerRenderMode(rawValue: "additive")
}

/// A particle system (Apple's `CAEmitterLayer`): its `emitterCells` emit particles from the
/// emitter shape; they are drawn above the layer's background and contents and below its
/// sublayers (Apple: "drawn above the layer's background color and border"; the border here
/// stays on top of them, as it does of every layer's content). Defaults are Apple's: every multiplier 1,
/// position (0, 0), size zero, shape `.point`, mode `.volume`, render mode `.unordered`, seed 0.
///
/// Determinism (Citrine): particle state is a pure function of the layer's local time, `seed`
/// and the model changes and animations the layer has recorded (`CAEmitterLayer+BirthValues`),
/// in closed form — see `_particles(atMediaTime:into:)` for the formulas. Emission
/// starts at local time 0, i.e. at the layer's `beginTime` (the community's idiom
/// `emitter.beginTime = CACurrentMediaTime()` starts it now; a layer left at beginTime 0 shows
/// the steady state at once). The layer's `speed` and `timeOffset` scale and shift it (speed 0
/// pauses the particles).
///
/// Animating: the layer's properties and every cell's, through key paths
/// `emitterCells.<name>.<key>` (also nested: `emitterCells.fire.emitterCells.spark.birthRate`).
/// As on Apple, a particle keeps the values it was born with: a changed or animated value
/// applies to the particles born afterwards (see `CAEmitterLayer+BirthValues.swift`).
open class CAEmitterLayer: CALayer {
    override class func makeCoreAnimationLayer(copying layer: CALayer?) -> CALayer { layer.map { CAEmitterLayer(layer: $0) } ?? CAEmitterLayer() }
    /// With cells, the particles move with every frame time.
    override open var _changesWithTime: Bool { emitterCells?.isEmpty == false }

    /// The cells emitted from the shape. Default nil.
    open var emitterCells: [CAEmitterCell]? {
        willSet { willChangeBirthValues() }
        didSet { cellsArePrivate = false; propertyChanged("emitterCells", oldValue) }
    }
    /// Multiplies every cell's birth rate. Default 1.
    open var birthRate: Float = 1 {
        willSet { if newValue != birthRate { willChangeBirthValues() } }
        didSet { propertyChanged("birthRate", oldValue) }
    }
    /// Multiplies every cell's lifetime and lifetime range. Default 1.
    open var lifetime: Float = 1 {
        willSet { if newValue != lifetime { willChangeBirthValues() } }
        didSet { propertyChanged("lifetime", oldValue) }
    }
    /// Centre of the emitter shape, in the layer's coordinates. Default (0, 0).
    open var emitterPosition: CGPoint = .zero {
        willSet { if newValue != emitterPosition { willChangeBirthValues() } }
        didSet { propertyChanged("emitterPosition", oldValue) }
    }
    open var emitterZPosition: CGFloat = 0 {
        willSet { if newValue != emitterZPosition { willChangeBirthValues() } }
        didSet { propertyChanged("emitterZPosition", oldValue) }
    }
    open var emitterSize: CGSize = .zero {
        willSet { if newValue != emitterSize { willChangeBirthValues() } }
        didSet { propertyChanged("emitterSize", oldValue) }
    }
    open var emitterDepth: CGFloat = 0 {
        willSet { if newValue != emitterDepth { willChangeBirthValues() } }
        didSet { propertyChanged("emitterDepth", oldValue) }
    }
    /// Default `.point`.
    open var emitterShape: CAEmitterLayerEmitterShape = .point {
        willSet { if newValue != emitterShape { willChangeBirthValues() } }
        didSet { propertyChanged("emitterShape", oldValue) }
    }
    /// Default `.volume`.
    open var emitterMode: CAEmitterLayerEmitterMode = .volume {
        willSet { if newValue != emitterMode { willChangeBirthValues() } }
        didSet { propertyChanged("emitterMode", oldValue) }
    }
    /// Default `.unordered`.
    open var renderMode: CAEmitterLayerRenderMode = .unordered { didSet { propertyChanged("renderMode", oldValue) } }
    /// Kept for source compatibility: particles are flattened into the layer's plane (their z
    /// orders `.backToFront` only).
    open var preservesDepth = false { didSet { propertyChanged("preservesDepth", oldValue) } }
    /// Multiplies every cell's velocity and velocity range. Default 1.
    open var velocity: Float = 1 {
        willSet { if newValue != velocity { willChangeBirthValues() } }
        didSet { propertyChanged("velocity", oldValue) }
    }
    /// Multiplies every particle's scale. Default 1.
    open var scale: Float = 1 {
        willSet { if newValue != scale { willChangeBirthValues() } }
        didSet { propertyChanged("scale", oldValue) }
    }
    /// Multiplies every cell's spin and spin range. Default 1.
    open var spin: Float = 1 {
        willSet { if newValue != spin { willChangeBirthValues() } }
        didSet { propertyChanged("spin", oldValue) }
    }
    /// Seeds the particles' random values: same seed, same particles. Default 0.
    open var seed: UInt32 = 0 { didSet { propertyChanged("seed", oldValue) } }

    /// A model layer's values from before its changes that live particles were born with
    /// (`CAEmitterLayer+BirthValues.swift`).
    var birthHistory = BirthHistory()

    /// Whether `emitterCells` holds this layer's own copies (a presentation copy animating a
    /// cell's value copies the model's cells first, so the model's are never written).
    private var cellsArePrivate = false

    open override func copyProperties(from other: CALayer) {
        super.copyProperties(from: other)
        guard let o = other as? CAEmitterLayer else { return }
        emitterCells = o.emitterCells; birthRate = o.birthRate; lifetime = o.lifetime
        emitterPosition = o.emitterPosition; emitterZPosition = o.emitterZPosition; emitterSize = o.emitterSize
        emitterDepth = o.emitterDepth; emitterShape = o.emitterShape; emitterMode = o.emitterMode
        renderMode = o.renderMode; preservesDepth = o.preservesDepth; velocity = o.velocity; scale = o.scale
        spin = o.spin; seed = o.seed
    }

    open override class var propertyRegistry: [String: LayerProperty] { Self.emitterProperties }

    private static let emitterProperties = LayerProperty.base.merging([
        "emitterCells": .init(\CAEmitterLayer.emitterCells, .opaque(), animatable: false),
        "birthRate": .init(\CAEmitterLayer.birthRate, .float),
        "lifetime": .init(\CAEmitterLayer.lifetime, .float),
        "emitterPosition": .init(\CAEmitterLayer.emitterPosition, .point),
        "emitterZPosition": .init(\CAEmitterLayer.emitterZPosition, .cgFloat),
        "emitterSize": .init(\CAEmitterLayer.emitterSize, .size),
        "emitterDepth": .init(\CAEmitterLayer.emitterDepth, .cgFloat),
        "emitterShape": .init(\CAEmitterLayer.emitterShape, .rawString, animatable: false),
        "emitterMode": .init(\CAEmitterLayer.emitterMode, .rawString, animatable: false),
        "renderMode": .init(\CAEmitterLayer.renderMode, .rawString, animatable: false),
        "preservesDepth": .init(\CAEmitterLayer.preservesDepth, .bool, animatable: false),
        "velocity": .init(\CAEmitterLayer.velocity, .float),
        "scale": .init(\CAEmitterLayer.scale, .float),
        "spin": .init(\CAEmitterLayer.spin, .float),
        "seed": .init(\CAEmitterLayer.seed, .uint32, animatable: false),
    ]) { $1 }
}

// MARK: - Cell key paths

extension CAEmitterLayer: NestedKeyValueCoding {
    /// `emitterCells.<name>.<key>` (nil when the path names no cell).
    func nestedValue(at keyPath: Substring) -> AnimatableValue? {
        guard let (cell, rest) = CAEmitterCell.named(in: emitterCells, path: keyPath) else { return nil }
        return cell.animatableValue(at: rest)
    }

    /// Writes `emitterCells.<name>.<key>`; false when the path names no cell. A presentation
    /// copy first takes its own copies of the cells.
    func setNestedValue(_ value: AnimatableValue, at keyPath: Substring) -> Bool {
        if modelLayer != nil && !cellsArePrivate {
            emitterCells = readableCells?.map { $0.deepCopy() }   // no action: a presentation copy
            cellsArePrivate = true
        }
        guard let (cell, rest) = CAEmitterCell.named(in: emitterCells, path: keyPath) else { return false }
        willChangeBirthValues()
        cell.setAnimatableValue(value, at: rest)
        if modelLayer == nil { propertyChanged("emitterCells", emitterCells) }
        return true
    }
}

extension Codec where V == UInt32 {
    static var uint32: Codec {
        Codec(encode: { .number(Double($0)) }, decode: { v in
            guard case let .number(n) = v, n.isFinite, n >= 0, n <= Double(UInt32.max) else { return nil }
            return UInt32(n)
        })
    }
}
