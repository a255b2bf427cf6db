import QuartzCore
import Raster

/// Damage tracking: which part of the previous frame a change invalidates.
///
/// After each frame the renderer remembers, for every layer, a *footprint*: its device box, what
/// its pixels depend on (`LeafKey`), its opacity and its place in the drawing order. When only
/// plain layers are in the tree (no masks, shadows, subclasses, custom drawing or perspective),
/// the next frame compares footprints: the damaged area is the union of the old and new boxes of
/// every layer whose footprint changed, appeared or disappeared. `CARenderer` then redraws just
/// that rectangle. Any other tree gives nil, and the whole frame is redrawn.
extension LayerRenderer {
    struct Footprint: Equatable {
        var box: LayerGeometry.IntBox
        var key: LeafKey
        var opacity: Float
        /// Drawing-order position: parent's identity and index among its sublayers.
        var parent: ObjectIdentifier?
        var index: Int
    }

    /// Footprints of every drawn layer of `root` at `time`, or nil when the tree holds anything
    /// damage tracking does not model.
    func footprints(of root: CALayer, at time: CFTimeInterval) -> [ObjectIdentifier: Footprint]? {
        var out: [ObjectIdentifier: Footprint] = [:]
        let base = CATransform3DMakeScale(scale, scale, 1)
        func visit(_ model: CALayer, _ parentMatrix: CATransform3D, _ parent: CALayer?, _ parentID: ObjectIdentifier?,
                   _ index: Int, _ depth: Int) -> Bool {
            guard depth < 64 else { return false }
            guard type(of: model) == CALayer.self, model.delegate == nil, model.mask == nil else { return false }
            guard let (p, matrix) = placement(model, parentMatrix: parentMatrix, parentPresentation: parent, time: time) else {
                return true   // hidden, transparent or culled: draws nothing
            }
            guard p.shadowOpacity == 0, p.contents == nil || p.contents is CGImage,
                  let affine = LayerGeometry.affine(matrix), let rs = LayerRenderer.rasterScale(affine) else { return false }
            guard let box = LayerGeometry.deviceBox(p.bounds, matrix, margin: 2) else { return false }
            let id = ObjectIdentifier(model)
            out[id] = Footprint(box: box, key: LeafKey(p, rasterScale: rs), opacity: p.opacity, parent: parentID, index: index)
            for (i, child) in drawingOrder(model, p, time: time).enumerated() {
                guard visit(child, matrix, p, id, i, depth + 1) else { return false }
            }
            return true
        }
        return visit(root, base, nil, nil, 0, 0) ? out : nil
    }

    /// The union of the boxes of every layer whose footprint differs between `old` and `new`.
    static func damage(from old: [ObjectIdentifier: Footprint], to new: [ObjectIdentifier: Footprint]) -> LayerGeometry.IntBox {
        var area = LayerGeometry.IntBox(x0: 0, y0: 0, x1: 0, y1: 0)
        for (id, before) in old where new[id] != before {
            area = area.union(before.box)
            if let after = new[id] { area = area.union(after.box) }
        }
        for (id, after) in new where old[id] == nil { area = area.union(after.box) }
        return area
    }
}
