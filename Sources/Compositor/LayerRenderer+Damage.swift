import QuartzCore
import Raster

/// Damage tracking: which part of the previous frame a change invalidates, at rest and while
/// animations run.
///
/// After each frame the renderer remembers, for every drawn layer, a *footprint*: its layer →
/// device map, what its own pixels depend on (`LeafKey`), its opacity, its place in the drawing
/// order, the device box its own drawing can touch and the box of its whole subtree. The next
/// frame (a new media time, or a committed change) compares footprints: a layer whose map, key,
/// opacity or place changed, or that appeared or disappeared, damages its subtree's box in both
/// frames — the subtree because a layer's opacity (group opacity) and its masksToBounds clip
/// alter its sublayers' pixels too. `CARenderer` redraws the union of the damaged boxes.
///
/// While no layer has gained or lost a sublayer, superlayer or mask, nor changed its timing
/// (`CALayer.timingChangeCount`), last frame's footprints are updated in place
/// (`updateFootprints`), and a leaf whose `presentationStamp`, place and ancestors are last
/// frame's keeps its footprint without being placed again — one moved layer among S8's 1 000
/// places one layer, not 1 000 (layer-storm-bench). Otherwise they are worked out afresh and
/// compared (`footprints(of:at:reusing:)`, `damage(from:to:)`). FootprintUpdateTests checks the
/// kept footprints against fresh ones through random runs of changes.
///
/// Tracked are trees of layers whose pixels follow from their properties alone
/// (`LayerContent.drawsItself`: plain, shape, gradient and text layers without a delegate; and
/// layers of an app's subclass whose kept content drew nothing, `drawsNothingOfItsClass`) under
/// affine maps, without filters, aliased edges, `shouldRasterize` or running transitions. A
/// compositing filter is tracked when its blend mode leaves the destination as it is under a
/// transparent source (`blendStaysInReach`: the layer then changes no pixel outside its reach);
/// its mode is part of the picture. A mask layer's subtree is tracked with its owner: the mask
/// only takes pixels away from the owner's group, so each of its layers is given the owner's
/// reach (a change in the mask damages what the owner can draw; the mask is not culled while
/// the owner reaches the target). A layer casting a shadow reaches its shadow too
/// (`drawnExtent`), its shadow's properties are part of its key, its sublayers are given its
/// whole reach (a band or patch where only the shadow shows still draws what casts it), and a
/// patch that touches its reach takes all of it (`wholeReaches`, `CARenderer`): the blur of the
/// group or of the shadow path reads pixels across the patch's edges, and drawn whole it has
/// the full frame's bytes. Anything else — perspective, a CATransformLayer's depth sorting,
/// replicators, custom drawing — gives nil, and the whole frame is redrawn.
extension LayerRenderer {
    struct Footprint {
        /// What decides the layer's own pixels; a difference between two frames is damage.
        struct Picture: Equatable {
            /// Layer → device pixels.
            var matrix: Transform
            var key: LeafKey
            var opacity: Float
            /// The compositing filter's blend mode, `CGBlendMode.rawValue` (0, `.normal`: none).
            /// A raw value rather than the optional enum, which made copies of a footprint go
            /// through value witnesses (layer storm, callgrind: +0.2 % a frame).
            var blendMode: Int32
            /// Drawing-order position: parent's identity and index among its sublayers (a mask
            /// layer: its owner's, and −1).
            var parent: ObjectIdentifier?
            var index: Int
        }
        var picture: Picture
        /// `LayerContent.rect` (layer space, points) for `picture.key`, kept so that the next
        /// frame need not lay the text out again while the key stays the same.
        var content: CGRect
        /// Device pixels the layer and its drawn subtree can touch (antialiasing and bilinear
        /// margins included).
        var reach: LayerGeometry.IntBox
        /// The layer's `presentationStamp` when the footprint was made.
        var stamp: PresentationStamp?

