import Foundation

/// Key-value coding over the property registry and animatable values at key paths.
extension CALayer {
    // MARK: - Key-value coding

    func value(at path: ParsedKeyPath) -> Any? {
        guard path.hasSubpath else { return value(forKey: path.head) }
        return path.get(AnimatableValue(value(forKey: path.head)))?.value
    }

    func setValue(_ value: Any?, at path: ParsedKeyPath) {
        guard path.hasSubpath else { return setValue(value, forKey: path.head) }
        setAnimatableValue(AnimatableValue(value), at: path)
    }

    /// Typed key-path access for animations of properties outside `LayerState`.
    func animatableValue(at path: ParsedKeyPath) -> AnimatableValue {
        let whole = type(of: self).propertyRegistry[path.head]?.getValue(self) ?? AnimatableValue(extraValues[path.head])
        return path.get(whole) ?? .discrete(nil)
    }

    func setAnimatableValue(_ value: AnimatableValue, at path: ParsedKeyPath) {
        guard let property = type(of: self).propertyRegistry[path.head] else {
            if !path.hasSubpath { extraValues[path.head] = value.value }
            return
        }
        guard let updated = path.set(property.getValue(self), value) else { return }
        property.setValue(self, updated)
    }
}
