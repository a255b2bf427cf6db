import Dispatch
import Export
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM during an export: the running export is cancelled — it removes
/// its temporary file, so nothing is left at the destination — and the command exits with
/// 128 + the signal's number (130, 143), as shells report a process killed by it. A second
/// signal while the first is being handled exits at once (a temporary file it leaves is removed
/// by the next export to that folder).
enum Interruption {
    private struct State {
        var signal: Int32 = 0
        var exporter: CAAnimationExporter?
    }

    private static let state = Mutex(State())
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Catches SIGINT and SIGTERM from now on (call once, before the first export).
    static func install() {
        guard sources.isEmpty else { return }
        for number in [SIGINT, SIGTERM] {
            _ = Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { received(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// The signal received, 0 if none.
    static var signal: Int32 { state.withLock { $0.signal } }

    /// Runs `body`, an export by `exporter`, which a signal cancels.
    static func run(_ exporter: CAAnimationExporter, _ body: () throws -> Void) throws {
        let already = state.withLock { state in
            state.exporter = exporter
            return state.signal != 0
        }
        defer { state.withLock { $0.exporter = nil } }
        if already { throw ExportError.cancelled }
        try body()
    }

    private static func received(_ number: Int32) {
        let exporter = state.withLock { state -> CAAnimationExporter? in
            if state.signal != 0 { _exit(128 + number) }
            state.signal = number
            return state.exporter
        }
        exporter?.cancel()
    }
}
