import QuartzCore
import Raster

/// Retained leaf layers and backing stores: pixels kept across frames until a property that
/// changes them does.
extension LayerRenderer {
    // MARK: - Retained leaf layers

    /// What a leaf layer's pixels depend on (besides its placement and opacity). A class: every
    /// footprint and retained bitmap holds one and every frame compares them, so the footprint
    /// pass hands last frame's key on while the values stay the same (`footprints`), making the
    /// comparisons identity tests and the copies one retain.
    final class LeafKey: Equatable {
        struct Values: Equatable {
            let bounds: CGRect, cornerRadius: CGFloat, maskedCorners: UInt
            let background: CGColor?, borderWidth: CGFloat, borderColor: CGColor?
            /// The contents image and how it is placed and sampled (the defaults without contents,
            /// which these properties cannot change: they are not read for most layers).
            let contents: ObjectIdentifier?, contentsRect: CGRect, contentsCenter: CGRect
            let gravity: CALayerContentsGravity, contentsScale: CGFloat
            /// `contentsFilters` of the layer, and its minificationFilterBias.
            let filters: UInt8, filterBias: Float
            /// Whether the contents are an image or nothing (the retained path draws no other).
            let contentsDrawable: Bool
            let masksToBounds: Bool
            /// `CALayer._renderingOptions` (cornerCurve, edge antialiasing, group opacity, …).
            let options: UInt8
            let rasterScale: CGFloat
            let drawn: DrawnContent
            /// The shadow, when the layer casts one (damage tracking compares it; a layer with a
            /// shadow is never a retained leaf).
            let shadow: Shadow?

            /// What decides a layer's shadow besides its shape.
            struct Shadow: Equatable {
                let color: CGColor, opacity: Float, radius: CGFloat, offset: CGSize, path: CGPath?

                init?(_ p: CALayer) {
                    guard p.shadowOpacity > 0, let color = p.shadowColor else { return nil }
                    self.color = color
                    opacity = p.shadowOpacity
                    radius = p.shadowRadius
                    offset = p.shadowOffset
                    path = p.shadowPath
                }

                static func == (a: Shadow, b: Shadow) -> Bool {
                    a.opacity == b.opacity && a.radius == b.radius && a.offset == b.offset
                        && (a.color === b.color || a.color == b.color) && (a.path === b.path || a.path == b.path)
                }
            }

            init(_ p: CALayer, rasterScale: CGFloat) {
                // `contents` is read once: a cold property behind an `Any` (copying it out costs).
                let contents = p.contents
                let image = contents.flatMap { $0 as? CGImage }
                bounds = p.bounds
                cornerRadius = p.cornerRadius
                maskedCorners = p.maskedCorners.rawValue
                background = p.backgroundColor
                borderWidth = p.borderWidth
                borderColor = p.borderColor
                self.contents = image.map(ObjectIdentifier.init)
                contentsDrawable = contents == nil || image != nil
                if image == nil {
                    contentsRect = Values.unitRect
                    contentsCenter = Values.unitRect
                    gravity = .resize
                    contentsScale = 1
                    filters = 0
                    filterBias = 0
                } else {
                    contentsRect = p.contentsRect
                    contentsCenter = p.contentsCenter
                    gravity = p.contentsGravity
                    contentsScale = p.contentsScale
                    filters = LeafKey.contentsFilters(p)
                    filterBias = p.minificationFilterBias
                }
                masksToBounds = p.masksToBounds
                options = p._renderingOptions.rawValue
                self.rasterScale = rasterScale
                drawn = DrawnContent(p)
                shadow = Shadow(p)
            }

            private static let unitRect = CGRect(x: 0, y: 0, width: 1, height: 1)

            /// Field by field, the likeliest differences first, rectangles compared inline (the
            /// derived comparison calls Foundation's `CGRect ==` three times), colours by identity
            /// first: two keys are compared for every retained layer in every frame.
            static func == (a: Values, b: Values) -> Bool {
                func same(_ r: CGRect, _ s: CGRect) -> Bool {
                    r.origin.x == s.origin.x && r.origin.y == s.origin.y && r.size.width == s.size.width
                        && r.size.height == s.size.height
                }
                func same(_ c: CGColor?, _ d: CGColor?) -> Bool { c === d || c == d }
                return same(a.bounds, b.bounds) && a.rasterScale == b.rasterScale && a.cornerRadius == b.cornerRadius
                    && a.borderWidth == b.borderWidth && a.maskedCorners == b.maskedCorners && a.options == b.options
                    && a.masksToBounds == b.masksToBounds && a.contents == b.contents
                    && a.contentsDrawable == b.contentsDrawable && a.filters == b.filters && a.filterBias == b.filterBias
                    && a.contentsScale == b.contentsScale && same(a.contentsRect, b.contentsRect)
                    && same(a.contentsCenter, b.contentsCenter) && a.gravity == b.gravity
                    && same(a.background, b.background) && same(a.borderColor, b.borderColor) && a.drawn == b.drawn
                    && a.shadow == b.shadow
            }
        }
        let values: Values