        /// Whether the footprint is still the layer's when its stamp is `stamp` (not nil) and
        /// its place in the drawing order is (`parent`, `index`), its ancestors' presentations
        /// being last frame's: the same presentation under the same map. `asLeaf`: also
        /// without a shadow (whose reach follows from the subtree).
        func holds(_ stamp: PresentationStamp?, _ parent: ObjectIdentifier?, _ index: Int, asLeaf: Bool) -> Bool {
            // Field by field: `==` on the optional went through the generic witness (callgrind).
            guard let stamp, let mine = self.stamp, mine.layer == stamp.layer, mine.model == stamp.model,
                  mine.animations == stamp.animations else { return false }
            return picture.parent == parent && picture.index == index && (!asLeaf || picture.key.values.shadow == nil)
        }
    }

    /// Adds to `area` (within `frame`) every reach of `wholeReaches` it touches, until none
    /// is left half in it: a shadow is drawn whole in a patch or not at all.
    static func drawnWhole(_ area: LayerGeometry.IntBox, _ wholeReaches: [LayerGeometry.IntBox],
                           frame: (width: Int, height: Int)) -> LayerGeometry.IntBox {
        var area = area, grown = !area.isEmpty
        while grown {
            grown = false
            for reach in wholeReaches {
                let whole = reach.clamped(width: frame.width, height: frame.height)
                if whole.intersects(area), area.union(whole) != area {
                    area = area.union(whole)
                    grown = true
                }
            }
        }
        return area
    }

    /// Device pixels a layer's drawing can spill beyond its exact outline: one for antialiased
    /// edges and bitmap margins, one for bilinear resampling of a retained bitmap.
    static let damageMargin: CGFloat = 2

    /// Most footprints one frame keeps: 65 536, about 40 MB at the ≈ 650 B a
    /// footprint costs with its share of the table (RELIABILITY.md). A tree that draws more
    /// layers is not damage-tracked: each frame that changes is drawn whole — the same pixels,
    /// only no patch reuse — and the footprint pass gives up at the budget, so it costs at most
    /// that many layers' work and memory, not one footprint per layer of a million siblings.
    static let maxFootprints = 1 << 16

    /// Footprints of every drawn layer of `root` at `time`, or nil when the tree holds anything
    /// damage tracking does not model or draws more than `budget` layers. `previous` (last
    /// frame's footprints) saves recomputing the footprints of leaves whose inputs did not change
    /// (`walkFootprints`) and the content rectangles whose key did not change.
    func footprints(of root: CALayer, at time: CFTimeInterval, reusing previous: Footprints?,
                    budget: Int = LayerRenderer.maxFootprints) -> Footprints? {
        var out: Footprints = [:]
        out.reserveCapacity(min(previous?.count ?? 0, budget))
        var walk = FootprintWalk(previous: previous, inPlace: false)
        return walkFootprints(root, at: time, into: &out, &walk, budget: budget) ? out : nil
    }

    /// Brings `table`, the footprints of the last frame of `root`, to `time` in place, or gives
    /// nil (and leaves `table` part-updated) when the tree is no longer tracked. Only for a tree
    /// whose shape has not changed since the table was made (no layer gained or lost a sublayer
    /// or mask, no timing changed: `CALayer.timingChangeCount` as then): a layer no longer drawn
    /// (hidden, transparent) then takes its footprints with it, and every other one is met by the
    /// walk. Returns the union of the boxes `damage(from:to:)` would give (nil once it covers more
    /// than `limit` pixels of `frame`; the table is updated all the same), and whether any layer
    /// left the table.
    func updateFootprints(_ table: inout Footprints, of root: CALayer, at time: CFTimeInterval,
                          frame: (width: Int, height: Int), limit: Int,
                          budget: Int = LayerRenderer.maxFootprints) -> (damage: LayerGeometry.IntBox?, removedLayers: Bool)? {
        var walk = FootprintWalk(previous: nil, inPlace: true, frame: frame)
        guard walkFootprints(root, at: time, into: &table, &walk, budget: budget) else { return nil }
        return (walk.area.pixelCount <= limit ? walk.area : nil, walk.removedLayers)
    }

