import Compositor
import CoreText
import Foundation
import ImageCodecs
import QuartzCore
import Raster
@_exported import Scene
import Synchronization

/// Renders a layer tree over a time range into a file — PNG still or sequence, GIF, APNG, MP4,
/// MOV, WebM — or hands the frames to the caller (Citrine; Apple has no exporter).
///
///     let exporter = CAAnimationExporter(layer: root, size: CGSize(width: 320, height: 240), scale: 2)
///     try exporter.export(to: URL(fileURLWithPath: "spin.gif"), fps: 30, duration: 2)
///
/// **Time.** Frame times are media times (`CACurrentMediaTime()` values), sampled half-open:
/// see `ExportTimeline`. An export shows what the screen would show from the moment the tree was
/// committed: the default timeline starts at `defaultStart`, where the tree's animations begin
/// (the media time at which the earliest of them was added, or the exporter's commit when that
/// is earlier), so a tree built on the system clock — as iOS code builds it, never setting the
/// clock — exports its animations from their first frame; a tree built at manual time 0 starts
/// at 0. An explicit `start` is a media time, as before. While exporting, the rendering thread's
/// own media clock reads each frame's time, and each scripted input's time while the input is
/// handled (the Scene module's clock rule), so a delegate or touch handler that reads
/// `CACurrentMediaTime()` sees the frame's or the event's time; no other thread's clock moves.
///
/// **Sources.**
/// * `init(layer:size:scale:)` and `init(scene:script:scale:)` — a tree or a scene you built. It
///   is presented at each frame time in order, on the thread that calls `export`, as a display
///   would show it: delegate callbacks run and finished animations are removed. With `threads`
///   > 1 the other threads encode meanwhile. A script's times count from `defaultStart`.
/// * `init(size:scale:makeLayer:)` — a function that builds the tree. Each of `threads` worker
///   threads (which also encode) builds its own tree (with its media clock at 0 while
///   building) and renders every `threads`-th frame; each worker still steps through every frame time (a commit and the due
///   delegate events, without drawing), so every tree lives through the same history and the
///   frames are the same as with one thread. Layer trees are confined to their thread
///   (`CATransaction` keeps its state per thread, as Apple's does).
/// * `init(size:scale:scenesShareState:script:makeScene:)` — the same with a `HostedScene` (a
///   tree and what drives it, such as a UIKit window) and scripted input, advanced at every frame
///   time through a `SceneDriver` (`advanceFrameByFrame(to:)`).
///
/// **Output.** Files are written to a hidden temporary file in the destination's folder and
/// renamed into place when complete: a failed, cancelled or killed export leaves no partial
/// file, and the next export to that folder removes what a killed one left.
public final class CAAnimationExporter: @unchecked Sendable {
    /// Where the frames come from.
    enum Source {
        /// One scene built by the caller, drawn on the thread that exports.
        case scene(SceneDriver)
        /// A scene per rendering thread.
        case builtScene(@Sendable () -> any HostedScene)
        /// One scene, drawn on one thread (`scenesShareState`).
        case sharedScene(@Sendable () -> any HostedScene)
    }

    let source: Source
    /// The scripted input of a built scene (times from media time 0).
    private let script: SceneScript
    /// Size of the picture in points.
    public let size: CGSize
    /// Pixels per point (1 = @1x, 2 = @2x, …).
    public let scale: CGFloat
    /// The media time (seconds) at which the default timeline starts: for a tree or scene you
    /// built, the time at which the earliest of its animations was added, or the time of the
    /// exporter's own commit (`init`) when that is earlier or there are none; 0 for the
    /// `makeLayer`/`makeScene` forms, whose trees are built at media time 0.
    public let defaultStart: CFTimeInterval
    /// The colour behind the layer tree; nil (default) is transparent — and white for formats
    /// that cannot store transparency (MP4).
    public var background: CGColor?
    /// The number of threads an export works on, in all: each renders frames, encodes them and
    /// writes them (see `FramePipeline`), so 1 means one thread doing everything in turn and N
    /// means N threads, with no other thread doing export work. The `makeLayer`/`makeScene`
    /// forms render on all of them (each builds its own tree); a single tree (`init(layer:)`)
    /// is drawn on the calling thread, which counts as one of them, the others encoding.
    /// Values below 1 count as 1; at most 64, and no more than the frames. Default: the
    /// number of active processors.
    public var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    /// Largest side in pixels (`Raster.Pixmap.maxDimension`).
    public static var maxPixelSide: Int { Pixmap.maxDimension }
    /// Largest side in points, 2³⁰, whatever the scale (a scene is built at its point size).
    public static let maxPointSide = 1 << 30