        init(_ values: Values) { self.values = values }

        static func == (a: LeafKey, b: LeafKey) -> Bool { a === b || a.values == b.values }

        /// The minification and magnification filters as two bits each (read for layers with
        /// contents only).
        static func contentsFilters(_ p: CALayer) -> UInt8 {
            func code(_ f: CALayerContentsFilter) -> UInt8 { f == .nearest ? 1 : f == .trilinear ? 2 : 3 }
            return code(p.minificationFilter) | code(p.magnificationFilter) << 2
        }
    }

    /// Device pixels per layer point of an affine layer → device map (the longer of its two axes);
    /// nil when it is 0 or not finite.
    static func pixelsPerPoint(_ affine: Transform) -> Double? {
        let s = max((affine.a * affine.a + affine.b * affine.b).squareRoot(), (affine.c * affine.c + affine.d * affine.d).squareRoot())
        return s > 0 && s.isFinite ? s : nil
    }

    /// `pixelsPerPoint`, quantized up to quarters.
    static func rasterScale(_ affine: Transform) -> CGFloat? {
        pixelsPerPoint(affine).map { CGFloat(($0 * 4).rounded(.up) / 4) }
    }

    /// The linear part (a, b, c, d) of a layer → device map: rotation, scale and skew.
    struct Orientation: Equatable {
        var a: Double, b: Double, c: Double, d: Double
        init(_ t: Transform) { a = t.a; b = t.b; c = t.c; d = t.d }
    }

    /// A leaf layer's retained rasterization (a class: looked up for every layer every frame, it
    /// is then retained, not copied field by field).
    final class Leaf {
        let key: LeafKey
        /// Premultiplied pixels with (at least) one transparent pixel of margin on every side.
        let pixmap: Pixmap
        /// Where `pixmap`'s non-transparent and flat pixels lie: drawn translated, it skips its
        /// transparent corners, and translated or not, its solid interior is blended as one colour.
        /// Worked out at the bitmap's second draw (`extentsForDraw`): finding them reads every
        /// pixel, which pays only when the bitmap is drawn again, and a layer whose pixels change
        /// at every frame (an animated path, colour or trim) has its bitmap drawn once.
        private var extents: TexelExtents?
        /// Whether the bitmap has been drawn.
        private var drawn = false
        /// What a draw of the bitmap reads first (`SiblingPrefetch`): this record, the pixmap's
        /// object and first texels, and once worked out, the extents and what they point to.
        private(set) var firstReads = SiblingPrefetch.Lines()
        /// How the bitmap was drawn: in device orientation (rotation and scale applied) with
        /// bitmap pixel (0, 0) at device (origin + the layer's translation then), or in layer space.
        let placement: Placement
        /// The `_serial` of the layer it belongs to (an identifier alone could be reused by a
        /// later layer).
        let owner: UInt64
        /// The layer's orientation in the last frame that drew it.
        var seen: Orientation
        /// The last full frame that drew it (`Leaves.frame`).
        var lastFrame = 0
        /// The layer's key when it was last drawn straight into its target instead of into a
        /// fresh bitmap (its pixels changed in consecutive frames, `cachedLeaf`); nil when not.
        var directKey: LeafKey?

        init(key: LeafKey, pixmap: Pixmap, placement: Placement, owner: CALayer, seen: Orientation) {
            self.key = key
            self.pixmap = pixmap
            self.placement = placement
            self.owner = owner._serial
            self.seen = seen
            firstReads = SiblingPrefetch.Lines(leaf: self, pixmap: pixmap, extents: nil)
        }

        /// The extents to draw the bitmap with now: none at its first draw, then `TexelExtents`
        /// (`Pixmap.drawTexture` draws the same pixels with or without them, TexelExtents.swift).
        func extentsForDraw() -> TexelExtents? {
            guard drawn else {
                drawn = true
                return nil
            }
            if extents == nil {
                extents = TexelExtents(of: pixmap)
                firstReads = SiblingPrefetch.Lines(leaf: self, pixmap: pixmap, extents: extents)
            }
            return extents
        }

