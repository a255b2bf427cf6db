import Export
import Foundation

/// What standard error is: a terminal gets a progress line and colour (unless `NO_COLOR` is set,
/// https://no-color.org); a file or pipe gets nothing but error messages.
struct Terminal {
    /// Standard error is a terminal.
    let isInteractive: Bool
    /// Colour is allowed: a terminal, and `NO_COLOR` unset or empty.
    let usesColour: Bool

    static let standardError: Terminal = {
        let tty = isatty(2) == 1
        let noColour = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        return Terminal(isInteractive: tty, usesColour: tty && !noColour)
    }()

    /// `text` in bold red, or plain without colour.
    func error(_ text: String) -> String { usesColour ? "\u{1B}[1;31m\(text)\u{1B}[0m" : text }
    /// `text` dimmed, or plain without colour.
    func dim(_ text: String) -> String { usesColour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }

    /// Writes `text` to standard error as it is.
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Prints `citrine: message` on standard error.
    static func report(_ message: String) {
        let terminal = Terminal.standardError
        write("\(terminal.error("citrine:")) \(message)\n")
    }
}

/// The progress of one export on standard error, on one line rewritten with `\r`: the label,
/// frames done/total, frames per second and the time left (of a batch: its inputs). Shown only
/// on a terminal and not with `--quiet`; redrawn at most ten times a second.
final class ProgressLine {
    private let label: String
    /// What is counted, in the plural: "frames", or a batch's "inputs".
    private let unit: String
    private let terminal: Terminal
    private let enabled: Bool
    private var lastDrawn = 0.0
    private var width = 0

    init(label: String, quiet: Bool, unit: String = "frames", terminal: Terminal = .standardError) {
        self.label = label
        self.unit = unit
        self.terminal = terminal
        enabled = terminal.isInteractive && !quiet
    }

    /// The callback for `CAAnimationExporter.export(progress:)`, nil when nothing is shown.
    var callback: ((ExportProgress) -> Void)? {
        enabled ? { [self] in update($0) } : nil
    }

    func update(_ progress: ExportProgress) {
        update(done: progress.framesDone, of: progress.frameCount, elapsed: progress.elapsed)
    }

    /// `done` of `count` frames after `elapsed` seconds.
    func update(done: Int, of count: Int, elapsed: Double) {
        guard enabled, done == count || elapsed - lastDrawn >= 0.1 else { return }
        lastDrawn = elapsed
        draw(Self.text(done: done, of: count, elapsed: elapsed, label: label, unit: unit, terminal: terminal))
    }

    /// Ends the line: a summary after success, or the line cleared after a failure.
    func finish(summary: String?) {
        guard enabled, width > 0 || summary != nil else { return }
        if let summary { draw(summary) } else { draw("") }
        Terminal.write(summary == nil ? "\r" : "\n")
        width = 0
    }

    private func draw(_ text: String) {
        let visible = Self.visibleCount(text)
        Terminal.write("\r" + text + String(repeating: " ", count: max(0, width - visible)))
        width = visible
    }

    /// `out.gif  45/120 frames  37%  21.4 frames/s  4 s left`.
    static func text(done: Int, of count: Int, elapsed: Double, label: String, unit: String = "frames",
                     terminal: Terminal) -> String {
        let percent = 100 * done / max(count, 1)
        var parts = ["\(label)  \(done)/\(count) \(unit)", "\(percent)%"]
        if elapsed > 0, done > 0 {
            parts.append(String(format: "%.1f \(unit)/s", Double(done) / elapsed))
            if done < count { parts.append(terminal.dim(duration(elapsed / Double(done) * Double(count - done)) + " left")) }
        }
        return parts.joined(separator: "  ")
    }

    /// `4 s`, `2 min 05 s`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        return s < 60 ? "\(s) s" : String(format: "%d min %02d s", s / 60, s % 60)
    }

    /// Characters shown, colour codes left out.
    private static func visibleCount(_ text: String) -> Int {
        var count = 0, escaped = false
        for c in text.unicodeScalars {
            if escaped { if c == "m" { escaped = false }; continue }
            if c == "\u{1B}" { escaped = true; continue }
            count += 1
        }
        return count
    }
}
