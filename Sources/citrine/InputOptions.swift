import ArgumentParser
import Demos
import Export
import Foundation

/// `--tap X,Y@T` and `--drag X1,Y1:X2,Y2@T+D`: scripted input for `render` and `play`, in the
/// scene's points (origin top-left, y down) and seconds from the scene's start, played through
/// the same event path as the mouse (`SceneDriver`).
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("tap"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Tap at point X,Y (points, origin top-left) at T seconds: down, up 0.05 s later. Repeatable.",
        valueName: "X,Y@T"))
    var taps: [String] = []

    @Option(name: .customLong("drag"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Drag from X1,Y1 to X2,Y2 starting at T seconds, lasting D seconds (a move every 1/60 s). Repeatable.",
        valueName: "X1,Y1:X2,Y2@T+D"))
    var drags: [String] = []

    /// The taps and drags as one script (empty when none is given).
    func script() throws(Failure) -> SceneScript {
        var steps: [SceneScript.Step] = []
        for text in taps { steps.append(try OptionValue.tap(text)) }
        for text in drags { steps.append(try OptionValue.drag(text)) }
        return SceneScript(steps)
    }

    /// Whether any input was given.
    var isEmpty: Bool { taps.isEmpty && drags.isEmpty }
}

extension OptionValue {
    /// `X,Y@T`: a tap at (X, Y) points at T seconds.
    static func tap(_ text: String) throws(Failure) -> SceneScript.Step {
        let expected = "X,Y@T: a point in points and a time in seconds, e.g. 120,80@0.5"
        let parts = text.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let point = point(parts[0]), let time = Double(parts[1]), time.isFinite, time >= 0 else {
            throw .badValue("--tap", text, expected: expected)
        }
        return .tap(point, at: time)
    }

    /// `X1,Y1:X2,Y2@T+D`: a drag from (X1, Y1) to (X2, Y2) points starting at T seconds, D long.
    static func drag(_ text: String) throws(Failure) -> SceneScript.Step {
        let expected = "X1,Y1:X2,Y2@T+D: two points in points, a start and a length in seconds, e.g. 100,120:160,120@0.2+0.5"
        let parts = text.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { throw .badValue("--drag", text, expected: expected) }
        let ends = parts[0].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let times = parts[1].split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard ends.count == 2, times.count == 2, let from = point(ends[0]), let to = point(ends[1]),
              let start = Double(times[0]), let length = Double(times[1]),
              start.isFinite, length.isFinite, start >= 0, length > 0, length <= 3600 else {
            throw .badValue("--drag", text, expected: expected)
        }
        return .drag(from: from, to: to, at: start, duration: length, steps: max(1, Int((length * 60).rounded())))
    }

    /// `X,Y`: finite numbers.
    private static func point(_ text: String) -> CGPoint? {
        let xy = text.split(separator: ",", omittingEmptySubsequences: false)
        guard xy.count == 2, let x = Double(xy[0].trimmingCharacters(in: .whitespaces)),
              let y = Double(xy[1].trimmingCharacters(in: .whitespaces)), x.isFinite, y.isFinite else { return nil }
        return CGPoint(x: x, y: y)
    }

    /// An exporter of `demo` at `scale` playing `script` (the demo's own when nil): one scene,
    /// drawn on one thread, encoded on all the exporter's `threads` (the demos' windows share
    /// `UIApplication.shared`).
    static func exporter(_ demo: SeedDemo, scale: CGFloat, script: SceneScript? = nil) -> CAAnimationExporter {
        CAAnimationExporter(size: demo.size, scale: scale, scenesShareState: true, script: script ?? demo.timeline) {
            demo.makeScene()
        }
    }
}