        /// The extents a band draws a shared bitmap with: those already worked out, if any (bands
        /// only read a retained leaf; `noteDrawnInBands` counts the draw after them).
        var extentsInBand: TexelExtents? { extents }

        /// Counts a frame's draws in bands as one draw (`extentsForDraw`), serially after them.
        func noteDrawnInBands() { _ = extentsForDraw() }

        /// Whether the bitmap can be shown at `orientation`: a device-oriented one only at the
        /// orientation it was drawn for, a layer-space one while the orientation keeps changing.
        func fits(_ orientation: Orientation) -> Bool {
            switch placement {
            case let .device(drawn, _): drawn == orientation
            case .layer: seen != orientation
            }
        }

        enum Placement {
            /// Bitmap pixel → device is a translation by `origin` + the layer → device translation.
            case device(Orientation, origin: (x: Double, y: Double))
            /// Layer space → bitmap pixels.
            case layer(toCache: Transform)
        }
    }

    /// Retained leaf layers by layer identity, shared with patch renderers (a bitmap and its
    /// placement do not depend on the target's origin).
    final class Leaves {
        /// (`@exclusivity(unchecked)`: looked up for every layer of every frame, never while
        /// written.) Written only through `retain(_:for:)` and `forget(_:)`, which keep
        /// `heldPixels`.
        @exclusivity(unchecked) private(set) var byLayer: [ObjectIdentifier: Leaf] = [:]
        /// Most pixels one retained bitmap may have (`maxLeafPixels(frame:)` of the frame these
        /// bitmaps are drawn for; patch renderers share it).
        let maxPixels: Int
        /// Most pixels all retained bitmaps may hold together (`maxRetainedPixels(frame:)`), each
        /// counted with `overheadPixels` more for its bookkeeping: past it, further layers are
        /// drawn directly each frame instead of retained, so a tree of a million small layers
        /// costs bounded memory for bitmaps.
        let maxHeldPixels: Int
        /// What the bitmaps held cost, in pixels (as `maxHeldPixels` counts them).
        private(set) var heldPixels = 0
        /// A retained bitmap's own bookkeeping (its leaf record, texel extents and pixmap: about
        /// 400 B measured for a 1×1 layer, RELIABILITY.md; counted as 1 KiB), in pixels of 4 bytes.
        static let overheadPixels = 256
        init(maxPixels: Int, maxHeldPixels: Int) {
            self.maxPixels = maxPixels
            self.maxHeldPixels = maxHeldPixels
        }

        /// Keeps `leaf` as `id`'s bitmap, replacing the one it had, if the budget allows; else
        /// forgets the old one (the layer is then drawn afresh each frame).
        func retain(_ leaf: Leaf, for id: ObjectIdentifier) {
            forget(id)
            let cost = Self.cost(leaf)
            guard retains, heldPixels + cost <= maxHeldPixels else { return }
            byLayer[id] = leaf
            heldPixels += cost
        }

        /// Drops `id`'s bitmap, if any.
        func forget(_ id: ObjectIdentifier) {
            if let old = byLayer.removeValue(forKey: id) { heldPixels -= Self.cost(old) }
        }

        static func cost(_ leaf: Leaf) -> Int { cost(leaf.pixmap) }

        /// What keeping `pixmap` costs, in pixels (as `maxHeldPixels` counts them).
        static func cost(_ pixmap: Pixmap) -> Int { cost(width: pixmap.width, height: pixmap.height) }

        /// What keeping a `width`×`height` bitmap costs, in pixels.
        static func cost(width: Int, height: Int) -> Int { width * height + overheadPixels }

        /// Flat bitmaps of the parts of layers drawn under perspective (`LayerRenderer+Projected`),
        /// held under the same budget as `byLayer`'s. (`@exclusivity(unchecked)` as `byLayer`.)
        @exclusivity(unchecked) private(set) var projected: [ProjectedPart.ID: ProjectedPart] = [:]

        /// Keeps `part` as `id`'s flat bitmap, replacing the one it had, if the budget allows; else
        /// forgets the old one.
        func retain(_ part: ProjectedPart, for id: ProjectedPart.ID) {
            forget(id)
            let cost = Self.cost(part.pixmap)
            guard retains, heldPixels + cost <= maxHeldPixels else { return }
            projected[id] = part
            heldPixels += cost
        }

