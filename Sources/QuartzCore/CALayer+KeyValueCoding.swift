import Foundation

/// Key-value coding over the property registry and animatable values at key paths.
extension CALayer {
    // MARK: - Key-value coding

    func value(at path: ParsedKeyPath) -> Any? {
        guard path.hasSubpath else { return value(forKey: path.head) }
        if let nested = nestedValue(at: path) { return nested.value }
        return path.get(AnimatableValue(value(forKey: path.head)))?.value
    }

    func setValue(_ value: Any?, at path: ParsedKeyPath) {
        guard path.hasSubpath else { return setValue(value, forKey: path.head) }
        setAnimatableValue(AnimatableValue(value), at: path)
    }

    /// The value of a key path into an object the layer holds (`emitterCells.<name>.<key>`).
    private func nestedValue(at path: ParsedKeyPath) -> AnimatableValue? {
        guard path.component == nil else { return nil }
        if let input = filterValue(at: path.keyPath[...]) { return input }
        guard let nesting = self as? NestedKeyValueCoding else { return nil }
        return nesting.nestedValue(at: path.keyPath[...])
    }

    /// Typed key-path access for animations of properties outside `LayerState`.
    func animatableValue(at path: ParsedKeyPath) -> AnimatableValue {
        if path.hasSubpath, let nested = nestedValue(at: path) { return nested }
        let whole = type(of: self).propertyRegistry[path.head]?.getValue(self) ?? AnimatableValue(extraValues[path.head])
        return path.get(whole) ?? .discrete(nil)
    }

    func setAnimatableValue(_ value: AnimatableValue, at path: ParsedKeyPath) {
        if path.hasSubpath, path.component == nil, setFilterValue(value, at: path.keyPath[...]) { return }
        if path.hasSubpath, path.component == nil, let nesting = self as? NestedKeyValueCoding,
           nesting.setNestedValue(value, at: path.keyPath[...]) { return }
        guard let property = type(of: self).propertyRegistry[path.head] else {
            if !path.hasSubpath { extraValues[path.head] = value.value }
            return
        }
        guard let updated = path.set(property.getValue(self), value) else { return }
        property.setValue(self, updated)
    }
}

/// A layer whose key paths reach into objects it holds, beyond `ValueComponent`'s fields of a
/// value (`CAEmitterLayer`: `emitterCells.<name>.<key>`).
protocol NestedKeyValueCoding: CALayer {
    /// The value at `keyPath` (the whole path, head included); nil when it names nothing.
    func nestedValue(at keyPath: Substring) -> AnimatableValue?
    /// Writes the value at `keyPath`; false when it names nothing.
    func setNestedValue(_ value: AnimatableValue, at keyPath: Substring) -> Bool
}
