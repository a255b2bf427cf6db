import ArgumentParser
import CoreText
import Demos
import Export
import Foundation
import ImageCodecs
import QuartzCore

/// `citrine info <demo>`: the demo's window's layer tree at media time 0, after its first
/// run-loop turn and before any input — each layer's class, frame and the properties it sets — and each animation with its
/// timing, groups with their children. `citrine info FILE.png` (or .apng): its size and the text
/// it carries, such as the fonts an export's text was drawn with. `citrine info --fonts`: the font policy's table as
/// resolved on this machine (`FontPolicy`, README: Fonts).
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a demo's layer tree and its animations with their timing, a Lottie file's summary, or the fonts "
            + "text is drawn with.",
        usage: "citrine info <demo>\ncitrine info <file.json>\ncitrine info <file.png>\ncitrine info --fonts [--font-dir <folder>]")

    @Argument(help: ArgumentHelp("The demo to describe (see 'citrine demos'), or a Lottie .json file (its size, frame rate, "
                                 + "frames, layers and the features it uses that are not imported), or a .png/.apng file "
                                 + "(its size and the fonts its text was drawn with, as an export records them)."))
    var demo: String?

    @Flag(help: "Print which installed font draws each Apple font name, and its file.")
    var fonts = false

    @Option(help: ArgumentHelp("With --fonts: resolve among the fonts in this folder only.", valueName: "folder"))
    var fontDir: String?

    func run() throws {
        if fonts {
            guard demo == nil else { throw Failure.usage("give a demo or --fonts, not both", command: "info") }
            try OptionValue.useFontDirectory(fontDir)
            for line in FontTable.lines() { print(line) }
            return
        }
        guard let demo else { throw Failure.usage("give a demo (see 'citrine demos') or --fonts", command: "info") }
        if let lottie = try LottieFile(argument: demo) {
            for line in lottie.summary { print(line) }
            return
        }
        if let lines = try PNGFileInfo.lines(argument: demo) {
            for line in lines { print(line) }
            return
        }
        let found = try OptionValue.demo(demo)
        CAMediaClock.setManualTime(0)
        defer { CAMediaClock.useSystemTime() }
        let scene = found.makeScene()
        scene.advance(to: 0)
        let root = scene.rootLayer
        print("\(found.name): \(found.summary)")
        print("\(LayerTree.number(found.size.width))x\(LayerTree.number(found.size.height)) points, "
              + "span \(LayerTree.number(found.span)) s")
        print("")
        for line in LayerTree.lines(root) { print(line) }
    }
}

/// A PNG or APNG file named where a demo's name goes (`info FILE.png`): its size, then its text
/// chunks — an export's iTXt "Comment" is the fonts its text was drawn with ("Fonts: …"), and
/// is printed as it is; other keywords as "keyword: text".
enum PNGFileInfo {
    /// The lines for `argument` when it ends in `.png` or `.apng` (nil otherwise); a file that
    /// cannot be read or is not a PNG is an error naming it.
    static func lines(argument: String) throws(Failure) -> [String]? {
        let url = URL(fileURLWithPath: argument)
        guard ["png", "apng"].contains(url.pathExtension.lowercased()) else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), !isFolder.boolValue else {
            throw Failure(.badInput, "no PNG file at '\(argument)'")
        }
        guard let data = FileManager.default.contents(atPath: argument) else {
            throw Failure(.badInput, "cannot read '\(argument)'")
        }
        let info: PNGCodec.Info
        do { info = try PNGCodec.info(of: [UInt8](data)) } catch { throw Failure(.badInput, "\(ImageCodecError(file: argument, reason: error.reason))") }
        var lines = ["\(url.lastPathComponent): \(info.width)x\(info.height) pixels"]
        for (keyword, text) in info.texts { lines.append(keyword == "Comment" ? text : "\(keyword): \(text)") }
        if !info.texts.contains(where: { $0.keyword == "Comment" && $0.text.hasPrefix("Fonts: ") }) {
            lines.append("Fonts: none recorded (no text was drawn, or the file was not exported by Citrine)")
        }
        return lines
    }
}

