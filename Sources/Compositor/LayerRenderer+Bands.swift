import CoreText
import Dispatch
import Foundation
import QuartzCore
import Raster
import Synchronization

// Banded frames: one frame drawn by several threads at once.
//
// Design note
// -----------
// A full frame is split into horizontal bands of rows, as many as threads, and each band is
// drawn by a renderer of its own into a view of those rows of the frame (`Pixmap(band:of:)`).
// The bands start of equal height; after each frame their edges move to the rows expected to
// give every band the same processor time (`Bands.rebalance`, `RowCostEstimate`: a scene's
// layers are rarely spread evenly over its rows).
// Every band draws the whole tree in FRAME coordinates — the same layer → device matrices, the
// same offscreen surfaces at the same device positions, blurs and shadows over the whole
// surface — and only the writes are limited to its rows (the cells of a fill are made for the
// whole path, only the band's rows are swept). A pixel is therefore computed by the same
// arithmetic whatever band holds it, and the frame has the same bytes at any thread count
// (BandTests). Drawing each band with its origin moved to the band's top instead is not
// exact: the translated matrices round differently (a carousel's perspective, a blur's edge).
//
// Nothing mutable is shared while the bands draw:
// - before them, on the calling thread, `prepare` evaluates the presentation of every layer the
//   frame can show at the frame time — which also fills the layers' time caches and numbers
//   their sublayers — and draws the content of layers drawn by `draw(in:)` into the renderer's
//   backing stores (the bands read a copy of the table). The subtrees of a root with many
//   sublayers are evaluated on every band's thread, each layer by one thread, those that would
//   write beyond their own layers or run app code left to the calling thread
//   (`prepareConcurrently`, `CALayer._presentsConcurrently`). A band's renderer never evaluates a
//   presentation or a transition: it reads the copy `prepare` left
//   (`CALayer._evaluatedPresentation`, `LayerRenderer.presented`), so the tree is only read
//   while the bands draw, by construction (ThreadSanitizer: BandTests);
// - retained leaf bitmaps (`Leaves`) are only read by the bands; a band that needs a new one
//   makes it itself and logs it (`BandLog`), and the logs are applied after the bands, in band
//   order (near the retained-pixel budget, which layers stay retained can differ from a serial
//   frame's; the pixels of this frame cannot);
// - each band renderer has its own scan-conversion cells, paint rows and gradient tables (its
//   band pixmap's), depth-order scratch and offscreen account (with the frame's budget: bands
//   together may hold that many times a serial frame's surfaces); images' mipmaps are built
//   under a lock (`Pixmap.mipmap`).
// A frame in which an animation event is due (a start, a stop, a finished animation removed)
// is drawn serially: delivering it may run delegate code that changes layers drawn before the
// one it belongs to, which a serial frame shows only from the next frame on.
// Emitter layers' particles are computed in `prepare` too, once, and each band draws their
// sprites' rows that it holds.
// Trees holding what keeps state per frame elsewhere are drawn serially, whole: replicators
// (their instances evaluate presentations at shifted times), tiled layers, running
// transitions, filters, `shouldRasterize`, content redrawn at every frame while an animation
// runs, and trees deeper than `maxBandedDepth`. Damage patches are drawn serially (they are small).
// The band renderers and their logs are kept from frame to frame: after the first frame no
// band allocates for its bookkeeping.
extension LayerRenderer {
    /// What a band's drawing would have changed in the shared retained bitmaps.
    final class BandLog {
        /// Retained bitmaps the band showed, and the orientation each was shown at.
        var touched: [(Leaf, Orientation)] = []
        /// Bitmaps the band made for layers without a usable retained one.
        var made: [(ObjectIdentifier, Leaf)] = []
        /// Retained bitmaps whose layers the band drew directly, their pixels having changed in
        /// the frame before too, with the key they were drawn at (`Leaf.directKey`).
        var redirected: [(Leaf, LeafKey)] = []
        /// Retained bitmaps whose layers the band drew directly while they turn, and the
        /// orientation they were drawn at.
        var turned: [(Leaf, Orientation)] = []
        /// Kept flat bitmaps of projected parts the band showed (`keptProjection`).
        var projectedShown: [ProjectedPart] = []
        /// Flat bitmaps the band made for projected parts without a usable kept one, and their
        /// cost in pixels (`Leaves.cost`).
        var projectedMade: [(ProjectedPart.ID, ProjectedPart)] = []
        var projectedPixels = 0
    }