    /// How `walkFootprints` uses the table it fills: a fresh one beside last frame's
    /// (`previous`), or last frame's updated in place while the damage is summed.
    struct FootprintWalk {
        let previous: Footprints?
        let inPlace: Bool
        var frame = (width: 0, height: 0)
        /// In place: the union of the damaged boxes, within the frame.
        var area = LayerGeometry.IntBox(x0: 0, y0: 0, x1: 0, y1: 0)
        /// In place: whether a layer's footprint left the table.
        var removedLayers = false

        /// Adds `box` (clamped to the frame) to the damaged area.
        mutating func damage(_ box: LayerGeometry.IntBox) {
            area = area.union(box.clamped(width: frame.width, height: frame.height))
        }

        /// In place: removes the footprints of `model`'s subtree (itself, its sublayers and
        /// masks, all levels) from `table`, damaging their boxes, as the layer is no longer
        /// drawn. The tree's shape is last frame's (`updateFootprints`), so these are the layers
        /// last frame drew under it.
        mutating func remove(_ model: CALayer, from table: inout Footprints) {
            removedLayers = true
            _ = model._anyLayerInTree { layer in
                if let gone = table.removeValue(forKey: LayerKey(layer)) { damage(gone.reach) }
                return false   // every layer
            }
        }
    }

    /// `footprint`'s reach when it `holds` as a leaf's; inout, so that it is read where it is
    /// in the table rather than copied out (a copy of a footprint was most of a settled leaf's cost).
    private static func keptReach(_ footprint: inout Footprint, _ stamp: PresentationStamp?, _ parent: ObjectIdentifier?,
                                  _ index: Int) -> LayerGeometry.IntBox? {
        footprint.holds(stamp, parent, index, asLeaf: true) ? footprint.reach : nil
    }

