import Foundation

/// The layer tree: adding, inserting, replacing and removing sublayers (cycles refused, as on Apple).
extension CALayer {
    // MARK: - Tree

    func isAncestor(of layer: CALayer) -> Bool {
        var l: CALayer? = layer
        while let c = l {
            if c === self { return true }
            l = c.superlayer
        }
        return false
    }

    /// Appends `layer`. Adding an ancestor (which would make a cycle) is refused and does nothing
    /// (Apple raises an exception).
    public func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(sublayerStorage.count))
    }

    public func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        guard !layer.isAncestor(of: self) else { return }
        layer.removeFromSuperlayer()
        let i = min(Int(idx), sublayerStorage.count)
        CATransaction.sublayersWillChange(self)
        sublayerStorage.insert(layer, at: i)
        layer.parent = .passUnretained(self)
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
        guard let i = sublayerStorage.firstIndex(where: { $0 === oldLayer }), !newLayer.isAncestor(of: self) else { return }
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: UInt32(i))
    }

    public func removeFromSuperlayer() {
        guard let s = superlayer else { return }
        CATransaction.sublayersWillChange(s)
        s.sublayerStorage.removeAll { $0 === self }
        parent = nil
        s.setNeedsLayout()
    }
}
