import CoreText
import Export
import Foundation
import ImageCodecs
import QuartzCore
import TestSupport
import Testing

/// Exports name the fonts their text was drawn with: an iTXt chunk with the PNG keyword
/// "Comment" (PNG 3rd edition §11.3.3.2), read back by Pillow (`Image.text`). The expected font
/// is what CoreText's policy resolves for the name, its file checked to exist and to carry that
/// family in its `name` table (read by fontTools), so the test holds whatever fonts the machine
/// has. A text-free export has no such chunk.
@Suite(.serialized) struct ExportFontRecordTests {
    static let size = CGSize(width: 160, height: 40)

    struct ScriptFailure: Error, CustomStringConvertible { var description: String }

    static func textLayer() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let text = CATextLayer()
        text.frame = root.bounds
        text.string = "Hello"
        text.font = "Helvetica" as NSString
        text.fontSize = 20
        text.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        root.addSublayer(text)
        return root
    }

    /// `textLayer()` below 1 000 plain layers.
    static func deepTextLayer() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        var deepest = root
        for _ in 0..<1000 {
            let level = CALayer()
            level.frame = root.bounds
            deepest.addSublayer(level)
            deepest = level
        }
        deepest.addSublayer(textLayer())
        return root
    }

    static func square() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let square = CALayer()
        square.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        square.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(square)
        return root
    }

    /// The text chunks of the PNG or APNG at `path`, as Pillow reads them (keyword → text).
    static func texts(_ path: String) throws -> [String: String] {
        let script = "import sys, json\nfrom PIL import Image\nim = Image.open(sys.argv[1])\nprint(json.dumps(im.text))\n"
        let (status, output, errors) = try PillowDecoder.run(PillowDecoder.python, ["-c", script, path])
        guard status == 0 else { throw ScriptFailure(description: String(decoding: errors, as: UTF8.self)) }
        return try #require(try JSONSerialization.jsonObject(with: output) as? [String: String])
    }

    /// The family names (name IDs 1 and 16) of the face at `file`, `index`, read by fontTools.
    static func familyNames(_ file: String, index: Int) throws -> [String] {
        let script = """
        import sys, json
        from fontTools.ttLib import TTFont
        name = TTFont(sys.argv[1], fontNumber=int(sys.argv[2]), lazy=True)["name"]
        print(json.dumps([n for n in (name.getDebugName(1), name.getDebugName(16)) if n]))
        """
        let (status, output, errors) = try PillowDecoder.run(PillowDecoder.python, ["-c", script, file, "\(index)"])
        guard status == 0 else { throw ScriptFailure(description: String(decoding: errors, as: UTF8.self)) }
        return try #require(try JSONSerialization.jsonObject(with: output) as? [String])
    }

    /// "Fonts: FAMILY (FILE NAME)", and for a family standing in for Helvetica " for Helvetica,"
    /// with whether its widths are the same.
    static func expectedComment() throws -> String {
        let silent = setFontDiagnostics { _ in }
        defer { setFontDiagnostics(silent) }
        let font = try #require(resolvedFont("Helvetica"))
        #expect(FileManager.default.fileExists(atPath: font.file))
        #expect(try familyNames(font.file, index: font.index).contains(font.family))
        let substitute = font.family == "Helvetica" ? "" : " for Helvetica, \(font.metricCompatible ? "same" : "other") widths"
        return "Fonts: \(font.family) (\(URL(fileURLWithPath: font.file).lastPathComponent))\(substitute)"
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-fonts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aStillWithTextNamesItsFont() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let expected = try Self.expectedComment()
        try CAAnimationExporter(size: Self.size, scale: 1, makeLayer: Self.textLayer)
            .export(to: .file(dir + "/text.png"), timeline: .still(at: 0))
        #expect(try Self.texts(dir + "/text.png") == ["Comment": expected])
        // Before the image data, where a reader that stops at IDAT finds it.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/text.png")))
        let iTXt = try #require(bytes.firstRange(of: Array("iTXt".utf8))), idat = try #require(bytes.firstRange(of: Array("IDAT".utf8)))
        #expect(iTXt.lowerBound < idat.lowerBound)
        #expect(try PNGCodec.info(of: bytes).texts.map(\.text) == [expected])
    }

    /// Text 1 000 levels deep is drawn on a fresh stack (a thread of its own: the export's
    /// thread holds about 500 levels, README: Limits), and its font is named all the same.
    @Test func textDrawnOnAFreshStackNamesItsFont() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let expected = try Self.expectedComment()
        try CAAnimationExporter(size: Self.size, scale: 1, makeLayer: Self.deepTextLayer)
            .export(to: .file(dir + "/deep.png"), timeline: .still(at: 0))
        #expect(try Self.texts(dir + "/deep.png") == ["Comment": expected])
    }

    @Test func anAPNGAndEverySequenceFrameNameTheirFonts() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let expected = try Self.expectedComment()
        let exporter = CAAnimationExporter(size: Self.size, scale: 1, makeLayer: Self.textLayer)
        exporter.threads = 2
        try exporter.export(to: .file(dir + "/text.apng"), timeline: ExportTimeline(duration: 0.3, fps: 10))
        #expect(try Self.texts(dir + "/text.apng") == ["Comment": expected])
        try exporter.export(to: .file(dir + "/f%d.png"), timeline: ExportTimeline(duration: 0.3, fps: 10))
        for frame in 0..<3 { #expect(try Self.texts(dir + "/f\(frame).png") == ["Comment": expected]) }
    }

    @Test func textFreeExportsHaveNoComment() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let exporter = CAAnimationExporter(size: Self.size, scale: 1, makeLayer: Self.square)
        try exporter.export(to: .file(dir + "/still.png"), timeline: .still(at: 0))
        try exporter.export(to: .file(dir + "/anim.apng"), timeline: ExportTimeline(duration: 0.2, fps: 10))
        #expect(try Self.texts(dir + "/still.png").isEmpty)
        #expect(try Self.texts(dir + "/anim.apng").isEmpty)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/still.png")))
        #expect(bytes.firstRange(of: Array("iTXt".utf8)) == nil)
    }
}
