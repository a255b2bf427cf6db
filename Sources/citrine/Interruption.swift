import Dispatch
import Export
import Foundation
import ImageCodecs
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM during an export: the running export is cancelled — it removes
/// its temporary file, so nothing is left at the destination — and the command exits with
/// 128 + the signal's number (130, 143), as shells report a process killed by it. A frame can
/// take long to draw (a huge or hostile scene) and an import or a compile has no place to stop
/// at, so the command does not wait past `grace`: then, or at a second signal, it removes its
/// temporary files and staging folders (`OutputFile.removeOwnTemporaries`) and exits with that
/// status at once.
enum Interruption {
    /// How long a signalled command may take to stop by itself, in seconds.
    static let grace: Double = 10

    private struct State {
        var signal: Int32 = 0
        var exporter: CAAnimationExporter?
        /// Child `citrine`s running (`RenderBatch`).
        var children: Set<pid_t> = []
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

    /// Passes SIGTERM on to `child` until `forget(child:)` (SIGINT from a terminal
    /// reaches it with the whole process group).
    static func track(child: pid_t) { state.withLock { _ = $0.children.insert(child) } }

    static func forget(child: pid_t) { state.withLock { _ = $0.children.remove(child) } }

    private static func received(_ number: Int32) {
        let (exporter, children) = state.withLock { state -> (CAAnimationExporter?, Set<pid_t>) in
            if state.signal != 0 { exitNow(number) }
            state.signal = number
            return (state.exporter, state.children)
        }
        exporter?.cancel()
        if number != SIGINT { for child in children { kill(child, number) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { exitNow(number) }
    }

    /// Removes what this process was writing and exits as killed by signal `number` would.
    private static func exitNow(_ number: Int32) -> Never {
        OutputFile.removeOwnTemporaries()
        Terminal.report("interrupted; nothing written")
        _exit(128 + number)
    }
}