/// The font policy's rows as resolved here (`info --fonts`): each Apple name, the family that
/// draws it, whether its advance widths are the Apple font's, and the file.
enum FontTable {
    static func lines() -> [String] {
        let silent = setFontDiagnostics { _ in }
        defer { setFontDiagnostics(silent) }
        var rows = [["Apple font", "drawn with", "advance widths", "file"]]
        for row in FontPolicy.rows {
            let name = row.names[0] == ".SFUI" ? "system font" : row.names[0]
            guard let found = resolvedFont(row.names[0]) else {
                rows.append([name, "(no font)", "", ""])
                continue
            }
            let widths = found.metricCompatible ? "the same"
                : row.metricCompatible.isEmpty ? "not compared" : "differ (scripts/install-fonts)"
            rows.append([name, found.family, widths, found.file])
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let table = rows.map { row in
            (0..<3).map { row[$0].padding(toLength: widths[$0] + 2, withPad: " ", startingAt: 0) }.joined() + row[3]
        }
        let source = fontDirectory.map { "only the fonts in \($0) (--font-dir, CITRINE_FONT_DIR)" }
            ?? "this machine's (fontconfig)"
        return ["Fonts: \(source)", ""] + table + [
            "",
            "Tried in order, per name: the font itself, then (README: Fonts):",
        ] + FontPolicy.rows.map { row in
            "  " + row.names.joined(separator: ", ") + ": " + row.families.joined(separator: ", ")
        }
    }
}

/// A layer tree as indented text lines (`info`).
enum LayerTree {
    /// The tree under `layer`: one line per layer, its animations below it.
    static func lines(_ layer: CALayer) -> [String] {
        var out: [String] = []
        describe(layer, lead: "", childLead: "", into: &out)
        return out
    }

    private static func describe(_ layer: CALayer, lead: String, childLead: String, into out: inout [String]) {
        out.append(lead + ([String(describing: type(of: layer))] + properties(layer)).joined(separator: "  "))
        let sublayers = layer.sublayers ?? []
        // Animations sit under their layer, on the line that leads to its sublayers.
        let bar = childLead + (sublayers.isEmpty ? "  " : "│ ")
        for key in layer.animationKeys() ?? [] {
            guard let animation = layer.animation(forKey: key) else { continue }
            describe(animation, key: key, lead: bar + "◆ ", childLead: bar + "  ", into: &out)
        }
        for (i, sublayer) in sublayers.enumerated() {
            let last = i == sublayers.count - 1
            describe(sublayer, lead: childLead + (last ? "└── " : "├── "), childLead: childLead + (last ? "    " : "│   "),
                     into: &out)
        }
    }

    /// The animation and, for a group, its children below it.
    private static func describe(_ animation: CAAnimation, key: String?, lead: String, childLead: String,
                                 into out: inout [String]) {
        var parts = [(key.map { "\"\($0)\": " } ?? "") + String(describing: type(of: animation))]
        if let property = animation as? CAPropertyAnimation, let keyPath = property.keyPath { parts.append(keyPath) }
        parts += values(animation) + timing(animation)
        out.append(lead + parts.joined(separator: "  "))
        guard let group = animation as? CAAnimationGroup else { return }
        let children = group.animations ?? []
        for (i, child) in children.enumerated() {
            let last = i == children.count - 1
            describe(child, key: nil, lead: childLead + (last ? "└── " : "├── "), childLead: childLead + (last ? "    " : "│   "),
                     into: &out)
        }
    }

    // MARK: - Layers