    /// Walks `root`'s tree at `time`, writing every drawn layer's footprint into `out` (see
    /// `FootprintWalk`); false when the tree holds anything damage tracking does not model or
    /// draws more than `budget` layers.
    ///
    /// A leaf (no sublayers, no mask) keeps last frame's footprint without being placed again
    /// when nothing it follows from changed: its `presentationStamp` is the footprint's, it has
    /// the same place in the drawing order, it is neither in a mask's subtree nor casts a shadow,
    /// it has no drawing delegate, and every ancestor is such a layer too (their presentations,
    /// hence the maps they hand down, are last frame's). A frame in which one of S8's 1 000
    /// layers moves then places one layer instead of 1 000.
    private func walkFootprints(_ root: CALayer, at time: CFTimeInterval, into out: inout Footprints,
                                _ walk: inout FootprintWalk, budget: Int) -> Bool {
        wholeReaches.removeAll(keepingCapacity: true)
        let levelEnd = Self.levelsOnCallersStack()
        let inPlace = walk.inPlace, previous = walk.previous
        /// The reach last frame's footprint gives `model`, a sublayer (at `index` in the drawing
        /// order of the layer `parentID`) of a settled layer and outside masks and shadows, when
        /// it is a settled leaf; it keeps that footprint, read where it is (not copied out). nil:
        /// `visit` it. Asked in the loop over the sublayers, so that a settled leaf costs no call
        /// of `visit`.
        func settledLeafReach(_ model: CALayer, _ parentID: ObjectIdentifier, _ index: Int) -> LayerGeometry.IntBox? {
            let stamp = model.presentationStamp
            guard stamp != nil, model.isLeaf, LayerContent.drawsItself(model) else { return nil }
            let layerKey = LayerKey(model)
            if inPlace {
                guard let slot = out.index(forKey: layerKey) else { return nil }
                return Self.keptReach(&out.values[slot], stamp, parentID, index)
            }
            guard let previous, let slot = previous.index(forKey: layerKey) else { return nil }
            let kept = previous.values[slot]
            guard kept.holds(stamp, parentID, index, asLeaf: true) else { return nil }
            out[layerKey] = kept
            return kept.reach
        }
        /// The subtree's reach, an empty box when it draws nothing, nil when it is not tracked.
        /// `within`: the reach of the masked layer whose mask subtree this is, or of the layer
        /// casting a shadow whose sublayers these are, kept as each of its layers' reach.
        /// `settled`: whether every ancestor's presentation and place are last frame's.
        func visit(_ model: CALayer, _ parentMatrix: CATransform3D, _ parent: CALayer?, _ parentID: ObjectIdentifier?,
                   _ index: Int, _ depth: Int, within: LayerGeometry.IntBox?, settled parentSettled: Bool) -> LayerGeometry.IntBox? {
            guard depth < levelEnd else { return nil }
            let layerKey = LayerKey(model), id = layerKey.id
            // Read before the layer is placed: a change made while the walk runs (a delegate's
            // callback) then shows at the next frame.
            let stamp = model.presentationStamp
            let before = inPlace ? out[layerKey] : previous?[layerKey]
            let settled = parentSettled && within == nil && before?.holds(stamp, parentID, index, asLeaf: false) == true
            guard let (p, matrix) = placement(model, parentMatrix: parentMatrix, parentPresentation: parent, time: time) else {
                if inPlace && before != nil { walk.remove(model, from: &out) }
                return LayerGeometry.IntBox(x0: 0, y0: 0, x1: 0, y1: 0)   // hidden, transparent or culled
            }
            let effects = p._effects
            // `pixelsFollowKey` but for its mask and shadow, which are followed below.
            guard LayerContent.drawsItself(model) && p._renderingOptions.isDisjoint(with: Self.offThePlainPath)
                    || drawsNothingOfItsClass(model, p),
                  Self.blendStaysInReach(effects), model._transition(atMediaTime: time) == nil,
                  let affine = LayerGeometry.affine(matrix), let rs = LayerRenderer.rasterScale(affine) else { return nil }
            // Last frame's key (then also the retained bitmap's) and content while the values are
            // the same; a new key is allocated only when they differ.
            let fresh = LeafKey.Values(p, rasterScale: rs)
            guard fresh.contentsDrawable else { return nil }
            let key: LeafKey, kept: CGRect?
            if let before, before.picture.key.values == fresh {
                key = before.picture.key
                kept = before.content
            } else {
                key = LeafKey(fresh)
                kept = nil
            }
            guard let content = kept ?? LayerContent.rect(p),
                  let own = LayerGeometry.deviceBox(content, matrix, margin: Self.damageMargin) else { return nil }
            // A layer that draws nothing of its own (a plain container: an imported Lottie
            // layer spans the whole composition) touches only what its sublayers touch — moved,
            // it damages their boxes, not its bounds (hold.json: a square's jump damaged the
            // whole frame through its container).
            var reach = Self.drawsNothingOfItsOwn(model, p) ? LayerGeometry.IntBox(x0: 0, y0: 0, x1: 0, y1: 0) : own
            // A shadow reaches past what casts it (`drawnExtent` counts it), and its blur reads the
            // whole group: the sublayers, which it is cast from, are given the whole reach (so a
            // patch or band where only the shadow shows still draws them), and a patch draws all
            // of it (`wholeReaches`).
            var shadowed: LayerGeometry.IntBox?
            if fresh.shadow != nil {
                guard let extent = drawnExtent(model, p, time: time, levelsLeft: Self.analysisLevels) else { return nil }
                shadowed = own
                if let extent {
                    guard let box = LayerGeometry.deviceBox(extent.rect, matrix, margin: extent.margin + Self.damageMargin)
                    else { return nil }
                    shadowed = own.union(box)
                }
            }
            let sublayersWithin = within ?? shadowed
            for (i, child) in drawingOrder(model, p, time: time).enumerated() {
                if settled, sublayersWithin == nil, depth + 1 < levelEnd, let kept = settledLeafReach(child, id, i) {
                    reach = reach.union(kept)
                    continue
                }
                guard let sub = visit(child, matrix, p, id, i, depth + 1, within: sublayersWithin, settled: settled) else { return nil }
                reach = reach.union(sub)
            }
            if let shadowed {
                reach = reach.union(shadowed)
                wholeReaches.append(reach)
            }
            // The mask is drawn under the layer's own map (`applyMask`), without a parent presentation.
            if let mask = p.mask, visit(mask, matrix, nil, id, -1, depth + 1, within: within ?? reach, settled: false) == nil {
                return nil
            }
            let footprint = Footprint(picture: .init(matrix: affine, key: key, opacity: p.opacity,
                                                     blendMode: effects?.blendMode?.rawValue ?? 0, parent: parentID, index: index),
                                      content: content, reach: within ?? reach, stamp: stamp)
            if inPlace, before?.picture != footprint.picture {
                if let before { walk.damage(before.reach) }
                walk.damage(footprint.reach)
            }
            // A layer new to the table counts against the budget.
            guard inPlace && before != nil || out.count < budget else { return nil }
            out[layerKey] = footprint
            return reach
        }
        let base = CATransform3DMakeScale(scale, scale, 1)
        return visit(root, base, nil, nil, 0, 0, within: nil, settled: true) != nil
    }