    /// Trees nested deeper than this are drawn serially (drawing deeper moves to fresh stacks,
    /// `+Stack`, one thread at a time).
    static let maxBandedDepth = 256

    /// The threads a frame is drawn on unless the renderer is told otherwise: the
    /// `CITRINE_RENDER_THREADS` environment variable (a whole number from 1 to 64), else the
    /// processors the process may run on. An invalid value is ignored.
    static let defaultRenderThreads: Int = {
        if let text = getenv("CITRINE_RENDER_THREADS").map({ String(cString: $0) }) {
            if let n = Int(text), (1...maxRenderThreads).contains(n) { return n }
        }
        return max(1, min(maxRenderThreads, ProcessInfo.processInfo.activeProcessorCount))
    }()

    /// Fewest rows a band has: a frame with fewer than twice as many is drawn serially, and
    /// one with fewer than that many per thread in fewer bands.
    static let minBandRows = 8

    /// The bands a full frame is drawn in with `threads` threads: kept from the last frame when
    /// their number is the same; nil when the frame is drawn serially.
    func bands(threads: Int) -> Bands? {
        let count = min(threads, LayerRenderer.maxRenderThreads, target.height / LayerRenderer.minBandRows)
        guard count > 1 else { return nil }
        if let kept = frameBands, kept.renderers.count == count { return kept }
        frameBands = Bands(count: count, of: self)
        return frameBands
    }

    /// Most threads (bands) a frame is drawn on.
    static let maxRenderThreads = 64

    /// The renderers of a frame's bands, kept from frame to frame for one main renderer.
    final class Bands {
        /// The renderer whose target the bands divide (which keeps them).
        unowned let main: LayerRenderer
        let renderers: [LayerRenderer]
        /// Layers still to visit in `prepare` (storage kept between frames).
        private var pending: [(CALayer, Int)] = []
        /// Each thread's share of `prepareConcurrently` (kept between frames).
        private var chunks: [Chunk] = []
        /// How many of the root's sublayers the last `prepare` evaluated, with their subtrees, on
        /// several threads (`prepareConcurrently`; those left to the calling thread not counted).
        private(set) var concurrentlyPrepared = 0
        /// Layers whose new bitmap has been applied in `merge` (storage kept between frames).
        private var merged: Set<ObjectIdentifier> = []
        /// The processor time (seconds) each band took in the last frame, written by its thread.
        private let costs: UnsafeMutableBufferPointer<Double>
        /// The first row of each band after `rebalance` (storage kept between frames).
        private var starts: [Int]
        /// What each row of the frame is expected to cost (`rebalance`).
        private var rowCosts = RowCostEstimate()

        /// `count` bands of `main`'s target, of equal height (± 1 row) until the first frame's
        /// costs move their edges (`rebalance`).
        init(count: Int, of main: LayerRenderer) {
            self.main = main
            let height = main.target.height
            renderers = (0..<count).map { i in
                let band = Pixmap(band: height * i / count..<height * (i + 1) / count, of: main.target)
                let renderer = LayerRenderer(target: band, scale: main.scale, origin: main.origin,
                                             leaves: main.leaves, offscreen: OffscreenAccount(budget: main.offscreen.budget))
                renderer.bandLog = BandLog()
                return renderer
            }
            costs = .allocate(capacity: count)
            costs.initialize(repeating: 0)
            starts = Array(repeating: 0, count: count)
        }

        deinit { costs.deallocate() }

        /// Readies the frame of `root` at `time` for the bands: evaluates every presentation and
        /// draws the backing stores it needs (on `main`); false when the tree holds something
        /// that must be drawn serially (see the design note), the tree then partly evaluated.
        func prepare(_ root: CALayer, at time: CFTimeInterval) -> Bool {
            // `main.preparedParticles` is empty outside a banded frame (`draw` empties it): a
            // frame drawn serially computes its particles as it draws them.
            let ready = prepareTree(root, at: time)
            if !ready { main.preparedParticles.removeAll(keepingCapacity: true) }
            return ready
        }