    private static func properties(_ layer: CALayer) -> [String] {
        var p = ["frame \(rect(layer.frame))"]
        if let name = layer.name { p.insert("\"\(name)\"", at: 0) }
        if layer.anchorPoint != CGPoint(x: 0.5, y: 0.5) { p.append("anchorPoint \(point(layer.anchorPoint))") }
        if layer.zPosition != 0 { p.append("zPosition \(number(layer.zPosition))") }
        if !CATransform3DIsIdentity(layer.transform) { p.append("transform \(transform(layer.transform))") }
        if !CATransform3DIsIdentity(layer.sublayerTransform) { p.append("sublayerTransform \(transform(layer.sublayerTransform))") }
        if layer.opacity != 1 { p.append("opacity \(number(Double(layer.opacity)))") }
        if layer.isHidden { p.append("hidden") }
        if let colour = layer.backgroundColor {
            // A pattern colour (UIColor(patternImage:)) is its tile, not an RGBA value.
            p.append("backgroundColor " + (colour._patternImage.map { "pattern \($0.width)x\($0.height) image" } ?? hex(colour)))
        }
        if layer.cornerRadius != 0 { p.append("cornerRadius \(number(layer.cornerRadius))") }
        if layer.borderWidth != 0 { p.append("border \(number(layer.borderWidth)) \(layer.borderColor.map(hex) ?? "none")") }
        if layer.masksToBounds { p.append("masksToBounds") }
        if let image = layer.contents as? CGImage { p.append("contents \(image.width)x\(image.height) image") }
        if layer.contentsRect != CGRect(x: 0, y: 0, width: 1, height: 1) { p.append("contentsRect \(rect(layer.contentsRect))") }
        if layer.contents != nil, layer.contentsGravity != .resize { p.append("contentsGravity \(layer.contentsGravity.rawValue)") }
        if layer.shadowOpacity != 0 { p.append("shadow \(number(Double(layer.shadowOpacity))) radius \(number(layer.shadowRadius))") }
        switch layer {
        case let shape as CAShapeLayer:
            if let path = shape.path { p.append("path in \(rect(path.boundingBox))") }
            p.append("fillColor \(shape.fillColor.map(hex) ?? "none")")
            if let stroke = shape.strokeColor { p.append("strokeColor \(hex(stroke)) lineWidth \(number(shape.lineWidth))") }
            if shape.strokeStart != 0 || shape.strokeEnd != 1 {
                p.append("stroke \(number(shape.strokeStart))…\(number(shape.strokeEnd))")
            }
        case let gradient as CAGradientLayer:
            p.append("colors [\((gradient.colors ?? []).map(value).joined(separator: ", "))]")
            p.append("\(gradient.type.rawValue) \(point(gradient.startPoint))→\(point(gradient.endPoint))")
        case let replicator as CAReplicatorLayer:
            p.append("instanceCount \(replicator.instanceCount)")
            if replicator.instanceDelay != 0 { p.append("instanceDelay \(number(replicator.instanceDelay))") }
            if !CATransform3DIsIdentity(replicator.instanceTransform) {
                p.append("instanceTransform \(transform(replicator.instanceTransform))")
            }
            if let colour = replicator.instanceColor, colour != CGColor.white, hex(colour) != "#FFFFFF" {
                p.append("instanceColor \(hex(colour))")
            }
            let offsets = [("red", replicator.instanceRedOffset), ("green", replicator.instanceGreenOffset),
                           ("blue", replicator.instanceBlueOffset), ("alpha", replicator.instanceAlphaOffset)]
            for (channel, offset) in offsets where offset != 0 {
                p.append("instance\(channel.prefix(1).uppercased() + channel.dropFirst())Offset \(number(Double(offset)))")
            }
        default:
            break
        }
        return p
    }

    // MARK: - Animations

    private static func values(_ animation: CAAnimation) -> [String] {
        switch animation {
        case let basic as CABasicAnimation:
            var p: [String] = []
            if basic.fromValue != nil || basic.toValue != nil {
                p.append("\(basic.fromValue.map(value) ?? "(current)") → \(basic.toValue.map(value) ?? "(current)")")
            }
            if let by = basic.byValue { p.append("by \(value(by))") }
            return p
        case let keyframes as CAKeyframeAnimation:
            var p: [String] = []
            if let path = keyframes.path {
                p.append("along a path in \(rect(path.boundingBox))")
            } else if let values = keyframes.values {
                p.append("values [\(values.map(value).joined(separator: ", "))]")
            }
            if let times = keyframes.keyTimes { p.append("keyTimes [\(times.map { number($0.doubleValue) }.joined(separator: ", "))]") }
            if keyframes.calculationMode != .linear { p.append("calculationMode \(keyframes.calculationMode.rawValue)") }
            if let rotation = keyframes.rotationMode { p.append("rotationMode \(rotation.rawValue)") }
            return p
        default:
            return []
        }
    }

