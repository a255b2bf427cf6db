import ArgumentParser
import Demos
import Foundation

/// `citrine demos`: one line per demo — name, size in points, natural span, seed and summary.
struct DemosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demos",
        abstract: "List the demos: name, size in points, span in seconds, seed and summary.")

    func run() {
        for line in Self.lines() { print(line) }
    }

    /// `sticky-bubble  320x240  3.5 s  seeds 000/001: the QQ sticky bubble: …`
    static func lines() -> [String] {
        let demos = SeedDemo.all
        let nameWidth = demos.map(\.name.count).max() ?? 0
        let sizes = demos.map { "\(OptionValue.number($0.size.width))x\(OptionValue.number($0.size.height))" }
        let spans = demos.map { "\(OptionValue.number($0.span)) s" }
        let sizeWidth = sizes.map(\.count).max() ?? 0, spanWidth = spans.map(\.count).max() ?? 0
        return demos.indices.map { i in
            [pad(demos[i].name, nameWidth), pad(sizes[i], sizeWidth), pad(spans[i], spanWidth), demos[i].summary]
                .joined(separator: "  ")
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