        /// `prepare`'s walk of the tree. A root with at least `minConcurrentSublayers` sublayers
        /// has them evaluated on every band's thread (`prepareConcurrently`) once it is itself:
        /// with S8's 1 000 animated layers the serial walk was ≈ 8 % of a two-thread frame, the
        /// other thread idle meanwhile (band-bench, Benchmarks/NOTES.md).
        private func prepareTree(_ root: CALayer, at time: CFTimeInterval) -> Bool {
            concurrentlyPrepared = 0
            guard renderers.count > 1, let subs = root.sublayers, subs.count >= Bands.minConcurrentSublayers else {
                return walk(from: root, depth: 0, at: time)
            }
            guard let p = prepareLayer(root, depth: 0, at: time) else { return false }
            if let mask = p.mask, !walk(from: mask, depth: 1, at: time) { return false }
            root._prepareSublayersForConcurrentPresentation(atMediaTime: time)
            guard prepareConcurrently(subs, at: time) else { return false }
            concurrentlyPrepared = subs.count - chunks.reduce(0) { $0 + $1.deferred.count }
            for chunk in chunks {
                for sub in chunk.deferred where !walk(from: sub, depth: 1, at: time) { return false }
            }
            return true
        }

        /// Fewest sublayers of the root for `prepare` to evaluate them on several threads: the
        /// second thread starts 50–55 µs after it is asked (median, timestamps around band-bench's
        /// S8 bands), and S8's prepare took ≈ 1 µs a layer, so a root with fewer sublayers would
        /// gain little or nothing.
        static let minConcurrentSublayers = 256

        /// `prepare` of `top`'s subtree (`top` at `depth`), on the calling thread.
        private func walk(from top: CALayer, depth: Int, at time: CFTimeInterval) -> Bool {
            Bands.visit(from: top, depth: depth, stack: &pending) { prepareLayer($0, depth: $1, at: time) }
        }

        /// Visits `top`'s subtree (`top` at `depth`) in `prepare`'s order — a layer, its mask's
        /// subtree, then its sublayers' in order (`_presentation` prefetches the next siblings) —
        /// with `stack` as storage; `visit` gives a layer's presentation (whose mask it follows),
        /// or nil to stop. False when stopped.
        private static func visit(from top: CALayer, depth: Int, stack: inout [(CALayer, Int)],
                                  _ visit: (CALayer, Int) -> CALayer?) -> Bool {
            stack.removeAll(keepingCapacity: true)
            stack.append((top, depth))
            while let (model, depth) = stack.popLast() {
                guard let p = visit(model, depth) else { return false }
                for sub in (model.sublayers ?? []).reversed() { stack.append((sub, depth + 1)) }
                if let mask = p.mask { stack.append((mask, depth + 1)) }
            }
            return true
        }

        /// `prepare`'s work for one layer: its presentation, or nil when the frame must be drawn
        /// serially (see the design note).
        private func prepareLayer(_ model: CALayer, depth: Int, at time: CFTimeInterval) -> CALayer? {
            guard let p = Bands.evaluate(model, depth: depth, at: time) else { return nil }
            // Drawn content, as `drawFlatContent` asks for it.
            if LayerRenderer.isShown(p) {
                main.displayDrawnContent(model, p)
                // An emitter's particles, computed here once (as a serial frame computes
                // them, with the main renderer's birth-step plans) for every band to draw.
                if let emitter = p as? CAEmitterLayer, emitter.emitterCells?.isEmpty == false {
                    emitter._particles(atMediaTime: time, into: &main.particleFrame)
                    let slot = main.preparedParticles.count
                    if slot == main.particleSlots.count { main.particleSlots.append(([], [])) }
                    main.particleSlots[slot].cells.removeAll(keepingCapacity: true)
                    main.particleSlots[slot].cells.append(contentsOf: main.particleFrame.cells)
                    main.particleSlots[slot].particles.removeAll(keepingCapacity: true)
                    main.particleSlots[slot].particles.append(contentsOf: main.particleFrame.particles)
                    main.preparedParticles[ObjectIdentifier(emitter)] = slot
                }
            }
            return p
        }