    /// The runs in progress and a cancel waiting for the next (`ExportCancellation`).
    private let runs = Mutex(ExportRuns())

    /// Exports `layer`'s tree, `size` points at `scale` pixels per point. Commits the calling
    /// thread's pending transaction, so animations just added get their begin times now.
    public convenience init(layer: CALayer, size: CGSize, scale: CGFloat = 1) {
        self.init(scene: LayerScene(rootLayer: layer, size: size), scale: scale)
    }

    /// Exports `scene` (`scene.size` points at `scale` pixels per point) with `script`'s input,
    /// whose times count from `defaultStart`. Commits the calling thread's pending transaction,
    /// so animations just added get their begin times now.
    public init(scene: any HostedScene, script: SceneScript = [], scale: CGFloat = 1) {
        CATransaction.flush()
        let committed = CACurrentMediaTime()
        defaultStart = min(scene.rootLayer.earliestAnimationAddition ?? committed, committed)
        source = .scene(SceneDriver(scene: scene, script: script, startTime: defaultStart))
        self.script = []
        size = scene.size
        self.scale = scale
    }

    /// Exports the tree `makeLayer` builds (called once per worker thread, with that thread's
    /// media clock at 0), `size` points at `scale` pixels per point.
    public init(size: CGSize, scale: CGFloat = 1, makeLayer: @escaping @Sendable () -> CALayer) {
        source = .builtScene { LayerScene(rootLayer: makeLayer(), size: size) }
        script = []
        defaultStart = 0
        self.size = size
        self.scale = scale
    }

    /// Exports the scene `makeScene` builds — a layer tree and what drives it, such as a UIKit
    /// window (called once per worker thread, with that thread's media clock at 0) — with
    /// `script`'s input (times from 0). Each worker brings its scene through every frame time in
    /// order (`SceneDriver.advanceFrameByFrame(to:)`) before drawing.
    ///
    /// `scenesShareState`: true when two scenes alive at once would share process-wide state —
    /// UIKit's scenes all drive `UIApplication.shared` — so that only one may exist: the
    /// export then builds one scene and draws every frame on one thread, the others (`threads`)
    /// encoding. Default false: every rendering thread builds its own.
    public init(size: CGSize, scale: CGFloat = 1, scenesShareState: Bool = false, script: SceneScript = [],
                makeScene: @escaping @Sendable () -> any HostedScene) {
        source = scenesShareState ? .sharedScene(makeScene) : .builtScene(makeScene)
        self.script = script
        defaultStart = 0
        self.size = size
        self.scale = scale
    }

    /// Stops the running export (from any thread), or the next one when none is running: it
    /// throws `ExportError.cancelled` and writes nothing. Each cancel stops one export; the
    /// exporter exports again after it. An export that has stopped already — failed, or left
    /// by a `frames()` loop that ended early, while its threads wind down — is not running: the
    /// cancel waits for the next. With several exports running at once, the latest started stops.
    public func cancel() {
        runs.withLock { $0.cancel() }
    }

    // MARK: - Checks