        /// Drops `id`'s flat bitmap, if any.
        func forget(_ id: ProjectedPart.ID) {
            if let old = projected.removeValue(forKey: id) { heldPixels -= Self.cost(old.pixmap) }
        }
        /// Whether new bitmaps are kept for later frames (false: each is drawn, composited and
        /// dropped, as for a renderer that draws one frame, `CARenderer.drawsOnce`).
        var retains = true
        /// Number of the frame being drawn, full or a damaged patch (`CARenderer.redraw`): a
        /// layer whose bitmap changed in the frame before and changes again is drawn directly
        /// (`cachedLeaf`), whichever kind the two frames were.
        private(set) var frame = 0

        /// Bitmaps rasterized so far (for tests: a frame that only moves, turns or fades
        /// retained layers adds none).
        var rasterizations = 0
        /// Layers drawn straight into the target instead of from their bitmaps (`cachedLeaf`:
        /// changed two frames running, or turning; for tests: a change of a layer's pixels is
        /// either this or a rasterization).
        var directDraws = 0
        /// Flat bitmaps drawn to be kept for parts of layers under perspective (`keptProjection`;
        /// for tests: a frame that only moves or turns them adds none).
        var projections = 0

        func beginFrame() { frame &+= 1 }

        /// Forgets the bitmaps of layers without a footprint in the frame just drawn (a patch
        /// frame of a damage-tracked tree, whose footprints list every layer on screen).
        func keepOnly(_ onScreen: Footprints) {
            let gone = byLayer.compactMap { onScreen[LayerKey(id: $0.key)] == nil ? $0.key : nil }
            for key in gone { forget(key) }
            let goneParts = projected.compactMap { onScreen[LayerKey(id: $0.key.layer)] == nil ? $0.key : nil }
            for key in goneParts { forget(key) }
        }

        /// Bitmaps of layers with `shouldRasterize` (`LayerRenderer+Rasterize`).
        var rasterized: [ObjectIdentifier: Rasterized] = [:]

        /// Forgets the bitmaps the full frame just drawn did not use (layers removed, hidden or
        /// gone), so the cache holds only what is on screen.
        func dropUnused() {
            let unused = byLayer.compactMap { $0.value.lastFrame == frame ? nil : $0.key }
            for key in unused { forget(key) }
            let unusedParts = projected.compactMap { $0.value.lastFrame == frame ? nil : $0.key }
            for key in unusedParts { forget(key) }
            let unusedRasterized = rasterized.compactMap { $0.value.lastFrame == frame ? nil : $0.key }
            for key in unusedRasterized { rasterized[key] = nil }
        }
    }

