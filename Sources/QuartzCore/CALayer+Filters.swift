import Foundation

/// A layer's filter properties, stored together (`LayerState.filterSet`, nil while all three are
/// nil, so that a renderer tells a layer without filters by one read of one reference: a struct
/// holding an `Any?` is copied out of the state through value witnesses, ≈ 400 instructions
/// per layer per frame). Immutable: a change stores a new one.
final class LayerFilterSet {
    let filters: [Any]?
    let backgroundFilters: [Any]?
    let compositingFilter: Any?

    init(filters: [Any]?, backgroundFilters: [Any]?, compositingFilter: Any?) {
        self.filters = filters
        self.backgroundFilters = backgroundFilters
        self.compositingFilter = compositingFilter
    }

    /// The set with the given lists changed (nil when all three end up nil).
    func with(filters: [Any]?? = .none, backgroundFilters: [Any]?? = .none, compositingFilter: Any?? = .none) -> LayerFilterSet? {
        LayerFilterSet.make(filters ?? self.filters, backgroundFilters ?? self.backgroundFilters,
                            compositingFilter ?? self.compositingFilter)
    }

    static func make(_ filters: [Any]?, _ backgroundFilters: [Any]?, _ compositingFilter: Any?) -> LayerFilterSet? {
        filters == nil && backgroundFilters == nil && compositingFilter == nil ? nil
            : LayerFilterSet(filters: filters, backgroundFilters: backgroundFilters, compositingFilter: compositingFilter)
    }
}

/// For Citrine's renderer (package, not API): a layer's filters as the compositor applies them.
package struct _LayerEffects {
    /// `filters`, enabled and known, in order: applied to the layer and its sublayers.
    package var filters: [_FilterEffect]
    /// `backgroundFilters`, enabled and known, in order: applied to what is behind the layer.
    package var backgroundFilters: [_FilterEffect]
    /// From `compositingFilter`: the blend mode the layer is composited with (nil: normal).
    package var blendMode: CGBlendMode?
}

extension CALayer {
    /// Filters applied to the layer and its sublayers, drawn offscreen as one group, before the
    /// group is composited (Apple: "An array of Core Image filters to apply to the contents of
    /// the layer and its sublayers"). Default nil. Elements: `CAFilter` (iOS, CAML) or `CIFilter`
    /// (macOS); other values and filters the compositor does not draw are skipped. The layer's
    /// shadow is cast from the filtered group (as WebKit relies on when it maps CSS filters onto
    /// Core Animation filters plus the layer shadow). Inputs animate through key paths
    /// `filters.<name>.<input>`. A CATransformLayer ignores it, as Apple documents.
    public var filters: [Any]? {
        get { state.filterSet?.filters }
        set { updateFilterSet("filters") { $0.with(filters: .some(newValue)) } }
    }

    /// Filters applied to what is behind the layer, within its rounded bounds, before the layer
    /// is drawn over it (Apple: "the content immediately behind the layer"; Apple's
    /// documentation adds that iOS does not support it on layers — Citrine applies it, as macOS
    /// does). Default nil. Key paths `backgroundFilters.<name>.<input>`.
    public var backgroundFilters: [Any]? {
        get { state.filterSet?.backgroundFilters }
        set { updateFilterSet("backgroundFilters") { $0.with(backgroundFilters: .some(newValue)) } }
    }

    /// How the layer (with its sublayers, as one group) is composited onto what is behind it
    /// (Apple: "A CoreImage filter used to composite the layer and the content behind it").
    /// Default nil (source-over). Accepted: a compositing `CAFilter` or `CIFilter`, or its name
    /// as a string — `"multiplyBlendMode"`, `"screenBlendMode"`, `"overlayBlendMode"`, … (the
    /// strings iOS code and lottie-ios assign), `"CIMultiplyBlendMode"`, …, and the Porter-Duff
    /// names (`"sourceIn"`, `"destOut"`, `"plusL"`, …): see `CAFilter.filterTypes`. Each maps
    /// onto the `CGBlendMode` of the same name, with the W3C Compositing and Blending formulas.
    /// Anything else composites normally.
    public var compositingFilter: Any? {
        get { state.filterSet?.compositingFilter }
        set { updateFilterSet("compositingFilter") { $0.with(compositingFilter: .some(newValue)) } }
    }

