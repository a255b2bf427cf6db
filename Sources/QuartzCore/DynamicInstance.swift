import CClassRuntime
import Synchronization

/// Instances of classes known only at run time: what Core Animation gets from the Objective-C
/// runtime (`[[layer class] alloc] initWithLayer:]` for presentation copies, `[[layerClass
/// alloc] init]` in UIKit) and Swift gives only for `required` initializers. Apple's `init()` and
/// `init(layer:)` are not `required` — an app's subclass may declare initializers of its own and
/// `required init?(coder:)` only, as iOS code does — so Citrine makes such instances through the
/// Swift runtime (`CClassRuntime`): it calls the class's vtable entry for the initializer.
///
/// Copies: Swift gives a class that declares initializers of its own a vtable entry for each
/// superclass initializer it does not inherit — a stub that traps ("Use of unimplemented
/// initializer"), under the same symbol an explicit override would have — so nothing in the
/// metadata tells whether an app's class has an `init(layer:)`. Citrine finds out once per class
/// by calling it in a forked child process (`citrine_returns_in_child`): a class whose call
/// returns there has one, its own or inherited, and its copies are made through it, as on Apple;
/// for one whose call traps (the stub), Citrine makes the copy instead of trapping as Apple
/// does: its Core Animation class below it makes a template through its `init(layer:)`, and the
/// new instance takes the template's stored properties (Core Animation's) and the source's
/// stored properties of every class below (the app's) — what an `init(layer:)` that copies its
/// properties, Apple's documented use of it, gives.
enum DynamicInstance {
    /// How a stored property is copied: by its type's value witness, or as a weak or unowned
    /// reference (their storage differs from a strong one's).
    enum Ownership { case strong, weak, unowned }

    struct Field: @unchecked Sendable {
        let offset: Int
        let type: Any.Type
        let ownership: Ownership
    }

    /// Per class: its stored properties, its superclasses' included, in layout order.
    private static let layouts = Mutex<[ObjectIdentifier: [Field]]>([:])

    /// A new instance of `source`'s class whose stored properties are copies of `template`'s
    /// where `template`'s class declares them (it and its superclasses) and copies of
    /// `source`'s elsewhere. `template` is an instance of a superclass of `source`'s class.
    static func copy<Object: AnyObject>(of source: Object, over template: Object) -> Object {
        let sourceClass: AnyClass = type(of: source)
        let templateEnd = citrine_class_instance_size(metadata(of: type(of: template)))
        let object = citrine_class_alloc_instance(metadata(of: sourceClass))!
        let sourceBase = Unmanaged.passUnretained(source).toOpaque()
        let templateBase = Unmanaged.passUnretained(template).toOpaque()
        for field in fields(of: sourceClass) {
            let from = field.offset < templateEnd ? templateBase : sourceBase
            copyField(field, from: from + field.offset, to: object + field.offset)
        }
        return Unmanaged<Object>.fromOpaque(object).takeRetainedValue()
    }

    /// Whether `cls` (an app's subclass of a QuartzCore layer class) has an `init(layer:)`,
    /// its own or inherited, rather than Swift's trapping stub: found once per class by calling
    /// it with `layer` in a forked child (2 s at most; a child that does not return in time —
    /// another thread held a lock the call needs when the process forked — counts as the stub).
    static func hasInitLayer(_ cls: CALayer.Type, trying layer: CALayer) -> Bool {
        let id = ObjectIdentifier(cls)
        if let known = initLayerFound.withLock({ $0[id] }) { return known }
        var trial: (CALayer.Type, CALayer) = (cls, layer)
        let found = withUnsafeMutablePointer(to: &trial) { pointer in
            citrine_returns_in_child({ context in
                let (cls, layer) = context!.assumingMemoryBound(to: (CALayer.Type, CALayer).self).pointee
                _ = DynamicInstance.layerCallingInitLayer(cls, copying: layer)
            }, pointer, 2000) == 1
        }
        initLayerFound.withLock { $0[id] = found }
        return found
    }

    private static let initLayerFound = Mutex<[ObjectIdentifier: Bool]>([:])