        /// The checks and the presentation evaluation of `prepareLayer`, which write nothing
        /// but the layer and its copy: nil when the frame must be drawn serially.
        private static func evaluate(_ model: CALayer, depth: Int, at time: CFTimeInterval) -> CALayer? {
            guard depth < LayerRenderer.maxBandedDepth, !(model is CAReplicatorLayer),
                  !(model is CATiledLayer), !model._hasDueAnimationEvents(atMediaTime: time),
                  model._transition(atMediaTime: time) == nil else { return nil }
            let p = model._presentation(atMediaTime: time) ?? model
            // A layer not shown is evaluated with its whole subtree all the same: what the
            // bands read must not depend on the drawing code skipping exactly what this pass
            // skips (fuzz-layers found a band reading a presentation never evaluated).
            if LayerRenderer.isShown(p) {
                guard p._effects == nil, !p._renderingOptions.contains(.rasterized) else { return nil }
                // Content drawn anew at every frame would be drawn by every band.
                guard !(LayerRenderer.mayDrawContent(model) && model._drawsAnimatedContent) else { return nil }
            }
            return p
        }

        /// The subtrees of `subs` (the root's sublayers, the root evaluated and its sublayers
        /// readied) evaluated on every band's thread at once, each thread a run of consecutive
        /// sublayers (`chunks`). A subtree holding a layer that must be evaluated on the
        /// calling thread — one that is not `_presentsConcurrently`, or whose preparation runs
        /// app or shared code (drawn content: `draw(in:)`; an emitter's particles, into the
        /// main renderer) — is left, whole, to the caller (`Chunk.deferred`, in order). False
        /// when the frame must be drawn serially.
        private func prepareConcurrently(_ subs: [CALayer], at time: CFTimeInterval) -> Bool {
            let count = renderers.count
            while chunks.count < count { chunks.append(Chunk()) }
            let failed = Atomic<Bool>(false)
            let context = _ThreadContext.current
            // Each chunk is used by its own thread only; each layer is evaluated by one thread.
            nonisolated(unsafe) let chunks = chunks, subs = subs
            DispatchQueue.concurrentPerform(iterations: count) { k in
                let chunk = chunks[k]
                chunk.deferred.removeAll(keepingCapacity: true)
                context.adopt {
                    for sub in subs[subs.count * k / count..<subs.count * (k + 1) / count] {
                        guard !failed.load(ordering: .relaxed) else { return }
                        switch chunk.evaluate(sub, at: time) {
                        case .done: break
                        case .deferred: chunk.deferred.append(sub)
                        case .serial: failed.store(true, ordering: .relaxed)
                        }
                    }
                }
            }
            return !failed.load(ordering: .relaxed)
        }

        /// One thread's share of `prepareConcurrently` (storage kept between frames).
        private final class Chunk {
            /// Layers still to visit in the subtree being evaluated.
            var pending: [(CALayer, Int)] = []
            /// Root sublayers whose subtrees are left to the calling thread, in order.
            var deferred: [CALayer] = []

            enum Outcome { case done, deferred, serial }

            /// Evaluates the subtree of `top` (a sublayer of the root), or says why not.
            func evaluate(_ top: CALayer, at time: CFTimeInterval) -> Outcome {
                var outcome = Outcome.done
                _ = Bands.visit(from: top, depth: 1, stack: &pending) { model, depth in
                    guard model._presentsConcurrently, !LayerRenderer.mayDrawContent(model),
                          !(model is CAEmitterLayer) else { outcome = .deferred; return nil }
                    guard let p = Bands.evaluate(model, depth: depth, at: time) else { outcome = .serial; return nil }
                    return p
                }
                return outcome
            }
        }

