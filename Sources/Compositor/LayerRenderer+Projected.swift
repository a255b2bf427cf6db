import QuartzCore
import Raster

/// The flat bitmaps of layers drawn under perspective, kept across frames.
///
/// A layer whose matrix has perspective has each of its parts drawn flat into a layer-space
/// bitmap, at the renderer's scale, which is then warped onto the target (`drawProjected`). That
/// bitmap depends on the layer's own properties and the scale only, not on the matrix: a card
/// flipping or a cube turning (Apple's 3D transform examples; the cube demo) has the same
/// bitmaps in every frame. So the bitmaps of a layer's own content and of its border are kept,
/// as an affine leaf's are (`Leaves`: the same budget, dropped with their layer), and each frame
/// only warps them. A kept bitmap has the pixels a fresh one would have (the same drawing into a
/// transparent bitmap of the same size), so the frames have the same bytes as when each was drawn
/// anew. Parts whose pixels do not follow from the layer's `LeafKey` (`pixelsFollowKey`: content
/// drawn by the app, a mask, a shadow) are drawn anew at each frame, as are shadows.
extension LayerRenderer {
    /// A part's kept flat bitmap (a class: bands log it and the merge marks it seen).
    final class ProjectedPart {
        /// Which layer and which of its parts.
        struct ID: Hashable {
            let layer: ObjectIdentifier
            let part: Part
        }

        /// The parts of a layer drawn flat on their own (its border lies over its sublayers).
        enum Part: Hashable {
            case content, border
        }

        let key: LeafKey
        /// The layer rectangle the bitmap covers (`drawProjected`'s `area`).
        let area: CGRect
        let pixmap: Pixmap
        /// The bitmap's texels inside the layer's rounded corners, when they hold one colour (a
        /// solid background): the warp blends it there without sampling (`Pixmap.drawTexture`'s
        /// `uniformInside`), so a kept bitmap is read only near its edges.
        let uniform: UniformTexels?
        /// The `_serial` of the layer it belongs to (an identifier alone could be reused).
        let owner: UInt64
        /// The last frame that showed it (`Leaves.frame`).
        var lastFrame: Int

        init(key: LeafKey, area: CGRect, pixmap: Pixmap, uniform: UniformTexels?, owner: UInt64, lastFrame: Int) {
            self.key = key
            self.area = area
            self.pixmap = pixmap
            self.uniform = uniform
            self.owner = owner
            self.lastFrame = lastFrame
        }
    }

    /// The kept flat bitmap of `model`'s `part` (`p` its presentation) covering `area` in a
    /// `width`×`height` bitmap: the one kept when the layer's key and area are unchanged, else one
    /// drawn now by `draw` and offered for keeping (in a band, logged for the frame's merge,
    /// `BandLog`). nil — the caller then draws into an offscreen surface, as for any frame —
    /// when the renderer keeps nothing (`Leaves.retains`), the part's pixels do not follow from
    /// the key, or the bitmap is over the size or budget of kept bitmaps.
    func keptProjection(_ part: ProjectedPart.Part, of model: CALayer, _ p: CALayer, area: CGRect, width: Int, height: Int,
                        draw: (Pixmap) -> Void) -> ProjectedPart? {
        guard leaves.retains, Self.pixelsFollowKey(model, p) else { return nil }
        let id = ProjectedPart.ID(layer: ObjectIdentifier(model), part: part)
        let values = LeafKey.Values(p, rasterScale: scale)
        guard values.contentsDrawable else { return nil }
        if let old = leaves.projected[id], old.owner == model._serial, old.area == area, old.key.values == values {
            if let bandLog { bandLog.projectedShown.append(old) } else { old.lastFrame = leaves.frame }
            return old
        }
        // Within the budget, counting what this band has made in this frame: a band holds its
        // bitmaps until the merge.
        let cost = Leaves.cost(width: width, height: height)
        guard mayRetain(width: CGFloat(width), height: CGFloat(height)),
              leaves.heldPixels + (bandLog?.projectedPixels ?? 0) + cost <= leaves.maxHeldPixels,
              let fresh = try? Pixmap(width: width, height: height) else { return nil }
        drawingWithTargetScratch(fresh) { draw(fresh) }
        let uniform = part == .content ? Self.uniformInside(p, area: area, of: fresh, pixelsPerPoint: Double(scale)) : nil
        let made = ProjectedPart(key: LeafKey(values), area: area, pixmap: fresh, uniform: uniform, owner: model._serial,
                                 lastFrame: leaves.frame)
        if let bandLog {
            bandLog.projectedMade.append((id, made))
            bandLog.projectedPixels += cost
        } else {
            leaves.projections += 1
            leaves.retain(made, for: id)
        }
        return made
    }

    /// The texels of `bitmap` (`p`'s content drawn over `area` at `pixelsPerPoint`, as
    /// `drawProjected` draws it) inside the bounds inset by the corner radius and a pixel, when
    /// they hold one colour. The texels are read, not assumed: that rectangle is where a solid
    /// background is expected to cover whole pixels (the cube demo's faces, circular and
    /// continuous corners); contents or a drawing over it leave texels that differ, and then none.
    static func uniformInside(_ p: CALayer, area: CGRect, of bitmap: Pixmap, pixelsPerPoint s: Double) -> UniformTexels? {
        let inset = Double(min(p.cornerRadius, min(p.bounds.width, p.bounds.height) / 2)) + 1 / s
        let x0 = Double(area.minX) - 1 / s, y0 = Double(area.minY) - 1 / s
        func pixels(_ lo: CGFloat, _ hi: CGFloat, origin: Double) -> Range<Int>? {
            let a = ((Double(lo) + inset - origin) * s).rounded(.up), b = ((Double(hi) - inset - origin) * s).rounded(.down)
            guard a.isFinite, b.isFinite, a < b, a >= 0, b <= Double(Pixmap.maxDimension) else { return nil }
            return Int(a)..<Int(b)
        }
        guard let columns = pixels(p.bounds.minX, p.bounds.maxX, origin: x0),
              let rows = pixels(p.bounds.minY, p.bounds.maxY, origin: y0) else { return nil }
        return UniformTexels(of: bitmap, columns: columns, rows: rows)
    }
}