    /// A plain, shape, gradient or text layer (`LayerContent.drawsItself`) without sublayers,
    /// mask or shadow is rasterized once and then only re-composited — with bilinear filtering,
    /// as Core Animation composites layer textures — until a property that changes its pixels
    /// changes. Its bitmap is drawn in device orientation while the layer's rotation and scale
    /// stay put (moving it is then a translation of the bitmap, sub-pixel offsets included), and
    /// in layer space, at its device scale quantized up to quarters, once they animate (each frame
    /// then resamples it under the full affine map) — unless drawing the layer costs less than
    /// resampling it (`turnsCheaplyDrawn`): it is then drawn directly while it turns. The bitmap
    /// covers `LayerContent.rect` (a stroke or glyphs may reach beyond the bounds). A property
    /// whose change alters the pixels (`LeafKey`: e.g. an animated strokeEnd or colour) makes a
    /// fresh bitmap in that frame;
    /// changes of position, opacity and rotation do not (a change of scale does when it crosses
    /// a quarter of the raster scale).
    /// Returns the bitmap and its pixel → device map, `.direct` when the layer is to be drawn
    /// straight into the target (`drawDirectly`), or nil when the layer is not eligible.
    /// `known`: the layer's picture in the frame's footprints, when the tree is damage-tracked
    /// (its key is then taken from there).
    /// `opacity`: what the bitmap is composited at (default the layer's own; a sole sublayer's
    /// times its group's, `drawSoleLeaf`).
    func cachedLeaf(_ model: CALayer, _ p: CALayer, affine: Transform, known: Footprint.Picture?, opacity: Float? = nil)
        -> LeafDrawing? {
        guard model.sublayers == nil else { return nil }
        // Displayed first (a banded frame's `prepare` has done it): whether a view's layer draws
        // anything is known only from its first display, and retaining it must not depend on
        // whether that happened before this check or after it.
        if bandLog == nil { displayDrawnContent(model, p) }
        guard Self.pixelsFollowKey(model, p) else { return nil }
        guard let rasterScale = LayerRenderer.rasterScale(affine) else { return nil }
        let id = ObjectIdentifier(model), orientation = Orientation(affine)
        // A footprint's key passed `contentsDrawable` when the footprints were made; a key made
        // here is allocated only when it differs from the retained bitmap's.
        let old = leaves.byLayer[id]
        let key: LeafKey
        if let known, describes(known, affine) {
            key = known.key
        } else {
            let values = LeafKey.Values(p, rasterScale: rasterScale)
            guard values.contentsDrawable else { return nil }
            if let old, old.key.values == values { key = old.key } else { key = LeafKey(values) }
        }
        let leaf: Leaf
        if let old, old.owner == model._serial, old.key == key, old.fits(orientation) {
            leaf = old
            siblingPrefetch.drawn(old)
            if let bandLog {
                bandLog.touched.append((old, orientation))
                return Self.placed(old, extents: old.extentsInBand, affine: affine)
            }
        } else {
            // New, changed, or turned since the last frame: a layer-space bitmap while it keeps turning.
            let steady = old.map { $0.seen == orientation } ?? true
            if let old, old.owner == model._serial {
                // Drawn straight into the target, the layer's pixels are the same at full opacity,
                // and at a lower one when it paints each pixel once (a bitmap at its opacity is one
                // composite; a layer painting twice drawn directly would need a group).
                let work = LayerContent.vectorWork(p)
                let directAtOpacity = (opacity ?? p.opacity) == 1 || (work?.paints ?? 2) <= 1
                // Changed in the last frame and again now (an animated path, colour, trim or
                // gradient): a bitmap would be drawn once, composited once and dropped, so the
                // layer is drawn directly instead. The old bitmap is kept, marked, to see the next
                // frame's change.
                if steady, directAtOpacity, old.key != key, old.lastFrame == leaves.frame &- 1,
                   old.directKey.map({ $0 != key }) ?? true {
                    return directDraw(of: old, changedTo: key)
                }
                // Turning or scaling (its bitmap would be drawn in layer space and resampled at
                // every frame): a layer of a few vector paths is drawn directly while it turns,
                // when resampling would cost more than drawing (`turnsCheaplyDrawn`); its old
                // bitmap is kept for when it comes to rest.
                if !steady, directAtOpacity, let work,
                   Self.turnsCheaplyDrawn(elements: work.elements, area: LayerContent.rect(p), affine: affine) {
                    return directDraw(of: old, turnedTo: orientation)
                }
            }
            guard let area = LayerContent.rect(p), area.width > 0, area.height > 0,
                  let fresh = steady ? deviceLeaf(model, p, area: area, key: key, affine: affine)
                                     : layerLeaf(model, p, area: area, key: key, rasterScale: rasterScale,
                                                 orientation: orientation) else { return nil }
            if let bandLog {
                fresh.seen = orientation
                fresh.lastFrame = leaves.frame
                bandLog.made.append((id, fresh))
                return Self.placed(fresh, extents: fresh.extentsForDraw(), affine: affine)
            }
            leaves.rasterizations += 1
            leaf = fresh
            leaves.retain(fresh, for: id)
        }
        leaf.seen = orientation
        leaf.lastFrame = leaves.frame
        return Self.placed(leaf, extents: leaf.extentsForDraw(), affine: affine)
    }

    /// Whether `known` (a footprint's picture: layer → frame pixels) is of the drawing that
    /// places its layer by `affine` (layer → this renderer's target): the same linear part, and
    /// the same translation once the target's `origin` in the frame is added back — in a
    /// damaged patch within 10⁻⁹ of the translation's size, as the patch's matrices are worked
    /// out from a root shifted by its origin and may round differently in the last bits (their
    /// linear parts do not depend on translations). A full frame asks for equality.
    func describes(_ known: Footprint.Picture, _ affine: Transform) -> Bool {
        let m = known.matrix
        guard origin != (0, 0) else { return m == affine }
        guard m.a == affine.a, m.b == affine.b, m.c == affine.c, m.d == affine.d else { return false }
        let dx = affine.tx + Double(origin.x) - m.tx, dy = affine.ty + Double(origin.y) - m.ty
        return abs(dx) <= 1e-9 * max(1, abs(m.tx)) && abs(dy) <= 1e-9 * max(1, abs(m.ty))
    }

