import QuartzCore
import Raster

/// A frame (or a damaged patch of one) whose first drawing covers it: no clear.
///
/// A full frame starts by filling the target with the renderer's background colour, a write of
/// every pixel (easing.json at 512×512: 45 K of its 518 K instructions a frame, and a megabyte
/// written). When the first layer
/// the frame draws is an opaque rectangle over the whole target — a Lottie composition's
/// background layer, an app's full-screen opaque view — that fill is overwritten before anything
/// reads it, and the frame's bytes are the same without it. This finds that case, exactly, from
/// what the frame will do: the chain of first-drawn layers, and the retained bitmap the leaf at
/// its end will be composited from. A damaged patch (`CARenderer.redraw`), filled the same way
/// before its tree is drawn and copied into the frame, is asked the same question about its own
/// pixels (trim-individually.json: a background over the two moving strokes' box).
extension LayerRenderer {
    /// Whether the first thing `render(root, at: time)` puts on the target (a full frame's or a
    /// patch's, at `origin` of the frame) is one
    /// opaque colour over every pixel, whatever the target held. Followed down the first-drawn
    /// layers from `root`: each above the leaf draws nothing of its own before its sublayers (a
    /// plain layer without background, contents or shadow, or an app's subclass whose kept
    /// drawing is empty, `drawsNothingOfItsClass`), at full opacity, unmasked, unfiltered, not in
    /// a transition, clipping nothing of the target (`clipHoldsCanvas`), its sublayers drawn flat
    /// (`sublayersNeedDepthOrder`); the sublayer it draws first is shown and reaches the target.
    /// The leaf is drawn from its retained bitmap as the last frame left it (`cachedLeaf`'s reuse:
    /// the same key, placed in device orientation at the orientation it was drawn for), whose
    /// worked-out extents make it one opaque rectangle (`TexelExtents.solidRectangle`), at a
    /// whole-pixel offset where it holds the whole target: the composite writes that colour into
    /// every pixel. `footprints`: the frame's, when damage-tracked (their keys are the ones the
    /// drawing uses).
    func firstDrawCoversTarget(_ root: CALayer, at time: CFTimeInterval, footprints: Footprints?) -> Bool {
        guard !usesModelValues, bandLog == nil else { return false }
        switch firstDrawnChain(root, at: time, footprints: footprints, orderingManySiblings: false) {
        case .covers: return true
        case .coversIfDrawnFlat: return firstDrawnChain(root, at: time, footprints: footprints, orderingManySiblings: true) == .covers
        case .doesNot: return false
        }
    }

    /// What `firstDrawnChain` found.
    private enum Cover { case covers, coversIfDrawnFlat, doesNot }

    /// `firstDrawCoversTarget`'s walk. Whether a level's sublayers are drawn in depth order asks
    /// every sublayer: for a level of more than `maxSiblingsOrderedFirst`, only when
    /// `orderingManySiblings` (the walk then runs again once the rest holds: a thousand
    /// siblings none of which covers cost nothing).
    private func firstDrawnChain(_ root: CALayer, at time: CFTimeInterval, footprints: Footprints?,
                                 orderingManySiblings: Bool) -> Cover {
        var model = root, parent: CALayer?, parentMatrix = rootMatrix
        var unordered = false
        for _ in 0..<Self.maxCoverLevels {
            let footprint = footprints?[LayerKey(model)]
            guard footprint.map({ !missesTarget($0) }) ?? true,
                  let (p, matrix) = placement(model, parentMatrix: parentMatrix, parentPresentation: parent, time: time),
                  model._transition(atMediaTime: time) == nil, p._effects == nil, p.opacity >= 1, p.mask == nil,
                  p.shadowOpacity <= 0, p._renderingOptions.isDisjoint(with: Self.offTheCoverWalk)
            else { return .doesNot }
            // A leaf (`cachedLeaf` retains only layers without a sublayer array).
            guard let subs = model.sublayers else {
                guard leafCoversTarget(model, p, matrix: matrix, known: footprint?.picture) else { return .doesNot }
                return unordered ? .coversIfDrawnFlat : .covers
            }
            let drawsNothing = type(of: model) == CALayer.self && Self.drawsNothingOfItsOwn(model, p)
                || drawsNothingOfItsClass(model, p) && (p.backgroundColor?.alpha ?? 0) <= 0 && p.contents == nil
            guard drawsNothing, !p.masksToBounds || Self.clipHoldsCanvas(p, matrix: matrix, canvas: target),
                  let first = subs.count == 1 ? subs.first : drawingOrder(model, p, time: time).first else { return .doesNot }
            if subs.count <= Self.maxSiblingsOrderedFirst || orderingManySiblings {
                guard !sublayersNeedDepthOrder(subs, p, time: time) else { return .doesNot }
            } else {
                unordered = true
            }
            (model, parent, parentMatrix) = (first, p, matrix)
        }
        return .doesNot
    }

    /// Sublayers `firstDrawnChain` asks about depth order on its first walk.
    static let maxSiblingsOrderedFirst = 16

    /// Levels `firstDrawCoversTarget` follows down (a Lottie background sits three or four deep).
    static let maxCoverLevels = 32

    /// Rendering options under which the cover walk gives up: aliased edges, `shouldRasterize`,
    /// and opacity applied to each part (`allowsGroupOpacity == false`).
    /// (Raw values, as `offThePlainPath`.)
    static let offTheCoverWalk = CALayer._RenderingOptions(rawValue: offThePlainPath.rawValue
                                                                     | CALayer._RenderingOptions.ungroupedOpacity.rawValue)

    /// Whether leaf `model` (presented as `p`, layer → target `matrix`) will be composited from
    /// its retained bitmap unchanged, one opaque rectangle over the whole target at a whole-pixel
    /// offset (see `firstDrawCoversTarget`). `known`: its picture in the frame's footprints.
    private func leafCoversTarget(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, known: Footprint.Picture?) -> Bool {
        guard Self.pixelsFollowKey(model, p), let affine = LayerGeometry.affine(matrix),
              let rasterScale = Self.rasterScale(affine),
              let old = leaves.byLayer[ObjectIdentifier(model)], old.owner == model._serial,
              case let .device(drawn, origin) = old.placement, drawn == Orientation(affine),
              let extents = old.extentsInBand else { return false }
        // The key `cachedLeaf` will draw with is the bitmap's.
        if let known, describes(known, affine) {
            guard known.key == old.key else { return false }
        } else {
            guard old.key.values == LeafKey.Values(p, rasterScale: rasterScale) else { return false }
        }
        // Bitmap pixel → target is a translation, whole within the sampler's 2⁻³² steps.
        let tx = origin.x + affine.tx, ty = origin.y + affine.ty
        guard abs(tx - tx.rounded()) < 1e-10, abs(ty - ty.rounded()) < 1e-10,
              abs(tx) < 1e9, abs(ty) < 1e9 else { return false }
        return extents.coversOpaquely(atX: Int(tx.rounded()), y: Int(ty.rounded()), width: target.width, height: target.height)
    }
}