    /// The frame size in pixels, after checking size and scale (before any drawing).
    public func pixelSize() throws(ExportError) -> (width: Int, height: Int) {
        let maxPoints = CGFloat(Self.maxPointSide)
        guard size.width.isFinite, size.height.isFinite, size.width >= 1, size.height >= 1,
              size.width <= maxPoints, size.height <= maxPoints else {
            throw .badValue("size", "\(size.width)×\(size.height)", "1 to \(Self.maxPointSide) points a side")
        }
        guard scale.isFinite, scale > 0 else { throw .badValue("scale", "\(scale)", "a positive number") }
        let w = (size.width.rounded() * scale).rounded(), h = (size.height.rounded() * scale).rounded()
        let side = Double(Self.maxPixelSide)
        guard w >= 1, h >= 1, w <= side, h <= side, w * h <= Double(Pixmap.maxPixelCount) else {
            throw .badValue("frame size", "\(w)×\(h) pixels (\(size.width)×\(size.height) points at scale \(scale))",
                            "at most \(Self.maxPixelSide) pixels a side and \(Pixmap.maxPixelCount) pixels in all")
        }
        return (Int(w), Int(h))
    }

    // MARK: - Frames to the caller

    /// Renders `timeline`'s frames and hands each to `body`, in order, one call at a time, on
    /// one of the export's threads (see `threads`; which one may change from frame to frame).
    /// The pixmap is reused after `body` returns: copy what you keep. Throws what `body`
    /// throws, and `ExportError.cancelled` after `cancel()`.
    public func forEachFrame(_ timeline: ExportTimeline, _ body: (ExportFrame) throws -> Void) throws {
        try forEachFrame(timeline, cancellation: ExportCancellation(), body)
    }