    /// `.direct`, having noted on `old` (the layer's kept bitmap) that the frame draws its layer
    /// directly, its pixels changed to `key` or its orientation to `orientation` — in a band,
    /// logged for the frame's merge (`BandLog`), as bands only read retained bitmaps.
    private func directDraw(of old: Leaf, changedTo key: LeafKey? = nil, turnedTo orientation: Orientation? = nil) -> LeafDrawing {
        if let bandLog {
            if let key { bandLog.redirected.append((old, key)) }
            if let orientation { bandLog.turned.append((old, orientation)) }
            return .direct
        }
        if let key { old.directKey = key }
        if let orientation { old.seen = orientation }
        old.lastFrame = leaves.frame
        leaves.directDraws += 1
        return .direct
    }

    /// How `cachedLeaf` has a leaf layer drawn.
    enum LeafDrawing {
        /// Its retained bitmap `pixmap`, composited with `extents` under `toDevice` (bitmap
        /// pixel → device).
        case bitmap(Pixmap, extents: TexelExtents?, toDevice: Transform)
        /// Straight into the target at the opacity asked for (`drawDirectly`).
        case direct
    }

    /// Draws a leaf layer straight into `canvas` (one `cachedLeaf` has drawn directly, or one
    /// composited with a blend mode, `drawPlaced`): its content and border under `affine`, each
    /// paint in `style` — at an opacity below 1 or another blend mode only for a layer that
    /// paints each pixel once (`LayerContent.vectorWork`), whose group would hold the same pixels.
    func drawDirectly(_ model: CALayer, _ p: CALayer, affine: Transform, style: PaintStyle, into canvas: Pixmap) {
        drawFlatContent(model, p, transform: affine, into: canvas, style: style)
        drawBorder(p, matrix: CATransform3D(affine), into: canvas, style: style)
    }

    /// Whether a turning layer whose own drawing is `elements` path elements (`vectorWork`) over
    /// `area` (layer points) under `affine` is drawn for less than its bitmap is resampled: from
    /// 64 device pixels an element. Measured with callgrind on parenting.json of
    /// scripts/lottie-testfiles (a 102-pixel square and a 77-pixel disc turning): resampled,
    /// about 24 instructions a pixel and the frame 793 K; drawn directly, the frame 559 K. The
    /// bound itself is a judgement, not a measured crossover: a direct draw's cost grows with
    /// the path (flattening, stroking, scan conversion of its edges) and its filled spans cost
    /// little a pixel, so small layers of long paths keep their bitmaps.
    static func turnsCheaplyDrawn(elements: Int, area: CGRect?, affine: Transform) -> Bool {
        guard let area else { return false }
        let pixels = Double(area.width * area.height) * abs(affine.a * affine.d - affine.b * affine.c)
        return pixels >= 64 * Double(max(elements, 1))
    }

    /// A retained bitmap, the extents to draw it with, and its pixel → device map for a layer
    /// whose layer → device map is `affine`.
    private static func placed(_ leaf: Leaf, extents: TexelExtents?, affine: Transform) -> LeafDrawing? {
        switch leaf.placement {
        case let .device(_, origin):
            return .bitmap(leaf.pixmap, extents: extents,
                           toDevice: Transform(a: 1, b: 0, c: 0, d: 1, tx: origin.x + affine.tx, ty: origin.y + affine.ty))
        case let .layer(toCache):
            guard let fromCache = toCache.inverted() else { return nil }
            return .bitmap(leaf.pixmap, extents: extents, toDevice: fromCache.concatenating(affine))
        }
    }

    /// Whether `p`'s own pixels follow from its `LeafKey` alone and are drawn by the plain path
    /// (what retained bitmaps and damage tracking need): a class drawn from its properties
    /// (`LayerContent.drawsItself`), no mask, no shadow, and neither aliased edges nor
    /// `shouldRasterize` (their own drawing paths). Contents must also be an image or nothing,
    /// which this does not check: the key records it (`LeafKey.Values.contentsDrawable`, so
    /// `contents` is read once), and every caller must test that too, as `cachedLeaf` and the
    /// footprints do.
    static func pixelsFollowKey(_ model: CALayer, _ p: CALayer) -> Bool {
        drawnByThePlainPath(p) && LayerContent.drawsItself(model)
    }