    /// beginTime, duration, repeatCount, autoreverses, fillMode, timing function (and speed,
    /// timeOffset, repeatDuration when set; removedOnCompletion when false).
    private static func timing(_ a: CAAnimation) -> [String] {
        var p = ["beginTime \(number(a.beginTime))", "duration \(number(a.duration))",
                 "repeatCount \(a.repeatCount.isInfinite ? "infinity" : number(Double(a.repeatCount)))",
                 "autoreverses \(a.autoreverses)", "fillMode \(a.fillMode.rawValue)",
                 "timingFunction \(timingFunction(a.timingFunction))"]
        if a.repeatDuration != 0 { p.append("repeatDuration \(number(a.repeatDuration))") }
        if a.speed != 1 { p.append("speed \(number(Double(a.speed)))") }
        if a.timeOffset != 0 { p.append("timeOffset \(number(a.timeOffset))") }
        if !a.isRemovedOnCompletion { p.append("removedOnCompletion false") }
        return p
    }

    private static func timingFunction(_ f: CAMediaTimingFunction?) -> String {
        guard let f else { return "linear" }
        let names: [CAMediaTimingFunctionName] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]
        if let name = names.first(where: { CAMediaTimingFunction(name: $0) == f }) { return name.rawValue }
        var c = [Float](repeating: 0, count: 2), points: [String] = []
        for i in 1...2 {
            f.getControlPoint(at: i, values: &c)
            points.append("(\(number(Double(c[0]))), \(number(Double(c[1]))))")
        }
        return "bezier " + points.joined(separator: " ")
    }

    // MARK: - Values

    /// A property value as text: numbers, points, sizes, rects, colours, transforms.
    static func value(_ v: Any) -> String {
        switch v {
        case let n as Int: String(n)
        case let n as Double: number(n)
        case let n as Float: number(Double(n))
        case let n as CGFloat: number(n)
        case let n as NSNumber: number(n.doubleValue)
        case let p as CGPoint: point(p)
        case let s as CGSize: "\(number(s.width))x\(number(s.height))"
        case let r as CGRect: rect(r)
        case let t as CATransform3D: transform(t)
        case let c as CGColor: hex(c)
        case let values as [Any]: "[\(values.map(value).joined(separator: ", "))]"
        default: String(describing: v)
        }
    }

    static func number(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
        var text = String(format: "%.4f", x)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    static func number(_ x: CGFloat) -> String { number(Double(x)) }

    static func point(_ p: CGPoint) -> String { "(\(number(p.x)), \(number(p.y)))" }

    static func rect(_ r: CGRect) -> String {
        "(\(number(r.origin.x)), \(number(r.origin.y)), \(number(r.size.width)), \(number(r.size.height)))"
    }

    /// `identity`, `translate(tx, ty, tz)`, or the matrix row by row.
    static func transform(_ t: CATransform3D) -> String {
        if CATransform3DIsIdentity(t) { return "identity" }
        var translation = CATransform3DIdentity
        translation.m41 = t.m41; translation.m42 = t.m42; translation.m43 = t.m43
        if t == translation { return "translate(\(number(t.m41)), \(number(t.m42)), \(number(t.m43)))" }
        let rows = [[t.m11, t.m12, t.m13, t.m14], [t.m21, t.m22, t.m23, t.m24],
                    [t.m31, t.m32, t.m33, t.m34], [t.m41, t.m42, t.m43, t.m44]]
        return "[" + rows.map { $0.map(number).joined(separator: " ") }.joined(separator: "; ") + "]"
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    static func hex(_ c: CGColor) -> String {
        let (r, g, b, a) = c.rgba
        let bytes = [r, g, b, a].map { Int((min(max($0, 0), 1) * 255).rounded()) }
        let text = bytes.prefix(bytes[3] == 255 ? 3 : 4).map { String(format: "%02X", $0) }.joined()
        return "#" + text
    }
}
