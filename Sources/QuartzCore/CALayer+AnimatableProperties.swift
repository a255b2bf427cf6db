import Foundation
import Synchronization

/// Declares an animatable property of a `CALayer` subclass — Citrine's form of Apple's
/// `@NSManaged var progress: CGFloat` (Swift on Linux has no Objective-C runtime to synthesize
/// the accessors):
///
///     class Ring: CALayer {
///         @Animatable var progress: CGFloat = 0
///         override class func needsDisplay(forKey key: String) -> Bool {
///             key == "progress" || super.needsDisplay(forKey: key)
///         }
///         override func draw(in ctx: CGContext) { … progress … }
///     }
///
/// Behaves as Apple documents for a layer's dynamic properties: the key is the property's name;
/// the value lives in the layer's key-value storage, so `value(forKey:)` / `setValue(_:forKey:)`
/// reach it, `init(layer:)` copies it (presentation copies need no code), and an animation of the
/// key (`CABasicAnimation(keyPath: "progress")`, keyframe, spring, additive …) writes the
/// interpolated value into the presentation copy's property at every frame. Setting it on a
/// model layer is a change like any other: it consults `action(forKey:)` (delegate, `actions`,
/// `style`, an override — there is no built-in default action for custom keys, as on Apple) and
/// marks the layer for display when `needsDisplay(forKey:)` says so; while such a key animates,
/// the renderer draws the presentation copy through `draw(in:)` at every frame.
///
/// The initial value (`= 0`) is the property's default (`defaultValue(forKey:)`). Values are
/// read back as the declared type: numbers convert between `CGFloat`, `Double`, `Float` and
/// `Int` (animations interpolate in `CGFloat`).
@propertyWrapper
public struct Animatable<Value> {
    let initialValue: Value
    /// The key, set when the layer is made (the property's name without the wrapper's `_`).
    let slot = AnimatableKeySlot()

    public init(wrappedValue: Value) { initialValue = wrappedValue }

    @available(*, unavailable, message: "@Animatable declares properties of CALayer subclasses only")
    public var wrappedValue: Value {
        get { fatalError("@Animatable declares properties of CALayer subclasses only") }
        set { fatalError("@Animatable declares properties of CALayer subclasses only") }
    }

    public static subscript<Layer: CALayer>(
        _enclosingInstance layer: Layer,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Layer, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Layer, Animatable<Value>>
    ) -> Value {
        get {
            let wrapper = layer[keyPath: storageKeyPath]
            guard let key = wrapper.slot.key, let stored = layer.extraValues[key] else { return wrapper.initialValue }
            return convertKVCValue(stored, to: Value.self) ?? wrapper.initialValue
        }
        set {
            guard let key = layer[keyPath: storageKeyPath].slot.key else { return }
            layer.setValue(newValue, forKey: key)
        }
    }
}

/// Where an `@Animatable` wrapper learns its key (a class: the wrapper is a value inside the
/// layer, and the layer fills this in once it can see its own stored properties).
final class AnimatableKeySlot {
    var key: String?
}

/// What `CALayer` reads of an `@Animatable` property through reflection.
protocol AnimatablePropertyStorage {
    var slot: AnimatableKeySlot { get }
    var initialAny: Any? { get }
}

extension Animatable: AnimatablePropertyStorage {
    var initialAny: Any? { initialValue }
}

/// `value` as a `V`: itself when it is one, else a number converted between the Swift number types.
func convertKVCValue<V>(_ value: Any?, to: V.Type) -> V? {
    if let v = value as? V { return v }
    guard case let .number(n) = AnimatableValue(value) else { return nil }
    switch V.self {
    case is CGFloat.Type: return CGFloat(n) as? V
    case is Double.Type: return n as? V
    case is Float.Type: return Float(n) as? V
    case is Int.Type: return Int(exactly: n.rounded()).flatMap { $0 as? V }   // NaN, ±∞, beyond ±2⁶³: no Int
    default: return nil
    }
}

