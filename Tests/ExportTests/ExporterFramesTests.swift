import Compositor
import Export
import Foundation
import QuartzCore
import Raster
import Synchronization
import Testing

/// The exporter's frames: the right picture at each frame time (closed form), the same frames
/// whatever the number of threads, in order, with the history of delegate callbacks intact.
@Suite(.serialized) struct ExporterFramesTests {
    static let size = CGSize(width: 160, height: 40)
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

    /// A 20×20 red square whose centre moves linearly (CABasicAnimation's default timing is
    /// linear) from x = 20 to x = 120 over one second: its left edge is at 10 + 100·t points.
    static func movingSquare() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let square = CALayer()
        square.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        square.position = CGPoint(x: 20, y: 20)
        square.backgroundColor = red
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 20
        move.toValue = 120
        move.duration = 1
        square.add(move, forKey: "move")
        root.addSublayer(square)
        return root
    }

    /// Fades its layer out over 0.5 s when the animation it is the delegate of stops: the fade is
    /// added from inside a callback, so it begins at the commit after the stop was observed —
    /// which depends on every earlier frame time having been observed.
    final class FadeAfterStop: CAAnimationDelegate, @unchecked Sendable {
        weak var layer: CALayer?
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1
            fade.toValue = 0
            fade.duration = 0.5
            fade.fillMode = .forwards
            fade.isRemovedOnCompletion = false
            layer?.add(fade, forKey: "fade")
        }
    }

    static func squareThatFadesAfterMoving() -> CALayer {
        let root = movingSquare()
        let square = root.sublayers![0]
        let move = square.animation(forKey: "move")!.copy() as! CABasicAnimation
        move.duration = 0.25
        let delegate = FadeAfterStop()
        delegate.layer = square
        move.delegate = delegate
        square.add(move, forKey: "move")
        return root
    }

    static func frames(_ exporter: CAAnimationExporter, _ timeline: ExportTimeline) throws -> [[UInt8]] {
        var frames: [[UInt8]] = []
        try exporter.forEachFrame(timeline) { frame in
            #expect(frame.index == frames.count)
            frames.append(Array(UnsafeBufferPointer(start: frame.pixmap.pixels, count: frame.pixmap.bytesPerRow * frame.pixmap.height)))
        }
        return frames
    }

    static func alpha(_ frame: [UInt8], x: Int, y: Int) -> UInt8 { frame[(y * Int(size.width) + x) * 4 + 3] }

    @Test(arguments: [1, 2, 3])
    func eachFrameShowsTheSquareWhereTheAnimationPutsIt(threads: Int) throws {
        let exporter = CAAnimationExporter(size: Self.size, makeLayer: Self.movingSquare)
        exporter.threads = threads
        let frames = try Self.frames(exporter, ExportTimeline(duration: 1, fps: 10))
        #expect(frames.count == 10)
        for (i, frame) in frames.enumerated() {
            let left = 10 + 10 * i
            #expect(Self.alpha(frame, x: left, y: 20) == 255, "frame \(i): column \(left) is inside the square")
            #expect(Self.alpha(frame, x: left - 1, y: 20) == 0, "frame \(i): column \(left - 1) is left of it")
            #expect(Self.alpha(frame, x: left + 19, y: 20) == 255)
            #expect(Self.alpha(frame, x: left + 20, y: 20) == 0)
        }
    }

    @Test func framesDoNotDependOnTheNumberOfThreads() throws {
        let timeline = try ExportTimeline(duration: 1, fps: 20)
        var runs: [[[UInt8]]] = []
        for threads in [1, 2, 3] {
            let exporter = CAAnimationExporter(size: Self.size, makeLayer: Self.squareThatFadesAfterMoving)
            exporter.threads = threads
            runs.append(try Self.frames(exporter, timeline))
        }
        #expect(runs[1] == runs[0])
        #expect(runs[2] == runs[0])
        // At 0.2 s (frame 4) the square is centred at 20 + 100·0.2/0.25 = 100. The stop at
        // 0.25 s is delivered at frame 5's commit; the fade added then is committed at frame 6
        // (0.3 s), so at 0.35 s the square, back at x = 20, shows opacity 0.9, and from 0.8 s on 0.
        #expect(Self.alpha(runs[0][4], x: 100, y: 20) == 255)
        #expect(Self.alpha(runs[0][4], x: 20, y: 20) == 0)
        #expect((225...235).contains(Self.alpha(runs[0][7], x: 20, y: 20)))
        #expect(Self.alpha(runs[0][19], x: 20, y: 20) == 0)
    }

    /// A rounded layer moving by fractions of a pixel per frame (ease-in-ease-out over 0.7 s).
    static func roundedLayerMovingBySubpixels() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 17, height: 17)
        dot.position = CGPoint(x: 20.3, y: 19.6)
        dot.cornerRadius = 8.5
        dot.backgroundColor = red
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 20.3
        move.toValue = 113.7
        move.duration = 0.7
        move.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        dot.add(move, forKey: "move")
        root.addSublayer(dot)
        return root
    }

    /// "Same scene + same time → same pixels" (DESIGN §1): every exported frame equals the tree
    /// rendered afresh at that time by a new renderer, whatever the number of threads — so no
    /// frame depends on which frames its thread drew before (retained bitmaps keep the sub-pixel
    /// phase they were drawn at; the exporter does not reuse them).
    @Test func framesAreFunctionsOfTimeAlone() throws {
        let timeline = try ExportTimeline(duration: 1, fps: 30)
        var fresh: [[UInt8]] = []
        for i in 0..<timeline.frameCount {
            CAMediaClock.setManualTime(0)
            let tree = Self.roundedLayerMovingBySubpixels()
            CATransaction.flush()
            let image = try CARenderer.image(of: tree, size: Self.size, at: timeline.time(ofFrame: i))
            fresh.append(Array(UnsafeBufferPointer(start: image.pixmap.pixels, count: image.pixmap.bytesPerRow * image.height)))
        }
        CAMediaClock.useSystemTime()
        for threads in [1, 2, 3] {
            let exporter = CAAnimationExporter(size: Self.size, makeLayer: Self.roundedLayerMovingBySubpixels)
            exporter.threads = threads
            #expect(try Self.frames(exporter, timeline) == fresh, "\(threads) threads")
        }
    }

    /// A scene that moves its square itself (as input handling would): at each frame time the
    /// model's left edge is put at 10 + 100·t points, with actions disabled.
    final class SteppedSquare: HostedScene, @unchecked Sendable {
        let rootLayer = ExporterFramesTests.movingSquare()
        var size: CGSize { ExporterFramesTests.size }
        var advances: [CFTimeInterval] = []
        func handle(_ event: HostPointerEvent) {}
        func advance(to time: CFTimeInterval) {
            advances.append(time)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            let square = rootLayer.sublayers![0]
            square.removeAllAnimations()
            square.position.x = 20 + 100 * time
            CATransaction.commit()
        }
    }

    /// `makeScene`: every scene is advanced at every frame time, in order, and the frames show
    /// what the scene did by then (closed form), whatever the thread count — one scene per
    /// worker, or one in all with `scenesShareState`.
    @Test(arguments: [(1, false), (2, false), (1, true), (2, true), (3, true)])
    func scenesAreAdvancedAtEveryFrameTime(threads: Int, sharesState: Bool) throws {
        let scenes = Mutex<[SteppedSquare]>([])
        let exporter = CAAnimationExporter(size: Self.size, scenesShareState: sharesState) {
            let scene = SteppedSquare()
            scenes.withLock { $0.append(scene) }
            return scene
        }
        exporter.threads = threads
        let timeline = try ExportTimeline(duration: 1, fps: 10)
        let frames = try Self.frames(exporter, timeline)
        for (i, frame) in frames.enumerated() {
            #expect(Self.alpha(frame, x: 10 + 10 * i, y: 20) == 255 && Self.alpha(frame, x: 9 + 10 * i, y: 20) == 0, "frame \(i)")
        }
        scenes.withLock { scenes in
            #expect(scenes.count == (sharesState ? 1 : threads))
            for scene in scenes { #expect(scene.advances == (0..<10).map(timeline.time(ofFrame:))) }
        }
    }

    @Test func aGivenTreeGivesTheSameFramesAsABuiltOne() throws {
        let timeline = try ExportTimeline(duration: 1, fps: 20)
        let built = CAAnimationExporter(size: Self.size, makeLayer: Self.squareThatFadesAfterMoving)
        CAMediaClock.setManualTime(0)
        let given = CAAnimationExporter(layer: Self.squareThatFadesAfterMoving(), size: Self.size)
        defer { CAMediaClock.useSystemTime() }
        #expect(try Self.frames(given, timeline) == Self.frames(built, timeline))
    }

    @Test func asyncSequenceYieldsEveryFrameInOrder() async throws {
        let exporter = CAAnimationExporter(size: Self.size, scale: 2, makeLayer: Self.movingSquare)
        var times: [Double] = []
        for try await frame in try exporter.frames(fps: 8, end: 1) {
            #expect(frame.pixmap.width == 320 && frame.pixmap.height == 80)
            times.append(frame.time)
        }
        #expect(times == (0..<8).map { Double($0) / 8 })
    }

    @Test func leavingTheAsyncSequenceEarlyStopsTheExport() async throws {
        let exporter = CAAnimationExporter(size: Self.size, makeLayer: Self.movingSquare)
        var seen = 0
        for try await _ in try exporter.frames(fps: 100, end: 100) {
            seen += 1
            if seen == 3 { break }
        }
        #expect(seen == 3)
    }

    /// The trees an export builds, held weakly: they go when the export's threads end.
    final class BuiltTrees: @unchecked Sendable {
        private let lock = NSLock()
        private var trees: [() -> CALayer?] = []
        func make() -> CALayer {
            let layer = ExporterFramesTests.movingSquare()
            lock.withLock { trees.append { [weak layer] in layer } }
            return layer
        }
        var alive: Int { lock.withLock { trees.filter { $0() != nil }.count } }
    }

    /// The loop's `break` drops the iterator, which must stop the export: its threads end and
    /// free the trees they built (before, the exporting thread kept the hand-over alive and
    /// waited for ever with its frames).
    @Test func leavingTheAsyncSequenceEarlyEndsTheExportsThreads() async throws {
        let built = BuiltTrees()
        let exporter = CAAnimationExporter(size: Self.size, makeLayer: { built.make() })
        exporter.threads = 2
        for try await _ in try exporter.frames(fps: 100, end: 100) { break }
        var alive = built.alive
        for _ in 0..<400 where alive > 0 {
            try await Task.sleep(for: .milliseconds(25))
            alive = built.alive
        }
        #expect(alive == 0)
    }

    /// A cancel stops one export: after a loop left early, one run to its end and a `cancel()`
    /// that stopped an export, the exporter exports again (before, the cancel flag stayed set,
    /// and a finished sequence set it too).
    @Test func theExporterExportsAgainAfterALoopOrACancel() async throws {
        let exporter = CAAnimationExporter(size: Self.size, makeLayer: Self.movingSquare)
        for try await _ in try exporter.frames(fps: 100, end: 100) { break }
        var count = 0
        for try await _ in try exporter.frames(fps: 8, end: 1) { count += 1 }
        #expect(count == 8)
        #expect(throws: ExportError.cancelled) {
            try exporter.forEachFrame(ExportTimeline(frames: 100, fps: 30)) { _ in exporter.cancel() }
        }
        var again = 0
        try exporter.forEachFrame(ExportTimeline(frames: 3, fps: 1)) { _ in again += 1 }
        #expect(again == 3)
    }

    /// A loop left early stops its run, whose thread then winds down on its own: a `cancel()`
    /// made meanwhile finds no export running, so it stops the next one — and the first run's
    /// end, coming after the cancel, neither takes it nor clears it. (With one flag shared by
    /// every run, that end cleared it, and the next export ran to its end.)
    @Test func aRunLeftByALoopDoesNotUndoACancelMeantForTheNext() async throws {
        let built = BuiltTrees()
        let exporter = CAAnimationExporter(size: Self.size, makeLayer: { built.make() })
        exporter.threads = 1
        for try await _ in try exporter.frames(fps: 100, end: 100) { break }
        exporter.cancel()
        // The first run's one worker has let go of its tree: its run is ending or has ended.
        for _ in 0..<6000 where built.alive > 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(built.alive == 0)
        var drawn = 0
        #expect(throws: ExportError.cancelled) {
            try exporter.forEachFrame(ExportTimeline(frames: 3, fps: 1)) { _ in drawn += 1 }
        }
        #expect(drawn == 0)
        var again = 0
        try exporter.forEachFrame(ExportTimeline(frames: 3, fps: 1)) { _ in again += 1 }
        #expect(again == 3)
    }

    /// Cancelling an async export's task stops that export only: another export running on the
    /// same exporter meanwhile goes on (before, the task's cancel was the exporter's `cancel()`,
    /// which stopped the latest export, not the task's).
    @Test func cancellingAnExportsTaskStopsThatExportOnly() async throws {
        let exporter = CAAnimationExporter(size: Self.size, makeLayer: Self.movingSquare)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-task-cancel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stopped = folder.appendingPathComponent("stopped.gif")
        let progress = Flag(), ended = Flag()
        let task = Task { try await exporter.export(to: stopped, fps: 30, duration: 3600) { _ in progress.set() } }
        let watcher = Task {
            _ = try? await task.value
            ended.set()
        }
        for _ in 0..<6000 where !progress.isSet { try await Task.sleep(for: .milliseconds(5)) }
        // The second export, on a thread of its own, cancels the task at its first frame and
        // waits for the task's export to end.
        let count: Int = await withCheckedContinuation { continuation in
            Thread {
                var count = 0
                try? exporter.forEachFrame(ExportTimeline(frames: 3, fps: 1)) { frame in
                    if frame.index == 0 {
                        task.cancel()
                        for _ in 0..<30_000 where !ended.isSet { usleep(1000) }
                    }
                    count += 1
                }
                continuation.resume(returning: count)
            }.start()
        }
        await watcher.value
        #expect(count == 3)
        await #expect(throws: ExportError.cancelled) { try await task.value }
        #expect(!FileManager.default.fileExists(atPath: stopped.path))
    }

    /// A flag set on one thread and read on others.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .sequentiallyConsistent) }
        var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    }

    @Test func cancellingStopsWithCancelled() throws {
        let exporter = CAAnimationExporter(size: Self.size, makeLayer: Self.movingSquare)
        var seen = 0
        #expect(throws: ExportError.cancelled) {
            try exporter.forEachFrame(ExportTimeline(duration: 100, fps: 30)) { _ in
                seen += 1
                if seen == 5 { exporter.cancel() }
            }
        }
        #expect(seen < 5 + 2 * exporter.threads + 1)
    }

    @Test func badSizesAreRefusedBeforeDrawing() {
        for (size, scale) in [(CGSize(width: CGFloat.nan, height: 10), 1.0), (CGSize(width: 10, height: 10), .nan),
                              (CGSize(width: 10, height: 10), 0), (CGSize(width: 1e30, height: 10), 1),
                              (CGSize(width: 20_000, height: 20_000), 1), (CGSize(width: 0, height: 10), 1)] {
            let exporter = CAAnimationExporter(size: size, scale: CGFloat(scale), makeLayer: Self.movingSquare)
            #expect(throws: ExportError.self) { try exporter.pixelSize() }
            #expect(throws: ExportError.self) { try exporter.forEachFrame(ExportTimeline(frames: 1, fps: 1)) { _ in } }
        }
    }
}
