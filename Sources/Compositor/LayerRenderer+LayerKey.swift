import QuartzCore

extension LayerRenderer {
    /// A layer's identity as the key of a footprint table (`Footprints`). It hashes the layer's
    /// address with one multiplication (Fibonacci hashing, folded so that the low bits a
    /// dictionary's buckets use depend on every address bit) instead of `ObjectIdentifier`'s
    /// SipHash: a frame looks its layers up two or three times each, and with 1 000 layers the
    /// hashing was 6 % of a frame in which one of them moved (layer-storm-bench, callgrind).
    /// Addresses are not chosen by an adversary, so the weaker hash costs no safety.
    struct LayerKey: Hashable {
        let id: ObjectIdentifier

        init(_ layer: CALayer) { id = ObjectIdentifier(layer) }
        init(id: ObjectIdentifier) { self.id = id }

        func hash(into hasher: inout Hasher) { hasher.combine(id) }

        func _rawHashValue(seed: Int) -> Int {
            let product = (UInt64(UInt(bitPattern: id)) ^ UInt64(UInt(bitPattern: seed))) &* 0x9E37_79B9_7F4A_7C15
            return Int(truncatingIfNeeded: product ^ (product >> 32))
        }
    }

    /// Footprints by layer: a frame's (`footprints(of:at:reusing:)`).
    typealias Footprints = [LayerKey: Footprint]
}