    /// `[[cls alloc] initWithLayer:layer]` for a `CALayer` subclass: its vtable entry for
    /// `init(layer:)`.
    static func layerCallingInitLayer(_ cls: CALayer.Type, copying layer: CALayer) -> CALayer {
        let argument = UnsafeMutablePointer<Any>.allocate(capacity: 1)
        argument.initialize(to: layer)
        defer { argument.deallocate() }   // the call took the value
        return Unmanaged<CALayer>.fromOpaque(citrine_layer_alloc_init_layer(metadata(of: cls), argument)).takeRetainedValue()
    }

    /// `[[cls alloc] init]` for a `CALayer` subclass: its own `init()`.
    static func layerCallingInit(_ cls: CALayer.Type) -> CALayer {
        Unmanaged<CALayer>.fromOpaque(citrine_layer_alloc_init(metadata(of: cls))).takeRetainedValue()
    }

    /// `[[cls alloc] init]` for a `CAAnimation` subclass: its own `init()`.
    static func animationCallingInit(_ cls: CAAnimation.Type) -> CAAnimation {
        Unmanaged<CAAnimation>.fromOpaque(citrine_animation_alloc_init(metadata(of: cls))).takeRetainedValue()
    }

    private static func metadata(of cls: AnyClass) -> UnsafeRawPointer {
        unsafeBitCast(cls, to: UnsafeRawPointer.self)
    }

    private static func copyField(_ field: Field, from source: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer) {
        switch field.ownership {
        case .strong:
            func copy<T>(_: T.Type) {
                destination.assumingMemoryBound(to: T.self).initialize(to: source.assumingMemoryBound(to: T.self).pointee)
            }
            copy(field.type)
        case .weak:
            // A weak reference, then (for a class-bound protocol) its witness tables.
            citrine_weak_copy_init(destination, source)
            let size = size(of: field.type), word = MemoryLayout<UnsafeRawPointer>.size
            if size > word { (destination + word).copyMemory(from: source + word, byteCount: size - word) }
        case .unowned:
            let reference = source.load(as: UnsafeMutableRawPointer?.self)
            citrine_unowned_retain(reference)
            destination.storeBytes(of: reference, as: UnsafeMutableRawPointer?.self)
            let size = size(of: field.type), word = MemoryLayout<UnsafeRawPointer>.size
            if size > word { (destination + word).copyMemory(from: source + word, byteCount: size - word) }
        }
    }

    private static func size(of type: Any.Type) -> Int {
        func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
        return size(type)
    }

    /// The stored properties of `cls` and its superclasses, from the Swift runtime's reflection
    /// (the same calls `Mirror` makes), once per class.
    static func fields(of cls: AnyClass) -> [Field] {
        let id = ObjectIdentifier(cls)
        if let known = layouts.withLock({ $0[id] }) { return known }
        var found: [Field] = []
        for index in 0..<reflectionChildCount(cls) {
            var record = FieldRecord()
            let type = reflectionChildMetadata(cls, index: index, fieldMetadata: &record)
            record.freeFunc?(record.name)
            let ownership: Ownership = record.isStrong ? .strong : (type is OptionalMarker.Type ? .weak : .unowned)
            found.append(Field(offset: reflectionChildOffset(cls, index: index), type: type, ownership: ownership))
        }
        layouts.withLock { $0[id] = found }
        return found
    }
}

/// `Optional`, whatever it wraps: a non-strong optional property is `weak`.
private protocol OptionalMarker {}
extension Optional: OptionalMarker {}

/// The Swift runtime's record of one stored property (`_FieldReflectionMetadata` in the
/// standard library's ReflectionMirror.swift, filled by the calls below).
private struct FieldRecord {
    var name: UnsafePointer<CChar>? = nil
    var freeFunc: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong = false
    var isVar = false
}

// The Swift runtime's reflection of a class's stored properties, superclasses' included (the
// entry points the standard library's `Mirror` and `_forEachField` use).
@_silgen_name("swift_reflectionMirror_recursiveCount")
private func reflectionChildCount(_ type: Any.Type) -> Int
@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func reflectionChildMetadata(_ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<FieldRecord>) -> Any.Type
@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func reflectionChildOffset(_ type: Any.Type, index: Int) -> Int
