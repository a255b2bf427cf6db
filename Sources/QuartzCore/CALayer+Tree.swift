import Foundation

/// The layer tree: adding, inserting, replacing and removing sublayers (cycles refused, as on Apple).
extension CALayer {
    // MARK: - Tree

    /// Whether this layer is `layer` or above it, through superlayers and the layers masked.
    /// A layer with neither sublayers nor a mask is above no other layer, so a tree built top
    /// down (a new leaf added each time) checks in O(1); otherwise O(depth of `layer`).
    func isAncestor(of layer: CALayer) -> Bool {
        if self === layer { return true }
        guard !sublayerStorage.isEmpty || state.mask != nil else { return false }
        var l: CALayer? = layer
        while let c = l {
            if c === self { return true }
            l = c.superlayer ?? c.maskOwner
        }
        return false
    }

    /// Whether this layer may become `owner`'s mask: it has no superlayer, masks no other layer,
    /// and is neither `owner` nor above it (which would make the tree a cycle).
    func canBeMask(of owner: CALayer) -> Bool {
        superlayer == nil && (maskOwner == nil || maskOwner === owner) && !isAncestor(of: owner)
    }

    /// Appends `layer`. Adding the layer itself or an ancestor (which would make a cycle) is
    /// refused and does nothing (Apple raises an exception); so is adding a layer that is some
    /// layer's mask (Apple: a mask "must not have a superlayer").
    public func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(sublayerStorage.count))
    }

    public func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        guard layer.maskOwner == nil, !layer.isAncestor(of: self) else { return }
        layer.removeFromSuperlayer()
        let i = min(Int(idx), sublayerStorage.count)
        CATransaction.sublayersWillChange(self)
        sublayerStorage.insert(layer, at: i)
        layer.parent = .passUnretained(self)
        // Its subtree's marks now hang below this layer (`layoutIfNeeded` goes down marked paths).
        if layer.needsLayoutFlag || layer.sublayerNeedsLayout { sublayerNeedsLayout = true }
        setNeedsLayout()
    }

    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        guard let sibling, let i = sublayerStorage.firstIndex(where: { $0 === sibling }) else {
            insertSublayer(layer, at: 0)
            return
        }
        let adjust = layer.superlayer === self && (sublayerStorage.firstIndex { $0 === layer } ?? Int.max) < i ? 1 : 0
        insertSublayer(layer, at: UInt32(i - adjust))
    }

    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        guard let sibling, let i = sublayerStorage.firstIndex(where: { $0 === sibling }) else {
            addSublayer(layer)
            return
        }
        let adjust = layer.superlayer === self && (sublayerStorage.firstIndex { $0 === layer } ?? Int.max) < i ? 1 : 0
        insertSublayer(layer, at: UInt32(i + 1 - adjust))
    }

    public func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard let i = sublayerStorage.firstIndex(where: { $0 === oldLayer }), newLayer.maskOwner == nil,
              !newLayer.isAncestor(of: self) else { return }
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: UInt32(i))
    }

    /// Citrine plumbing for renderers: whether `test` holds for this layer or any below it
    /// (sublayers and masks, all levels), in no particular order; stops at the first that
    /// passes. A loop, not recursion (a tree may be 100 000 levels deep), over the
    /// layers borrowed, not retained — a renderer asks every layer at every frame
    /// (layer-storm-bench, S8's 1 000 layers at rest but one: 145 K instructions a frame when the
    /// walk copied each layer's sublayer array, 66 K now, callgrind). `test` must not change the
    /// tree.
    package func _anyLayerInTree(_ test: (CALayer) -> Bool) -> Bool {
        var pending = [Unmanaged.passUnretained(self)]
        while let next = pending.popLast() {
            let passes = next._withUnsafeGuaranteedRef { layer in
                if test(layer) { return true }
                layer.sublayerStorage.withUnsafeBufferPointer { for i in $0.indices { pending.append(.passUnretained($0[i])) } }
                if let mask = layer.state.mask { pending.append(.passUnretained(mask)) }
                return false
            }
            if passes { return true }
        }
        return false
    }

    /// Releases the sublayers without recursion (from `deinit`, `_releaseTreeIteratively`).
    func releaseSubtreeIteratively() {
        _releaseTreeIteratively(below: self) { l in
            let own = l.sublayerStorage
            for s in own { s.parent = nil }
            l.sublayerStorage = []
            return own
        }
    }

    public func removeFromSuperlayer() {
        guard let s = superlayer else { return }
        CATransaction.sublayersWillChange(s)
        s.sublayerStorage.removeAll { $0 === self }
        parent = nil
        s.setNeedsLayout()
    }
}

extension CALayer {
    /// `subs` back to front as Core Animation composites the siblings of a flat tree: by
    /// `zPosition`, equal ones in array order (a stable sort, skipped when all are equal). The
    /// compositor draws in this order (where nothing leans out of the view plane); hit testing
    /// walks it from the front. The stored `zPosition`s are compared, as committed to the render
    /// tree (read without the getter's dynamic dispatch: a renderer orders a parent's sublayers
    /// at every frame, two reads per layer).
    package static func _compositingOrder(_ subs: [CALayer]) -> [CALayer] {
        guard let z = subs.first?._state.zPosition, !subs.allSatisfy({ $0._state.zPosition == z }) else { return subs }
        return subs.enumerated().sorted { ($0.element._state.zPosition, $0.offset) < ($1.element._state.zPosition, $1.offset) }
            .map(\.element)
    }
}
