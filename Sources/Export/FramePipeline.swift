import Foundation
import Raster

/// The work of one export, shared by its worker threads (`CAAnimationExporter.threads` of them,
/// every one of which renders, encodes and writes — there is no separate encoding thread).
///
/// Each frame goes through three steps:
///
///     render(k)    by the worker that owns frame k (scene form: k mod workers; a single tree:
///                  worker 0, the calling thread), in order of k for that worker
///     prepare(k)   any worker, several frames at once: every output's per-frame encoding
///                  (`FrameWriter.prepare`), given frame k and — for outputs that diff frames —
///                  frame k − 1, which is kept until frame k is prepared
///     write(k)     one worker at a time, in order of k: every output's serial part
///                  (`FrameWriter.write`: chunk numbers, container, the caller's closure)
///
/// A free worker writes the next frame if it is ready and nobody is writing, else prepares the
/// lowest frame it can, else renders its next frame — except that a worker that can render
/// renders first while another worker is waiting for work (the other then prepares and writes:
/// with a single tree only worker 0 can render). A worker waits only when none of these is
/// possible. With one worker the steps simply alternate on one thread.
///
/// **Memory.** At most `capacity` frames are in flight (from the start of their rendering until
/// they are written and, when outputs diff frames, their successor is prepared), each in a
/// frame buffer reused round robin and known to the outputs by its slot (`index % capacity`),
/// so an export holds `capacity` frames (and each output `capacity` prepared frames) however
/// long the animation. `capacity` is 2 · workers + 1: each worker can have a frame rendering
/// and one waiting for the writer, plus the previous frame kept for diffing.
final class FramePipeline: @unchecked Sendable {
    /// Where a frame is.
    private enum Step: Equatable { case rendering, rendered, preparing, prepared, written }

    /// What a worker is to do next.
    enum Task {
        case render(index: Int, into: Pixmap)
        case prepare(index: Int, frame: Pixmap, previous: Pixmap?)
        case write(index: Int, frame: Pixmap)
    }

    let frameCount: Int
    let workers: Int
    let capacity: Int
    /// Whether frame k − 1 is needed to prepare frame k (and kept until then).
    let keepsPrevious: Bool
    /// Whether frame 0 must be prepared before any other frame (a GIF's global palette).
    let preparesFirstFrameFirst: Bool
    /// Worker `w` renders frame `k` when `renders(w, k)`; each worker's frames go in order.
    private let renders: @Sendable (_ worker: Int, _ index: Int) -> Bool

    private let condition = NSCondition()
    private var step: [Step?]
    private var buffer: [Pixmap?]
    private var spare: [Pixmap] = []
    /// Frames below this are done and their buffers free.
    private var released = 0
    private var nextToWrite = 0
    private var writing = false
    private var firstFramePrepared = false
    /// Workers waiting for a task.
    private var waiting = 0
    /// Per worker: the next frame it renders (or `frameCount`).
    private var nextToRender: [Int]
    private var failure: (any Error)?
    private let width: Int, height: Int

    init(frameCount: Int, workers: Int, width: Int, height: Int, keepsPrevious: Bool, preparesFirstFrameFirst: Bool,
         renders: @escaping @Sendable (_ worker: Int, _ index: Int) -> Bool) {
        self.frameCount = frameCount
        self.workers = workers
        capacity = 2 * workers + 1
        self.width = width
        self.height = height
        self.keepsPrevious = keepsPrevious
        self.preparesFirstFrameFirst = preparesFirstFrameFirst
        self.renders = renders
        step = Array(repeating: nil, count: capacity)
        buffer = Array(repeating: nil, count: capacity)
        nextToRender = (0..<workers).map { w in (0..<frameCount).first { renders(w, $0) } ?? frameCount }
    }

    /// The slot of frame `index`: where its buffer and the outputs' prepared data are kept.
    func slot(of index: Int) -> Int { index % capacity }

    private func stepOf(_ index: Int) -> Step? {
        index >= released && index < released + capacity ? step[slot(of: index)] : nil
    }

    /// The next task for `worker`, or nil when every frame is written. Blocks while there is
    /// nothing to do; throws once the export has failed.
    func nextTask(for worker: Int) throws -> Task? {
        condition.lock(); defer { condition.unlock() }
        while true {
            if let failure { throw failure }
            if nextToWrite == frameCount { return nil }
            if let task = try takeTask(for: worker) { return task }
            waiting += 1
            condition.wait()
            waiting -= 1
        }
    }

    private func takeTask(for worker: Int) throws -> Task? {
        if waiting > 0, let task = try takeRendering(for: worker) { return task }
        if !writing, stepOf(nextToWrite) == .prepared {
            writing = true
            return .write(index: nextToWrite, frame: buffer[slot(of: nextToWrite)]!)
        }
        for index in released..<min(released + capacity, frameCount) where stepOf(index) == .rendered {
            if preparesFirstFrameFirst && index > 0 && !firstFramePrepared { break }
            let previousRendered = index == 0 || !keepsPrevious || (stepOf(index - 1).map { $0 != .rendering } ?? false)
            guard previousRendered else { continue }
            step[slot(of: index)] = .preparing
            let previous = keepsPrevious && index > 0 ? buffer[slot(of: index - 1)] : nil
            return .prepare(index: index, frame: buffer[slot(of: index)]!, previous: previous)
        }
        return try takeRendering(for: worker)
    }

    /// `worker`'s next frame to render, if it may start (fewer than `capacity` in flight).
    private func takeRendering(for worker: Int) throws -> Task? {
        let index = nextToRender[worker]
        guard index < frameCount, index < released + capacity else { return nil }
        let s = slot(of: index)
        let pixmap = try spare.popLast() ?? Pixmap(width: width, height: height)
        buffer[s] = pixmap
        step[s] = .rendering
        nextToRender[worker] = (index + 1..<frameCount).first { renders(worker, $0) } ?? frameCount
        return .render(index: index, into: pixmap)
    }

    /// Marks a task done (and frees the frames no longer needed).
    func finished(_ task: Task) {
        condition.lock(); defer { condition.unlock() }
        switch task {
        case let .render(index, _): step[slot(of: index)] = .rendered
        case let .prepare(index, _, _):
            step[slot(of: index)] = .prepared
            if index == 0 { firstFramePrepared = true }
        case let .write(index, _):
            step[slot(of: index)] = .written
            writing = false
            nextToWrite += 1
        }
        releaseDoneFrames()
        condition.broadcast()
    }

    /// Frees frames from the oldest on while they are written and no longer needed as a
    /// previous frame.
    private func releaseDoneFrames() {
        while released < nextToWrite {
            let next = released + 1
            let successorPrepared = !keepsPrevious || next == frameCount
                || stepOf(next) == .prepared || stepOf(next) == .written
            guard successorPrepared else { return }
            let s = slot(of: released)
            if let pixmap = buffer[s] { spare.append(pixmap) }
            buffer[s] = nil
            step[s] = nil
            released += 1
        }
    }

    /// Stops every worker with `error` (the first failure wins). True when `error` is that
    /// failure, false when the pipeline had failed already.
    @discardableResult
    func fail(_ error: any Error) -> Bool {
        condition.lock(); defer { condition.unlock() }
        condition.broadcast()
        guard failure == nil else { return false }
        failure = error
        return true
    }

    /// The failure, if any.
    var error: (any Error)? {
        condition.lock(); defer { condition.unlock() }
        return failure
    }
}