/// Per layer class: the keys of its `@Animatable` properties and whether the class is an app's
/// (defined outside QuartzCore). Found by reflection once per class.
enum AnimatablePropertyCatalog {
    struct Entry: @unchecked Sendable {
        let keys: Set<String>
        /// The declared initial value of each key (`defaultValue(forKey:)`); values, never mutated.
        let initialValues: [String: Any]
        /// An app's subclass: its presentation copies are made anew (`CALayer.copy(of:)`)
        /// whenever they are evaluated (it may keep values in stored properties of its own).
        let isAppClass: Bool
    }

    private static let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// The entry of `layerClass` when one of its layers has been made (nil before).
    static func knownEntry(for layerClass: CALayer.Type) -> Entry? {
        entries.withLock { $0[ObjectIdentifier(layerClass)] }
    }

    static func entry(for layer: CALayer) -> Entry {
        let id = ObjectIdentifier(type(of: layer))
        if let known = entries.withLock({ $0[id] }) { return known }
        let storages = storages(of: layer)
        let entry = Entry(keys: Set(storages.map(\.key)),
                          initialValues: Dictionary(storages.compactMap { s in s.storage.initialAny.map { (s.key, $0) } },
                                                    uniquingKeysWith: { first, _ in first }),
                          isAppClass: !_typeName(type(of: layer), qualified: true).hasPrefix("QuartzCore."))
        entries.withLock { $0[id] = entry }
        return entry
    }

    /// The `@Animatable` properties of `layer`, by key, its class's and its superclasses'.
    static func storages(of layer: CALayer) -> [(key: String, storage: AnimatablePropertyStorage)] {
        var found: [(key: String, storage: AnimatablePropertyStorage)] = []
        var mirror: Mirror? = Mirror(reflecting: layer)
        while let m = mirror {
            for child in m.children {
                guard let storage = child.value as? AnimatablePropertyStorage, let label = child.label else { continue }
                found.append((label.hasPrefix("_") ? String(label.dropFirst()) : label, storage))
            }
            mirror = m.superclassMirror
        }
        return found
    }
}

extension CALayer {
    /// Called by `CALayer`'s initializers for every class but `CALayer` itself: gives each
    /// `@Animatable` property its key and, where the layer has no value for it yet (a new
    /// layer, not a copy), stores its initial value.
    func adoptAnimatableProperties() {
        let entry = AnimatablePropertyCatalog.entry(for: self)
        makesFreshPresentationCopies = entry.isAppClass
        guard !entry.keys.isEmpty else { return }
        for (key, storage) in AnimatablePropertyCatalog.storages(of: self) {
            storage.slot.key = key
            if extraValues[key] == nil, let initial = storage.initialAny { extraValues[key] = initial }
        }
    }

    /// Whether `key` names an `@Animatable` property of this layer's class.
    func isAnimatableCustomKey(_ key: String) -> Bool {
        type(of: self) != CALayer.self && AnimatablePropertyCatalog.entry(for: self).keys.contains(key)
    }

    /// Citrine extension for renderers: whether the layer's drawn content (`draw(in:)`) follows
    /// its animations — one of them animates a key for which `needsDisplay(forKey:)` is true, so
    /// the presentation copy is to be drawn at every frame (Apple redraws the presentation layer
    /// for such keys while they animate).
    public var _drawsAnimatedContent: Bool {
        guard !animationStore.isEmpty else { return false }
        let layerClass = type(of: self)
        func displays(_ animation: CAAnimation) -> Bool {
            if let group = animation as? CAAnimationGroup { return (group.animations ?? []).contains(where: displays) }
            guard let keyPath = (animation as? CAPropertyAnimation)?.keyPath else { return false }
            return layerClass.needsDisplay(forKey: ParsedKeyPath(keyPath).head)
        }
        return animationStore.entries.contains { displays($0.animation) }
    }
}