    /// Whether `model` is a layer of an app's subclass of `CALayer` (not of one of QuartzCore's
    /// own layer classes) whose drawing is known to add nothing: its content (`draw(in:)`,
    /// `display()`, a drawing delegate) is kept from an earlier frame and still valid
    /// (`keptBackingStore`), and left every pixel transparent. Its own pixels then follow from its
    /// properties as a plain layer's do: Core Animation redraws a layer's content only when it
    /// needs display (Apple, `setNeedsDisplay()`: "Calling this method causes the layer to
    /// recache its content"; a layer that needs display makes the whole frame drawn,
    /// `CARenderer.render`). The common pattern of a subclass that only adds properties or lays
    /// out its sublayers, and `LottieAnimationLayer`, are tracked this way from their second
    /// frame. Layers of QuartzCore's self-drawn classes (`LayerContent.isOfASelfDrawnClass`, which
    /// a delegate's empty drawing does not make plain: a replicator's instances, say) and
    /// subclasses of CATiledLayer (drawn from tiles) and CAScrollLayer are left out.
    func drawsNothingOfItsClass(_ model: CALayer, _ p: CALayer) -> Bool {
        guard Self.drawnByThePlainPath(p), !LayerContent.isOfASelfDrawnClass(model), !(model is CATiledLayer || model is CAScrollLayer),
              let kept = keptBackingStore(backingStores[ObjectIdentifier(model)], for: model, p) else { return false }
        return kept.pixmap == nil
    }

    /// Whether a layer with `effects` changes no pixel outside its own reach: no filter or
    /// background filter, and a blend mode, if any, that leaves the destination as it is where
    /// the source is transparent — not clear, copy, source-in, source-out, destination-in,
    /// destination-atop (which clear or replace what lies outside the source), nor plus-darker
    /// (Apple: R = max(0, 1 − ((1 − D) + (1 − S))), which darkens under a transparent source).
    static func blendStaysInReach(_ effects: _LayerEffects?) -> Bool {
        guard let effects else { return true }
        guard effects.filters.isEmpty, effects.backgroundFilters.isEmpty else { return false }
        switch effects.blendMode?.rasterBlendMode ?? .sourceOver {
        case .clear, .copy, .sourceIn, .sourceOut, .destinationIn, .destinationAtop, .plusDarker: return false
        default: return true
        }
    }

    /// The union of the subtree boxes, before and after, of every layer whose picture differs
    /// between `old` and `new` (including layers only in one of them), within `frame` (width,
    /// height); nil as soon as it covers more than `limit` pixels of it, since the caller then
    /// redraws the whole frame and the rest of the comparison would decide nothing. Order-
    /// independent.
    static func damage(from old: Footprints, to new: Footprints,
                       frame: (width: Int, height: Int), limit: Int) -> LayerGeometry.IntBox? {
        var area = LayerGeometry.IntBox(x0: 0, y0: 0, x1: 0, y1: 0)
        /// Adds `box`; false once the area is past the limit.
        func grow(_ box: LayerGeometry.IntBox) -> Bool {
            area = area.union(box.clamped(width: frame.width, height: frame.height))
            return area.pixelCount <= limit
        }
        for (id, before) in old where new[id]?.picture != before.picture {
            guard grow(before.reach) else { return nil }
            if let after = new[id], !grow(after.reach) { return nil }
        }
        for (id, after) in new where old[id] == nil {
            guard grow(after.reach) else { return nil }
        }
        return area
    }
}
