import Foundation
import QuartzCore
import Raster

/// An export's frames as an asynchronous sequence (`CAAnimationExporter.frames(fps:start:end:)`):
///
///     for try await frame in exporter.frames(fps: 30, end: 2) { encode(frame.pixmap) }
///
/// Rendering starts when iteration does, on threads of its own, at most a few frames ahead of
/// the loop (memory stays flat). Leaving the loop early, or cancelling the task, stops it.
public struct ExportFrames: AsyncSequence, Sendable {
    public typealias Element = ExportFrame
    let exporter: CAAnimationExporter
    let timeline: ExportTimeline

    /// Number of frames the sequence yields.
    public var count: Int { timeline.frameCount }

    public func makeAsyncIterator() -> Iterator { Iterator(handoff: FrameHandoff(exporter: exporter, timeline: timeline)) }

    public struct Iterator: AsyncIteratorProtocol {
        let handoff: FrameHandoff
        /// Stops the export when the last copy of the iterator goes (a loop left early): the
        /// exporting thread holds the handoff itself, so its going would not.
        private let stopper: StopOnRelease

        init(handoff: FrameHandoff) {
            self.handoff = handoff
            stopper = StopOnRelease(handoff)
        }

        public mutating func next() async throws -> ExportFrame? {
            try await withTaskCancellationHandler {
                try await handoff.next()
            } onCancel: { [handoff] in
                handoff.stop()
            }
        }
    }
}

/// Calls `stop()` on a handoff when released.
final class StopOnRelease: Sendable {
    let handoff: FrameHandoff
    init(_ handoff: FrameHandoff) { self.handoff = handoff }
    deinit { handoff.stop() }
}

/// The hand-over from the exporting thread to the async iterator: one frame at a time; the
/// exporting thread waits until the previous frame has been taken. Dropping the iterator stops
/// the export.
final class FrameHandoff: @unchecked Sendable {
    private let exporter: CAAnimationExporter
    private let timeline: ExportTimeline
    /// The run's own cancellation: stopping the sequence stops its run and no other.
    private let cancellation = ExportCancellation()
    private let condition = NSCondition()
    private var started = false
    private var pending: ExportFrame?
    private var finished = false
    private var failure: (any Error)?
    private var waiter: CheckedContinuation<ExportFrame?, any Error>?

    init(exporter: CAAnimationExporter, timeline: ExportTimeline) {
        self.exporter = exporter
        self.timeline = timeline
    }

    deinit { stop() }

    /// The next frame, nil at the end.
    func next() async throws -> ExportFrame? {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            if !started { started = true; startExporting() }
            if let frame = pending {
                pending = nil
                condition.broadcast()
                condition.unlock()
                continuation.resume(returning: frame)
            } else if let failure {
                condition.unlock()
                continuation.resume(throwing: failure)
            } else if finished {
                condition.unlock()
                continuation.resume(returning: nil)
            } else {
                waiter = continuation
                condition.unlock()
            }
        }
    }

    /// Stops the export (the sequence was dropped or its task cancelled): its run stops now —
    /// this run only, not the exporter's next one, as `exporter.cancel()` could — and the
    /// exporting thread's next hand-over throws `ExportError.cancelled`.
    func stop() {
        condition.lock()
        if failure == nil && !finished { failure = ExportError.cancelled }
        let waiting = waiter
        waiter = nil
        condition.broadcast()
        condition.unlock()
        cancellation.stop()
        waiting?.resume(throwing: ExportError.cancelled)
    }

    private func startExporting() {
        let thread = Thread { [self] in
            do {
                try exporter.forEachFrame(timeline, cancellation: cancellation) { frame in
                    let copy = try Pixmap(width: frame.pixmap.width, height: frame.pixmap.height)
                    copy.pixels.update(from: frame.pixmap.pixels, count: copy.bytesPerRow * copy.height)
                    try deliver(ExportFrame(index: frame.index, time: frame.time, pixmap: copy))
                }
                end(with: nil)
            } catch {
                end(with: error)
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Gives `frame` to a waiting iterator, or keeps it until one asks; waits while a frame is
    /// already kept.
    private func deliver(_ frame: ExportFrame) throws {
        condition.lock()
        while pending != nil && failure == nil { condition.wait() }
        if let failure { condition.unlock(); throw failure }
        if let waiting = waiter {
            waiter = nil
            condition.unlock()
            waiting.resume(returning: frame)
        } else {
            pending = frame
            condition.unlock()
        }
    }

    private func end(with error: (any Error)?) {
        condition.lock()
        if let error, failure == nil { failure = error }
        finished = true
        let waiting = waiter
        waiter = nil
        let outcome = failure
        condition.unlock()
        if let outcome { waiting?.resume(throwing: outcome) } else { waiting?.resume(returning: nil) }
    }
}