    /// The same, stopped by `cancellation` as well as by `cancel()`.
    func forEachFrame(_ timeline: ExportTimeline, cancellation: ExportCancellation,
                      _ body: (ExportFrame) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            let consumer = FrameConsumer { index, pixmap in
                try body(ExportFrame(index: index, time: timeline.time(ofFrame: index), pixmap: pixmap))
            }
            try run(timeline, background: background, writers: [consumer], cancellation: cancellation) { _ in }
        }
    }

    /// The frames of [start, end) at `fps` (plus the one at `end` with `includeEnd`) as an
    /// asynchronous sequence: `for try await frame in exporter.frames(fps: 30, end: 2) { … }`.
    /// Frames are rendered ahead (a few at most) on other threads; each frame's pixmap is the
    /// caller's to keep.
    /// `start` and `end` are media times; `start` defaults to `defaultStart`.
    public func frames(fps: Double = 30, start: CFTimeInterval? = nil, end: CFTimeInterval,
                       includeEnd: Bool = false) throws(ExportError) -> ExportFrames {
        let timeline = try ExportTimeline(start: start ?? defaultStart, end: end, fps: fps, includeEnd: includeEnd)
        _ = try pixelSize()
        return ExportFrames(exporter: self, timeline: timeline)
    }

    // MARK: - The render loop

    /// Renders every frame of `timeline` and passes each through `writers` (prepared on any
    /// worker, written in order one at a time), calling `written` after each frame's writes.
    /// Runs on `threads` threads in all (see `FramePipeline`): for the `makeLayer`/`makeScene`
    /// forms that many new threads, the calling thread waiting; for a given tree the calling
    /// thread (which draws every frame) and `threads − 1` new ones. `cancellation` stops this
    /// run only; `cancel()` reaches it while it is registered.
    func run(_ timeline: ExportTimeline, background: CGColor?, writers: [any FrameWriter],
             cancellation: ExportCancellation, written: @escaping (Int) throws -> Void) throws {
        let (width, height) = try pixelSize()
        // Registered from here to the end: it takes a cancel made before it started, and is the
        // one `cancel()` stops while it is the latest still going.
        runs.withLock { $0.begin(cancellation) }
        defer { runs.withLock { $0.end(cancellation) } }
        if cancellation.isStopped { throw ExportError.cancelled }
        let workers = max(1, min(threads, 64, timeline.frameCount))
        let renders: @Sendable (Int, Int) -> Bool
        if case .builtScene = source {
            renders = { worker, index in index % workers == worker }
        } else {
            // One tree or one scene: worker 0 draws every frame.
            renders = { worker, _ in worker == 0 }
        }
        let pipeline = FramePipeline(frameCount: timeline.frameCount, workers: workers, width: width, height: height,
                                     keepsPrevious: writers.contains { $0.keepsPreviousFrame },
                                     preparesFirstFrameFirst: writers.contains { $0.preparesFirstFrameFirst },
                                     renders: renders)
        for writer in writers { try writer.start(workers: workers, slots: pipeline.capacity) }
        cancellation.attach(pipeline)
        let job = ExportJob(pipeline: pipeline, writers: writers, written: written)
        // The job lets go of the writers and the closure once every worker is done, so a caller's
        // non-escaping closure (`forEachFrame`) is released by the time `run` returns.
        defer { job.release() }
        let drawing = Drawing(size: size, scale: scale, background: background, timeline: timeline, script: script)
        switch source {
        case let .builtScene(make):
            let done = (0..<workers).map { worker in
                Self.spawn { drawing.workOnBuiltScene(make, worker: worker, job: job) }
            }
            for worker in done { worker.wait() }
        case .sharedScene, .scene:
            // Worker 0 draws every frame; the others only encode.
            let helpers = (1..<workers).map { worker in Self.spawn { job.work(worker: worker, renderer: nil) } }
            if case let .sharedScene(make) = source {
                Self.spawn { drawing.workOnBuiltScene(make, worker: 0, job: job) }.wait()
            } else if case let .scene(driver) = source {
                drawing.workOnScene(driver, job: job)
            }
            for helper in helpers { helper.wait() }
        }
        if let error = pipeline.error { throw error }
    }

    /// Runs `body` on a new thread with an 8 MiB stack (as the main thread has: drawing a deep
    /// tree recurses); the semaphore is signalled when it ends.
    private static func spawn(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        return finished
    }

    /// What one export draws: shared by its worker threads (each with its own renderer).
    private struct Drawing: @unchecked Sendable {
        let size: CGSize
        let scale: CGFloat
        let background: CGColor?
        let timeline: ExportTimeline
        let script: SceneScript

        /// A worker of the `makeLayer`/`makeScene` forms: builds its own scene at media time 0,
        /// then works, stepping the scene through every frame time and drawing its own frames.
        func workOnBuiltScene(_ make: @Sendable () -> any HostedScene, worker: Int, job: ExportJob) {
            CAMediaClock._setManualTimeForCurrentThread(0)
            defer { CAMediaClock._useSharedTime() }
            let scene = make()
            CATransaction.flush()
            work(on: SceneDriver(scene: scene, script: script), worker: worker, job: job)
        }

        /// A scene given to the exporter: worker 0, on the calling thread, draws every frame; the
        /// thread's clock is as it was afterwards.
        func workOnScene(_ driver: SceneDriver, job: ExportJob) {
            CAMediaClock.restoringCurrentThreadTime {
                work(on: driver, worker: 0, job: job)
            }
        }

        private func work(on driver: SceneDriver, worker: Int, job: ExportJob) {
            let stepper: SceneStepper
            do {
                stepper = try SceneStepper(driver: driver, size: size, scale: scale, background: background, timeline: timeline)
            } catch {
                job.pipeline.fail(error)
                return
            }
            job.work(worker: worker, renderer: stepper)
            if job.pipeline.error == nil { stepper.advance(upTo: timeline.frameCount) }
        }
    }
}

/// A scene stepped through the frame times in order, drawing the frames asked for.
final class SceneStepper {
    private let driver: SceneDriver
    private let renderer: CARenderer
    private let timeline: ExportTimeline
    /// The next frame time the scene has not been brought to; negative numbers are the frames
    /// of the whole timeline before a slice's first (`ExportTimeline.frames(_:)`), which the scene
    /// lives through undrawn, as in one run over the whole.
    private var next: Int

