import Foundation

/// One kind of particle an emitter layer emits (Apple's `CAEmitterCell`): its birth rate,
/// lifetime, motion, spin, scale, colour and image, each with the ± range a particle's value is
/// drawn from at its birth and, for scale and colour, the rate at which it changes while the
/// particle lives. A cell's own `emitterCells` make every one of its particles an emitter too.
///
/// Defaults are Apple's (CAEmitterCell.h): every number 0 except `scale` 1, `color` opaque white,
/// `contentsRect` the unit rectangle, `contentsScale` 1, `isEnabled` true, linear filters.
/// Units: rates per second, angles in radians, speeds in points per second, accelerations in
/// points per second², in the emitter layer's coordinate space (y down on iOS).
///
/// Ranges are symmetric: a particle's value is drawn uniformly from value ± range (Apple:
/// "lifetime = lifetime ± lifetimeRange"; the other ranges are documented as "the amount by
/// which the value can vary" and read the same way by the community). `emissionRange` is the
/// half-angle of the cone (see `CAEmitterLayer` for how directions are drawn).
///
/// Apple's documented way to reach a cell once it is in a layer is the layer's key path
/// `emitterCells.<name>.<key>` (`name`: "used when constructing animation key paths that
/// reference the cell"), with `setValue(_:forKeyPath:)` and animations; the layer records
/// those changes so that live particles keep the values they were born with. Community notes
/// report that on Apple a cell's properties take effect only when set that way; what a direct
/// write to the cell object does there is not documented. Here it is seen at once, by every
/// particle (the renderer reads the cells every frame) — README, "Where Citrine approximates".
///
/// CAMediaTiming: `beginTime` and `duration` bound when the cell emits, in its emitter's time
/// (the layer's local time for a top-level cell, the parent particle's age for a sub-cell);
/// `duration` 0 emits for ever. The other timing properties are kept for source compatibility
/// and do not change emission.
open class CAEmitterCell: CAMediaTiming {
    // MARK: Identity
    /// Used in key paths (`emitterCells.<name>.birthRate`). Default nil.
    public var name: String?
    /// Whether the cell emits and draws. Default true.
    public var isEnabled = true

    // MARK: Emission
    /// Particles created per second (multiplied by the layer's `birthRate`). Default 0.
    public var birthRate: Float = 0
    /// Seconds a particle lives (multiplied by the layer's `lifetime`). Default 0.
    public var lifetime: Float = 0
    public var lifetimeRange: Float = 0
    /// Angle out of the x-y plane towards +z of the emission direction (radians). Default 0.
    public var emissionLatitude: CGFloat = 0
    /// Angle in the x-y plane from +x of the emission direction (radians; +π/2 points down
    /// the screen on iOS, where y grows downwards). Default 0.
    public var emissionLongitude: CGFloat = 0
    /// Half-angle of the cone around the emission direction (radians). Default 0.
    public var emissionRange: CGFloat = 0

    // MARK: Motion
    /// Initial speed (points per second, multiplied by the layer's `velocity`). Default 0.
    public var velocity: CGFloat = 0
    public var velocityRange: CGFloat = 0
    /// Constant acceleration (points per second²). Default 0.
    public var xAcceleration: CGFloat = 0
    public var yAcceleration: CGFloat = 0
    public var zAcceleration: CGFloat = 0

    // MARK: Appearance
    /// Size factor of the contents (multiplied by the layer's `scale`). Default 1.
    public var scale: CGFloat = 1
    public var scaleRange: CGFloat = 0
    /// Change of scale per second. Default 0.
    public var scaleSpeed: CGFloat = 0
    /// Rotation rate (radians per second, multiplied by the layer's `spin`). Default 0.
    public var spin: CGFloat = 0
    public var spinRange: CGFloat = 0
    /// Multiplies the contents' colours. Default opaque white.
    public var color: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    public var redRange: Float = 0
    public var greenRange: Float = 0
    public var blueRange: Float = 0
    public var alphaRange: Float = 0
    /// Change of each component per second. Default 0.
    public var redSpeed: Float = 0
    public var greenSpeed: Float = 0
    public var blueSpeed: Float = 0
    public var alphaSpeed: Float = 0
    /// The particle's image (a `CGImage`); a cell without contents draws nothing. Default nil.
    public var contents: Any?
    /// Unit rectangle of the contents drawn. Default (0, 0, 1, 1).
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Image pixels per point. Default 1.
    public var contentsScale: CGFloat = 1
    public var minificationFilter: CALayerContentsFilter = .linear
    public var magnificationFilter: CALayerContentsFilter = .linear
    public var minificationFilterBias: Float = 0
    /// Cells each particle of this cell emits. Default nil. An array that holds this cell, directly
    /// or below one of its cells, would make the cells a cycle (particles emitting particles
    /// without end): it is refused and the cells stay as they were (Apple documents
    /// nothing here, and raises for a sublayer cycle). Every cycle passes through the cell whose
    /// cells were set last, so checking each assignment keeps every tree acyclic.
    public var emitterCells: [CAEmitterCell]? {
        didSet { if let emitterCells, Self.reaches(self, from: emitterCells) { self.emitterCells = oldValue } }
    }

