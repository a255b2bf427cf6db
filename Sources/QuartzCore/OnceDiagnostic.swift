import Foundation
import Synchronization

/// Citrine extension: a diagnostic said once per process on standard error, the first time a
/// limit is met or a resource is missing (README: Limits) — never a silent limit, never a flood.
package final class _OnceDiagnostic: Sendable {
    private let said = Atomic<Bool>(false)

    package init() {}

    /// Writes `line` and a newline to standard error, unless this diagnostic was said before.
    package func say(_ line: @autoclosure () -> String) {
        guard !said.exchange(true, ordering: .relaxed) else { return }
        FileHandle.standardError.write(Data((line() + "\n").utf8))
    }
}