    init(driver: SceneDriver, size: CGSize, scale: CGFloat, background: CGColor?, timeline: ExportTimeline) throws {
        self.driver = driver
        self.timeline = timeline
        next = -timeline.firstFrame
        renderer = try CARenderer(width: Int(size.width.rounded()), height: Int(size.height.rounded()), scale: scale)
        renderer.layer = driver.scene.rootLayer
        renderer.backgroundColor = background
        // Each frame from the tree alone: the same frame whatever the thread count.
        renderer._reusesBitmapsAcrossFrames = false
        // Frames are drawn in parallel already, each on one thread. A still too: bands would each
        // make their own copy of a new layer's bitmap, which the export's memory bound (README,
        // Limits; bad-input case png-32768-by-8192-exported) does not allow for.
        renderer._renderThreads = 1
    }

    /// Brings the scene through the frame times before `index` without drawing: one commit per
    /// frame time, so every worker's tree lives through the same history.
    func advance(upTo index: Int) {
        while next < index {
            bringScene(toFrame: next)
            CATransaction.flush()
            next += 1
        }
    }

    /// Draws frame `index` (after the times before it) into `target`, directly: no frame is
    /// drawn elsewhere and copied.
    func render(_ index: Int, into target: Pixmap) {
        advance(upTo: index)
        let t = bringScene(toFrame: index)
        renderer.retarget(target)
        renderer.beginFrame(atTime: t)
        renderer.render()
        renderer.endFrame()
        // The pipeline gives `target` to another worker next: this renderer must not touch it
        // again (its next `retarget` would take the drawing buffers out while that worker draws).
        renderer.releaseTarget()
        next = index + 1
    }

    /// Brings the scene to frame `index`'s time (the driver sets the thread's clock to it);
    /// returns the time.
    @discardableResult
    private func bringScene(toFrame index: Int) -> CFTimeInterval {
        let t = timeline.time(ofFrame: index)
        driver.advanceFrameByFrame(to: t)
        return t
    }
}

/// One export's shared state for its workers: the pipeline, the outputs and the closure called
/// after each frame is written. Each worker loops in `work`.
final class ExportJob: @unchecked Sendable {
    let pipeline: FramePipeline
    private var writers: [any FrameWriter]
    private var written: ((Int) throws -> Void)?
    /// The fonts each slot's frame drew text with (recorded while it renders).
    private let fonts: [FontUsage]

    init(pipeline: FramePipeline, writers: [any FrameWriter], written: @escaping (Int) throws -> Void) {
        self.pipeline = pipeline
        self.writers = writers
        self.written = written
        fonts = (0..<pipeline.capacity).map { _ in FontUsage() }
    }

    /// Takes tasks until every frame is written or the export fails; `renderer` draws the
    /// frames this worker owns (nil for a worker that owns none).
    func work(worker: Int, renderer: SceneStepper?) {
        do {
            while let task = try pipeline.nextTask(for: worker) {
                switch task {
                case let .render(index, pixmap):
                    let slot = pipeline.slot(of: index), usage = fonts[slot]
                    usage.removeAll()
                    usage.recording { renderer!.render(index, into: pixmap) }
                    for writer in writers { writer.rendered(index: index, slot: slot, fonts: usage) }
                case let .prepare(index, frame, previous):
                    let slot = pipeline.slot(of: index)
                    for writer in writers {
                        try writer.prepare(frame, previous: previous, index: index, slot: slot, worker: worker)
                    }
                case let .write(index, frame):
                    let slot = pipeline.slot(of: index)
                    for writer in writers { try writer.write(frame, index: index, slot: slot) }
                    try written!(index)
                }
                pipeline.finished(task)
            }
        } catch {
            pipeline.fail(error)
        }
    }

    /// Lets go of the outputs and the closure (once every worker is done).
    func release() {
        writers = []
        written = nil
    }
}

/// One exported frame.
public struct ExportFrame: @unchecked Sendable {
    /// 0-based position in the timeline.
    public let index: Int
    /// Its media time (seconds).
    public let time: CFTimeInterval
    /// The pixels: premultiplied RGBA8, `size × scale` pixels.
    public let pixmap: Pixmap

    /// The frame as a `CGImage` (sharing the pixels).
    public var image: CGImage { CGImage(pixmap: pixmap) }
}