    private func updateFilterSet(_ key: String, _ change: (LayerFilterSet) -> LayerFilterSet?) {
        let old = value(forKey: key)
        state.filterSet = change(state.filterSet ?? LayerFilterSet(filters: nil, backgroundFilters: nil, compositingFilter: nil))
        changed(key, old as Any)
    }

    /// Citrine extension for renderers: the filters in effect, or nil when none changes the
    /// picture (no filter set, or only disabled, unknown or normal ones).
    package var _effects: _LayerEffects? {
        guard let set = state.filterSet else { return nil }
        let effects = _LayerEffects(filters: Self.effects(set.filters), backgroundFilters: Self.effects(set.backgroundFilters),
                                    blendMode: Self.blendMode(set.compositingFilter))
        guard !effects.filters.isEmpty || !effects.backgroundFilters.isEmpty || effects.blendMode != nil else { return nil }
        return effects
    }

    /// The drawable (non-compositing) effects of a filter list, in order.
    private static func effects(_ list: [Any]?) -> [_FilterEffect] {
        (list ?? []).compactMap { item -> _FilterEffect? in
            guard let effect = (item as? _LayerFilter)?._effect else { return nil }
            if case .composite = effect { return nil }
            return effect
        }
    }

    /// The blend mode of a compositing filter (a filter or its name); nil for normal or unknown.
    private static func blendMode(_ filter: Any?) -> CGBlendMode? {
        let effect = (filter as? _LayerFilter)?._effect ?? (filter as? String).flatMap { FilterKind(named: $0)?.resolve(FilterInputs(values: [:])) }
        guard case let .composite(mode) = effect, mode != .normal else { return nil }
        return mode
    }

    // MARK: - Key paths into filters

    /// The filter list a key path starts with, the filter it names and the rest (the input key):
    /// `filters.<name>.<input>` or `backgroundFilters.<name>.<input>`; nil otherwise.
    private func filterPath(_ keyPath: Substring) -> (list: String, index: Int, key: Substring?)? {
        let parts = keyPath.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "filters" || parts[0] == "backgroundFilters" else { return nil }
        let list = parts[0] == "filters" ? filters : backgroundFilters
        guard let index = list?.firstIndex(where: { ($0 as? _LayerFilter)?.name == String(parts[1]) }) else { return nil }
        return (String(parts[0]), index, parts.count > 2 ? parts[2] : nil)
    }

    /// The value at `filters.<name>.<input>` (or the filter, for `filters.<name>`).
    func filterValue(at keyPath: Substring) -> AnimatableValue? {
        guard let (list, index, key) = filterPath(keyPath),
              let filter = (list == "filters" ? filters : backgroundFilters)?[index] as? _LayerFilter else { return nil }
        guard let key else { return .discrete(filter) }
        return AnimatableValue(filter.value(forKey: String(key)))
    }

    /// Writes `filters.<name>.<input>`; false when the path names no filter input. A presentation
    /// copy first takes its own copies of the model's filters (the model's are never written); a
    /// model's change counts as a change of the layer (transaction, actions for the key path).
    func setFilterValue(_ value: AnimatableValue, at keyPath: Substring) -> Bool {
        guard let (list, index, key) = filterPath(keyPath), let key else { return false }
        var items = (list == "filters" ? filters : backgroundFilters) ?? []
        if let model = modelLayer?.takeUnretainedValue() {
            let modelItems = (list == "filters" ? model.filters : model.backgroundFilters) ?? []
            if index < modelItems.count, modelItems[index] as AnyObject === items[index] as AnyObject {
                items = items.map { ($0 as? _LayerFilter)?.copy() ?? $0 }
                state.filterSet = list == "filters" ? state.filterSet?.with(filters: .some(items))
                                                    : state.filterSet?.with(backgroundFilters: .some(items))
            }
        }
        guard let filter = items[index] as? _LayerFilter else { return false }
        let old = filter.value(forKey: String(key))
        filter.setValue(value.value, forKey: String(key))
        if modelLayer == nil {
            modelVersion &+= 1
            propertyChanged(String(keyPath), old as Any)
        }
        return true
    }
}
