import ArgumentParser
import Demos
import Foundation

/// `citrine demos`: one line per demo — name, size in points, natural span, seed and summary.
struct DemosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demos",
        abstract: "List the demos: name, size in points, span in seconds, seed and summary.")

    @Flag(help: "List the interactive seed demos instead (for 'citrine play'): name, size, seeds.")
    var live = false

    func run() {
        for line in live ? Self.liveLines() : Self.lines() { print(line) }
    }

    /// `sticky-bubble-live  240x320  seeds 000/001`
    static func liveLines() -> [String] {
        let nameWidth = SeedDemo.all.map(\.name.count).max() ?? 0
        return SeedDemo.all.map { demo in
            let seeds = (demo.seeds.count == 1 ? "seed " : "seeds ") + demo.seeds.map { String(format: "%03d", $0) }.joined(separator: "/")
            return [pad(demo.name, nameWidth), "\(OptionValue.number(demo.size.width))x\(OptionValue.number(demo.size.height))", seeds]
                .joined(separator: "  ")
        }
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
