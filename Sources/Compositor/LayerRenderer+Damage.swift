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
    /// frame's footprints) saves recomputing content rectangles whose key did not change.
    func footprints(of root: CALayer, at time: CFTimeInterval, reusing previous: [ObjectIdentifier: Footprint]?,
                    budget: Int = LayerRenderer.maxFootprints) -> [ObjectIdentifier: Footprint]? {
        var out: [ObjectIdentifier: Footprint] = [:]
        out.reserveCapacity(min(previous?.count ?? 0, budget))
        wholeReaches.removeAll(keepingCapacity: true)
        let levelEnd = Self.levelsOnCallersStack()
        /// The subtree's reach, an empty box when it draws nothing, nil when it is not tracked.
        /// `within`: the reach of the masked layer whose mask subtree this is, or of the layer
        /// casting a shadow whose sublayers these are, kept as each of its layers' reach.
        func visit(_ model: CALayer, _ parentMatrix: CATransform3D, _ parent: CALayer?, _ parentID: ObjectIdentifier?,
                   _ index: Int, _ depth: Int, within: LayerGeometry.IntBox? = nil) -> LayerGeometry.IntBox? {
            guard depth < levelEnd else { return nil }
            guard let (p, matrix) = placement(model, parentMatrix: parentMatrix, parentPresentation: parent, time: time) else {
                return LayerGeometry.IntBox(x0: 0, y0: 0, x1: 0, y1: 0)   // hidden, transparent or culled
            }
            let effects = p._effects
            // `pixelsFollowKey` but for its mask and shadow, which are followed below.
            guard LayerContent.drawsItself(model) && p._renderingOptions.isDisjoint(with: Self.offThePlainPath)
                    || drawsNothingOfItsClass(model, p),
                  Self.blendStaysInReach(effects), model._transition(atMediaTime: time) == nil,
                  let affine = LayerGeometry.affine(matrix), let rs = LayerRenderer.rasterScale(affine) else { return nil }
            let id = ObjectIdentifier(model)
            // Last frame's key (then also the retained bitmap's) and content while the values are
            // the same; a new key is allocated only when they differ.
            let fresh = LeafKey.Values(p, rasterScale: rs)
            guard fresh.contentsDrawable else { return nil }
            let key: LeafKey, kept: CGRect?
            if let before = previous?[id], before.picture.key.values == fresh {
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
            for (i, child) in drawingOrder(model, p, time: time).enumerated() {
                guard let sub = visit(child, matrix, p, id, i, depth + 1, within: within ?? shadowed) else { return nil }
                reach = reach.union(sub)
            }
            if let shadowed {
                reach = reach.union(shadowed)
                wholeReaches.append(reach)
            }
            // The mask is drawn under the layer's own map (`applyMask`), without a parent presentation.
            if let mask = p.mask, visit(mask, matrix, nil, id, -1, depth + 1, within: within ?? reach) == nil { return nil }
            guard out.count < budget else { return nil }
            out[id] = Footprint(picture: .init(matrix: affine, key: key, opacity: p.opacity, blendMode: effects?.blendMode?.rawValue ?? 0,
                                               parent: parentID, index: index),
                                content: content, reach: within ?? reach)
            return reach
        }
        let base = CATransform3DMakeScale(scale, scale, 1)
        return visit(root, base, nil, nil, 0, 0) != nil ? out : nil
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
    static func damage(from old: [ObjectIdentifier: Footprint], to new: [ObjectIdentifier: Footprint],
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