    /// No mask, no shadow, and neither aliased edges nor `shouldRasterize`: nothing that takes
    /// `p` off the plain drawing path (`pixelsFollowKey`, `drawsNothingOfItsClass`).
    static func drawnByThePlainPath(_ p: CALayer) -> Bool {
        p.shadowOpacity == 0 && p._renderingOptions.isDisjoint(with: offThePlainPath) && p.mask == nil
    }

    /// The rendering options that take a layer off the plain drawing path (`drawnByThePlainPath`).
    /// Built from raw values: an array literal here is folded into every use and built there
    /// through SetAlgebra's generic initializer (callgrind: ~30 K instructions a Lottie frame).
    static let offThePlainPath = CALayer._RenderingOptions(rawValue: CALayer._RenderingOptions.aliasedEdges.rawValue
                                                                     | CALayer._RenderingOptions.rasterized.rawValue)

    /// Largest retained bitmap side (pixels); bigger layers are drawn directly.
    static let maxLeafSide: CGFloat = 4096

    /// Most pixels of one retained bitmap for a `frame`-sized target: four frames' worth, at
    /// least 256². A bitmap pays for itself by being reused; one much larger than the frame
    /// (a layer scaled up far beyond the target) would cost its whole area at every change while
    /// only the part on the target shows, so such a layer is drawn directly, clipped to the target
    /// (found by fuzz-layers: a 32-point layer scaled ×115 on a 32×32 target was
    /// rasterized at 3 682² pixels per frame).
    static func maxLeafPixels(frame: Pixmap) -> Int { max(4 * frame.width * frame.height, 256 * 256) }

    /// Most pixels all retained bitmaps of a `frame`-sized target may hold together: sixteen
    /// frames' worth, at least 2 048² (a 1080p target: 33 M pixels, 133 MB; the S8 storm's
    /// thousand layers hold a few million). Layers past it are drawn directly, each frame.
    static func maxRetainedPixels(frame: Pixmap) -> Int { max(16 * frame.width * frame.height, 2048 * 2048) }

    /// Whether a `width`×`height` bitmap may be retained.
    func mayRetain(width: CGFloat, height: CGFloat) -> Bool {
        width <= LayerRenderer.maxLeafSide && height <= LayerRenderer.maxLeafSide && width * height <= CGFloat(leaves.maxPixels)
    }

    /// The layer drawn under `affine` into a bitmap covering the device box of `area` (its
    /// content rectangle, layer space) plus one pixel.
    func deviceLeaf(_ model: CALayer, _ p: CALayer, area: CGRect, key: LeafKey, affine: Transform) -> Leaf? {
        guard let box = LayerGeometry.deviceBox(area, CATransform3D(affine), margin: 1),
              mayRetain(width: CGFloat(box.x1 - box.x0), height: CGFloat(box.y1 - box.y0)),
              let fresh = try? Pixmap(width: box.x1 - box.x0, height: box.y1 - box.y0) else { return nil }
        let toCache = affine.concatenating(Transform(a: 1, b: 0, c: 0, d: 1, tx: -Double(box.x0), ty: -Double(box.y0)))
        drawingWithTargetScratch(fresh) {
            drawFlatContent(model, p, transform: toCache, into: fresh)
            drawBorder(p, matrix: CATransform3D(toCache), into: fresh)
        }
        return Leaf(key: key, pixmap: fresh,
                    placement: .device(Orientation(affine), origin: (Double(box.x0) - affine.tx, Double(box.y0) - affine.ty)),
                    owner: model, seen: Orientation(affine))
    }

    /// The layer's `area` (its content rectangle, layer space) drawn at `rasterScale` pixels per
    /// point, one transparent pixel of margin around.
    func layerLeaf(_ model: CALayer, _ p: CALayer, area b: CGRect, key: LeafKey, rasterScale: CGFloat,
                           orientation: Orientation) -> Leaf? {
        let toCache = Transform(a: Double(rasterScale), b: 0, c: 0, d: Double(rasterScale),
                                tx: 1 - Double(b.minX * rasterScale), ty: 1 - Double(b.minY * rasterScale))
        let fw = (b.width * rasterScale).rounded(.up), fh = (b.height * rasterScale).rounded(.up)
        guard fw.isFinite, fh.isFinite, mayRetain(width: fw, height: fh),
              let fresh = try? Pixmap(width: Int(fw) + 2, height: Int(fh) + 2) else { return nil }
        drawingWithTargetScratch(fresh) {
            drawFlatContent(model, p, transform: toCache, into: fresh)
            drawBorder(p, matrix: CATransform3D(toCache), into: fresh)
        }
        return Leaf(key: key, pixmap: fresh, placement: .layer(toCache: toCache), owner: model, seen: orientation)
    }