    /// Whether `target` is among `cells` or below them (each distinct cell visited once).
    private static func reaches(_ target: CAEmitterCell, from cells: [CAEmitterCell]) -> Bool {
        var pending = cells
        var seen = Set<ObjectIdentifier>()
        while let cell = pending.popLast() {
            if cell === target { return true }
            guard seen.insert(ObjectIdentifier(cell)).inserted else { continue }
            pending += cell.emitterCells ?? []
        }
        return false
    }
    public var style: [AnyHashable: Any]?

    // MARK: CAMediaTiming
    public var beginTime: CFTimeInterval = 0
    public var duration: CFTimeInterval = 0
    public var speed: Float = 1
    public var timeOffset: CFTimeInterval = 0
    public var repeatCount: Float = 0
    public var repeatDuration: CFTimeInterval = 0
    public var autoreverses = false
    public var fillMode: CAMediaTimingFillMode = .removed

    /// Keys set through `setValue(_:forKey:)` that are not properties.
    private var extraValues: [String: Any] = [:]

    public required init() {}

    /// Apple's convenience constructor.
    open class func emitterCell() -> Self { self.init() }

    deinit { releaseCellsIteratively() }

    /// A copy with its own copies of the sub-cells (what a layer's presentation animates); for a
    /// tree read through `readable`, so bounded.
    func deepCopy() -> CAEmitterCell {
        let c = copyWithoutCells()
        c.emitterCells = emitterCells?.map { $0.deepCopy() }
        return c
    }

    /// A copy of the cell's own values, without sub-cells.
    func copyWithoutCells() -> CAEmitterCell {
        let c = type(of: self).init()
        for property in Self.registry.values { property.copy(self, c) }
        c.isEnabled = isEnabled; c.name = name; c.style = style
        c.minificationFilter = minificationFilter; c.magnificationFilter = magnificationFilter
        c.beginTime = beginTime; c.duration = duration; c.speed = speed; c.timeOffset = timeOffset
        c.repeatCount = repeatCount; c.repeatDuration = repeatDuration; c.autoreverses = autoreverses; c.fillMode = fillMode
        c.extraValues = extraValues
        return c
    }

    // MARK: Key-value coding

    /// Apple's defaults by key (nil for unknown keys).
    open class func defaultValue(forKey key: String) -> Any? { registry[key].map { $0.get(CAEmitterCell()) } ?? nil }

    /// Whether the value is archived (Apple: always true for the cell's own properties).
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    open func value(forKey key: String) -> Any? {
        if let p = Self.registry[key] { return p.get(self) }
        return extraValues[key]
    }

    open func setValue(_ value: Any?, forKey key: String) {
        if let p = Self.registry[key] { p.set(self, AnimatableValue(value)) } else { extraValues[key] = value }
    }

