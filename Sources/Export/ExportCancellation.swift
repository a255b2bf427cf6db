import Synchronization

// Cancellation, one export at a time. Each export run has its own `ExportCancellation`, made by
// whoever starts the run (`forEachFrame`, `export`, a `frames()` sequence, an async `export`
// whose task may be cancelled), which reaches the run's `FramePipeline` once that exists. Stopping
// a run stops that run only; the exporter's `cancel()` looks among the runs in progress
// (`ExportRuns`) for one still going, and when there is none leaves the cancel for the next run
// to start. Nothing is shared between runs but that one pending cancel, which exactly one run
// takes: a run left behind by a dropped `frames()` loop, ending late, can neither take nor clear
// a cancel meant for a later run.

/// One export run's cancellation: stopped once, before the run's pipeline exists (the run then
/// throws `ExportError.cancelled` as soon as it checks, having written nothing) or while it runs
/// (its pipeline fails with the error, and its workers stop at their next task).
final class ExportCancellation: Sendable {
    private struct State {
        var stopped = false
        var pipeline: FramePipeline?
    }

    private let state = Mutex(State())

    /// Stops the run with `error`. True when this call stopped it; false when it had stopped
    /// already — stopped before, or failed on its own (its pipeline has a failure).
    @discardableResult
    func stop(_ error: any Error = ExportError.cancelled) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.stopped = true
            return state.pipeline?.fail(error) ?? true
        }
    }

    /// Whether the run was stopped.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Hands the run's pipeline over, once it exists; fails it at once if the run was stopped.
    func attach(_ pipeline: FramePipeline) {
        state.withLock { state in
            state.pipeline = pipeline
            if state.stopped { pipeline.fail(ExportError.cancelled) }
        }
    }
}

/// The runs of one exporter in progress, in the order they started, and a cancel made while none
/// of them was going (for the next run to take).
struct ExportRuns {
    private var running: [ExportCancellation] = []
    private var pendingCancel = false

    /// A run starts: it takes the pending cancel, if any (unless it is stopped already — a
    /// `frames()` loop left before its run began — and so cannot).
    mutating func begin(_ run: ExportCancellation) {
        running.append(run)
        if pendingCancel, run.stop() { pendingCancel = false }
    }

    /// A run ends, whenever it does: only it leaves the list.
    mutating func end(_ run: ExportCancellation) {
        running.removeAll { $0 === run }
    }

    /// `CAAnimationExporter.cancel()`: stops the latest run still going, or, when none is, the
    /// next run to start.
    mutating func cancel() {
        for run in running.reversed() where run.stop() { return }
        pendingCancel = true
    }
}