    // MARK: - Backing stores

    /// Draws `model`'s backing store now, as `drawFlatContent` will ask for it, when the layer
    /// may draw content of its own (`mayDrawContent`; a CATiledLayer draws tiles instead,
    /// `+Tiles`) — which runs its `display()` when it needs display. Content drawn anew at every frame (`CALayer._drawsAnimatedContent`) is left to
    /// `drawFlatContent` (drawing it here too would draw it twice). A UIView's layer counts as
    /// drawn by its delegate until its first display finds that the view draws nothing
    /// (`CALayerDelegate._drawsContent`), so calling this before deciding whether the layer is
    /// retained (`cachedLeaf`) makes the decision the same whatever drew the layer before:
    /// a serial frame, or a banded frame's serial `prepare` pass (`LayerRenderer+Bands`).
    func displayDrawnContent(_ model: CALayer, _ p: CALayer) {
        guard Self.mayDrawContent(model), !(model is CATiledLayer), !model._drawsAnimatedContent,
              !(p.contents is CGImage), p.bounds.width > 0 || p.bounds.height > 0 else { return }
        _ = backingStore(for: model, p)
    }

    /// Whether `model` draws content into a backing store: it has a drawing delegate, or it is
    /// of a class of its own (which may override `draw(in:)`), not one Citrine draws itself.
    static func mayDrawContent(_ model: CALayer) -> Bool {
        LayerContent.drawnByDelegate(model) || type(of: model) != CALayer.self && !LayerContent.isOfASelfDrawnClass(model)
    }

    /// `kept` (the backing store kept for `model`) when it still holds the layer's content for
    /// `p`: drawn for this layer at its current size and grey setting, the layer not needing
    /// display, and neither it nor an animation running now drawn from a presentation copy.
    func keptBackingStore(_ kept: BackingStore?, for model: CALayer, _ p: CALayer) -> BackingStore? {
        guard let kept, kept.owner === model, kept.size == p.bounds.size, !model.needsDisplay(), !kept.animated,
              !model._drawsAnimatedContent, kept.gray == model._renderingOptions.contains(.grayContents) else { return nil }
        return kept
    }

    /// The layer's drawn content (delegate `draw(_:in:)` or an overridden `draw(in:)`), cached
    /// until the layer needs display or changes size. nil when nothing is drawn: no drawing
    /// delegate nor subclass, or a drawing that left every pixel transparent (kept as empty, so
    /// that it costs nothing per frame). While an animation of a key that `needsDisplay(forKey:)`
    /// names runs, the presentation copy `p` is drawn at every frame (with its interpolated
    /// values), as Core Animation redraws the presentation layer; otherwise the model is.
    func backingStore(for model: CALayer, _ p: CALayer) -> Pixmap? {
        let key = ObjectIdentifier(model)
        let kept = backingStores[key]
        // Most layers (plain containers) draw no content and keep none: nothing more to ask
        // (whether an animation redraws content parses its key paths).
        guard kept != nil || Self.mayDrawContent(model) else { return nil }
        if let cached = keptBackingStore(kept, for: model, p) { return cached.pixmap }
        guard Self.mayDrawContent(model) else { return nil }
        let size = p.bounds.size
        let animated = model._drawsAnimatedContent
        let gray = model._renderingOptions.contains(.grayContents)
        // Clamped just past the largest pixmap, which then refuses it: a size may be 1e30.
        let limit = 0...Pixmap.maxDimension + 1
        let w = Int(clamping: Double((size.width * scale).rounded(.up)), to: limit)
        let h = Int(clamping: Double((size.height * scale).rounded(.up)), to: limit)
        guard w > 0, h > 0, let pixmap = try? Pixmap(width: w, height: h) else { return nil }
        let ctx = CGContext(pixmap: pixmap, origin: .topLeft, scale: scale)
        ctx.translateBy(x: -p.bounds.minX, y: -p.bounds.minY)
        model.display()
        (animated ? p : model).draw(in: ctx)
        if gray { Self.makeGray(pixmap) }
        let drawn = pixmap.isTransparent ? nil : pixmap
        backingStores[key] = BackingStore(size: size, pixmap: drawn, owner: model, animated: animated, gray: gray)
        return drawn
    }
}