    /// `value(forKey:)` along a dotted path: `emitterCells.<name>.<key>` reaches a sub-cell.
    open func value(forKeyPath keyPath: String) -> Any? { animatableValue(at: keyPath[...])?.value }

    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setAnimatableValue(AnimatableValue(value), at: keyPath[...]) }

    /// The value at `path` (`key` or `emitterCells.<name>.…`), nil when nothing is there.
    func animatableValue(at path: Substring) -> AnimatableValue? {
        let (cell, key) = target(of: path)
        if let p = Self.registry[String(key)] { return p.getValue(cell) }
        return cell.extraValues[String(key)].map { AnimatableValue($0) }
    }

    func setAnimatableValue(_ value: AnimatableValue, at path: Substring) {
        let (cell, key) = target(of: path)
        if let p = Self.registry[String(key)] { p.set(cell, value) } else { cell.extraValues[String(key)] = value.value }
    }

    /// The cell `path` leads to through `emitterCells.<name>.` steps (a loop: a path may name
    /// cells nested as deep as they go) and the key left.
    private func target(of path: Substring) -> (CAEmitterCell, Substring) {
        var (cell, rest) = (self, path)
        while let (next, after) = cell.subcell(at: rest) { (cell, rest) = (next, after) }
        return (cell, rest)
    }

    /// The sub-cell a path `emitterCells.<name>.<rest>` names, and the rest.
    private func subcell(at path: Substring) -> (CAEmitterCell, Substring)? {
        CAEmitterCell.named(in: emitterCells, path: path)
    }

    /// For `cells` and a path `emitterCells.<name>.<rest>`: the first cell called `name` and
    /// `rest` (nil when the path has another form or no cell has the name).
    static func named(in cells: [CAEmitterCell]?, path: Substring) -> (CAEmitterCell, Substring)? {
        let prefix = "emitterCells."
        guard path.hasPrefix(prefix) else { return nil }
        let afterPrefix = path.dropFirst(prefix.count)
        guard let dot = afterPrefix.firstIndex(of: ".") else { return nil }
        let name = afterPrefix[..<dot]
        guard let cell = cells?.first(where: { $0.name.map { $0[...] == name } ?? false }) else { return nil }
        return (cell, afterPrefix[afterPrefix.index(after: dot)...])
    }

    // MARK: Property registry

    /// One key-value-coded cell property.
    struct Property: @unchecked Sendable {
        let get: (CAEmitterCell) -> Any?
        let getValue: (CAEmitterCell) -> AnimatableValue
        let set: (CAEmitterCell, AnimatableValue) -> Void
        let copy: (CAEmitterCell, CAEmitterCell) -> Void

        init<V>(_ keyPath: ReferenceWritableKeyPath<CAEmitterCell, V>, _ codec: Codec<V>) {
            get = { $0[keyPath: keyPath] }
            getValue = { codec.encode($0[keyPath: keyPath]) }
            set = { cell, value in if let v = codec.decode(value) { cell[keyPath: keyPath] = v } }
            copy = { from, to in to[keyPath: keyPath] = from[keyPath: keyPath] }
        }
    }

    static let registry: [String: Property] = [
        "birthRate": .init(\.birthRate, .float), "lifetime": .init(\.lifetime, .float),
        "lifetimeRange": .init(\.lifetimeRange, .float),
        "emissionLatitude": .init(\.emissionLatitude, .cgFloat), "emissionLongitude": .init(\.emissionLongitude, .cgFloat),
        "emissionRange": .init(\.emissionRange, .cgFloat),
        "velocity": .init(\.velocity, .cgFloat), "velocityRange": .init(\.velocityRange, .cgFloat),
        "xAcceleration": .init(\.xAcceleration, .cgFloat), "yAcceleration": .init(\.yAcceleration, .cgFloat),
        "zAcceleration": .init(\.zAcceleration, .cgFloat),
        "scale": .init(\.scale, .cgFloat), "scaleRange": .init(\.scaleRange, .cgFloat), "scaleSpeed": .init(\.scaleSpeed, .cgFloat),
        "spin": .init(\.spin, .cgFloat), "spinRange": .init(\.spinRange, .cgFloat),
        "color": .init(\.color, .color),
        "redRange": .init(\.redRange, .float), "greenRange": .init(\.greenRange, .float),
        "blueRange": .init(\.blueRange, .float), "alphaRange": .init(\.alphaRange, .float),
        "redSpeed": .init(\.redSpeed, .float), "greenSpeed": .init(\.greenSpeed, .float),
        "blueSpeed": .init(\.blueSpeed, .float), "alphaSpeed": .init(\.alphaSpeed, .float),
        "contents": .init(\.contents, .any), "contentsRect": .init(\.contentsRect, .rect),
        "contentsScale": .init(\.contentsScale, .cgFloat), "minificationFilterBias": .init(\.minificationFilterBias, .float),
        "enabled": .init(\.isEnabled, .bool), "name": .init(\.name, .opaque()),
        "beginTime": .init(\.beginTime, .double), "duration": .init(\.duration, .double),
    ]
}