        /// Fills every band with `background` and draws `root` at `time` into it, all bands at
        /// once (`footprints`: the frame's, when the tree is damage-tracked: each band then skips
        /// the subtrees that miss it), then applies what the bands logged to the shared retained
        /// bitmaps. Call `prepare` first.
        func draw(_ root: CALayer, at time: CFTimeInterval, footprints: Footprints?,
                  background: PremultipliedColor) {
            for band in renderers {
                band.backingStores = main.backingStores
                band.preparedParticles = main.preparedParticles
                band.particleSlots = main.particleSlots
                band.onScreen = footprints
                band.offscreen.budget = main.offscreen.budget
            }
            let context = _ThreadContext.current
            // Every band records its text into the caller's font usage (an export names the
            // fonts it drew: ExportFontRecordTests' still).
            let usage = FontUsage.active
            // Each band's renderer is used by its own thread only, and the tree is only read
            // while the bands draw (see the design note).
            // Each band writes only its own cost.
            nonisolated(unsafe) let renderers = renderers, root = root, costs = costs
            DispatchQueue.concurrentPerform(iterations: renderers.count) { i in
                let start = Bands.threadTime()
                context.adopt {
                    renderers[i].target.fill(with: background)
                    if let usage { usage.recording { renderers[i].render(root, at: time) } } else { renderers[i].render(root, at: time) }
                }
                costs[i] = Bands.threadTime() - start
            }
            // The footprints are updated in place at the next frame: no band keeps a reference.
            for band in renderers { band.onScreen = nil }
            merge()
            main.preparedParticles.removeAll(keepingCapacity: true)
            rebalance()
        }

        /// Processor time the calling thread has used, in seconds (not wall-clock time: a band
        /// whose thread waited for a processor costs no more).
        private static func threadTime() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
        }

        /// Moves the band edges so that the next frame's bands cost about the same: this frame's
        /// costs go into the estimate of what each row costs (`RowCostEstimate`), and the edges
        /// go where it splits into equal shares; every band keeps at least `minBandRows` rows.
        /// A pixel is computed by the same arithmetic whatever band holds it, so the bytes do
        /// not depend on the edges (BandTests).
        private func rebalance() {
            let count = renderers.count, height = main.target.height
            rowCosts.record(bands: count, height: height) { (renderers[$0].target.drawableRows, costs[$0]) }
            // Nothing measured yet (every cost 0): the edges stay.
            guard rowCosts.splitRows(into: &starts, height: height, minRows: LayerRenderer.minBandRows) else { return }
            for k in 0..<count {
                renderers[k].target.moveBand(to: starts[k]..<(k + 1 < count ? starts[k + 1] : height))
            }
        }

        /// Applies the bands' logs to `main`'s retained bitmaps, as a serial frame would have
        /// changed them, and empties the logs.
        private func merge() {
            let leaves = main.leaves
            merged.removeAll(keepingCapacity: true)
            for band in renderers {
                guard let log = band.bandLog else { continue }
                for (leaf, orientation) in log.touched {
                    if leaf.lastFrame != leaves.frame { leaf.noteDrawnInBands() }
                    leaf.seen = orientation
                    leaf.lastFrame = leaves.frame
                }
                // Every band logs the same layers: each is counted once, by its first log.
                for (leaf, orientation) in log.turned {
                    if leaf.lastFrame != leaves.frame { leaves.directDraws += 1 }
                    leaf.seen = orientation
                    leaf.lastFrame = leaves.frame
                }
                for (leaf, key) in log.redirected {
                    if leaf.lastFrame != leaves.frame { leaves.directDraws += 1 }
                    leaf.directKey = key
                    leaf.lastFrame = leaves.frame
                }
                for (id, leaf) in log.made where merged.insert(id).inserted {
                    leaves.rasterizations += 1
                    leaves.retain(leaf, for: id)
                }
                for part in log.projectedShown { part.lastFrame = leaves.frame }
                // Every band makes the same parts: each is kept from its first log.
                for (id, part) in log.projectedMade where leaves.projected[id].map({ $0.lastFrame != leaves.frame }) ?? true {
                    leaves.projections += 1
                    leaves.retain(part, for: id)
                }
                log.touched.removeAll(keepingCapacity: true)
                log.made.removeAll(keepingCapacity: true)
                log.redirected.removeAll(keepingCapacity: true)
                log.turned.removeAll(keepingCapacity: true)
                log.projectedShown.removeAll(keepingCapacity: true)
                log.projectedMade.removeAll(keepingCapacity: true)
                log.projectedPixels = 0
                band.backingStores = [:]
                band.preparedParticles = [:]   // released, not emptied in place: main's storage stays its own
                band.particleSlots = []
                band.onScreen = nil
                main.offscreen.absorbHighWater(of: band.offscreen)
            }
        }
    }
}
