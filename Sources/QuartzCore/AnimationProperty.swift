import Foundation

/// One key-value-coded animation property: how `value(forKey:)` reads it and
/// `setValue(_:forKey:)` writes it. Each animation class lists its properties under Apple's key
/// names (`removedOnCompletion`, `additive`, `cumulative` for the Boolean ones) in
/// `animationProperties`, a subclass's table extending its superclass's; keys in no table go to
/// the animation's free-form storage, as on Apple.
///
/// Values are stored as given (`fromValue`, `values` keep their boxes); numbers convert between
/// the Swift number types and `NSNumber`, raw-string types accept their `String` and read back
/// as it (Apple's constants are `NSString`s), and a value that does not convert is ignored.
public struct AnimationProperty: @unchecked Sendable {
    let get: (CAAnimation) -> Any?
    /// nil for read-only properties (`settlingDuration`).
    let set: ((CAAnimation, Any?) -> Void)?

    init<A: CAAnimation, V>(_ keyPath: ReferenceWritableKeyPath<A, V>, _ conversion: KVCConversion<V>) {
        get = { ($0 as? A).map { conversion.box($0[keyPath: keyPath]) } ?? nil }
        set = { animation, value in
            guard let a = animation as? A, let v = conversion.unbox(value) else { return }
            a[keyPath: keyPath] = v
        }
    }

    /// A read-only property.
    init<A: CAAnimation, V>(readOnly keyPath: KeyPath<A, V>, _ conversion: KVCConversion<V>) {
        get = { ($0 as? A).map { conversion.box($0[keyPath: keyPath]) } ?? nil }
        set = nil
    }
}

/// How one Swift property type is boxed for key-value coding and unboxed from what callers pass.
struct KVCConversion<V> {
    let box: (V) -> Any?
    let unbox: (Any?) -> V?
}

extension KVCConversion {
    /// Stored and returned as is; a value of another type is ignored.
    static var same: KVCConversion { KVCConversion(box: { $0 }, unbox: { $0 as? V }) }
}

extension KVCConversion where V: BinaryFloatingPoint {
    /// Any number (Swift number types, `NSNumber`).
    static var number: KVCConversion {
        KVCConversion(box: { $0 }, unbox: { v in
            if case let .number(n) = AnimatableValue(v) { return V(n) }
            return nil
        })
    }
}

extension KVCConversion where V == Bool {
    /// A `Bool`, or a number (non-zero is true), as `NSNumber` booleans arrive.
    static var bool: KVCConversion {
        KVCConversion(box: { $0 }, unbox: { v in
            if let b = v as? Bool { return b }
            if case let .number(n) = AnimatableValue(v) { return n != 0 }
            return nil
        })
    }
}

extension KVCConversion where V: RawRepresentable, V.RawValue == String {
    /// Apple's string constants: read as the raw `String`, written from one or from the type.
    static var rawString: KVCConversion {
        KVCConversion(box: { $0.rawValue }, unbox: { v in (v as? V) ?? (v as? String).flatMap(V.init(rawValue:)) })
    }
}

extension KVCConversion where V == [NSNumber] {
    /// An array of numbers (`keyTimes`): `NSNumber`s or Swift numbers; nil when an element is no number.
    static var numbers: KVCConversion {
        KVCConversion(box: { $0 }, unbox: { v in
            guard let items = v as? [Any] else { return nil }
            var numbers: [NSNumber] = []
            for item in items {
                guard case let .number(n) = AnimatableValue(item) else { return nil }
                numbers.append(item as? NSNumber ?? NSNumber(value: n))
            }
            return numbers
        })
    }
}

extension KVCConversion {
    /// An optional property: nil (or `NSNull`) clears it, anything else converts as `wrapped`.
    static func optional<W>(_ wrapped: KVCConversion<W>) -> KVCConversion<W?> where V == W? {
        KVCConversion<W?>(box: { $0.flatMap(wrapped.box) }, unbox: { v in
            if v == nil || v is NSNull { return .some(nil) }
            return wrapped.unbox(v).map { .some($0) }
        })
    }
}
