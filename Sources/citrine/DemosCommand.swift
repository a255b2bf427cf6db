import ArgumentParser
import Demos

/// `citrine demos`: one line per demo — name, size in points, natural span, seed and summary.
struct DemosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demos",
        abstract: "List the demos: name, size in points, span in seconds, seed and summary.")

    func run() {
        for line in Self.lines() { print(line) }
    }

    /// `falling-petal       160x240  4 s    seed 003: a petal falls …`
    static func lines() -> [String] {
        let nameWidth = Gallery.demos.map(\.name.count).max() ?? 0
        let sizes = Gallery.demos.map { "\(OptionValue.number($0.size.width))x\(OptionValue.number($0.size.height))" }
        let spans = Gallery.demos.map { "\(OptionValue.number($0.span)) s" }
        let sizeWidth = sizes.map(\.count).max() ?? 0, spanWidth = spans.map(\.count).max() ?? 0
        return Gallery.demos.indices.map { i in
            let demo = Gallery.demos[i]
            return [pad(demo.name, nameWidth), pad(sizes[i], sizeWidth), pad(spans[i], spanWidth), demo.summary]
                .joined(separator: "  ")
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
