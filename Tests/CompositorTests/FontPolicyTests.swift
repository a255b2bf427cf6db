import Compositor
import CoreText
import Foundation
import QuartzCore
import Raster
import TestSupport
import Testing

/// The font policy (CoreText's `FontPolicy`; README: Fonts) as resolved on this machine, checked
/// against fontconfig's own command-line tools (`fc-list`, `fc-match`) and the font files' tables
/// read with fontTools (`FontTables`), not against Citrine's code.
@Suite(.serialized) struct FontPolicyTests {
    /// Runs a fontconfig tool and returns its standard output.
    static func fontconfig(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Each Apple name is drawn with the first family of its row that `fc-list` lists here (the
    /// name itself first, were it installed), from the file `fc-match` gives for that family; a
    /// name no row lists, with DejaVu Sans.
    @Test func eachNameResolvesToItsFirstInstalledFamily() throws {
        try #require(fontDirectory == nil, "run without CITRINE_FONT_DIR")
        let installed = Set(try Self.fontconfig("fc-list", [":", "family"]).split(separator: "\n")
            .flatMap { $0.split(separator: ",") }.map { $0.lowercased() })
        let silent = setFontDiagnostics { _ in }
        defer { setFontDiagnostics(silent) }
        for row in FontPolicy.rows {
            for name in row.names {
                let expected = try #require(([name] + row.families).first { installed.contains($0.lowercased()) })
                let found = try #require(resolvedFont(name))
                #expect(found.family == expected, "\(name)")
                let file = try Self.fontconfig("fc-match", ["-f", "%{file}", expected])
                #expect(found.file == file, "\(name)")
                #expect(found.metricCompatible == row.metricCompatible.contains(expected), "\(name)")
            }
        }
        #expect(resolvedFont("No Such Font Family")?.family == "DejaVu Sans")
        // A style stays with the name: Helvetica-Bold is the bold face of Helvetica's family.
        let bold = try #require(resolvedFont("Helvetica:bold"))
        #expect(bold.file == (try Self.fontconfig("fc-match", ["-f", "%{file}", bold.family + ":bold"])))
    }

    /// A font drawn with other widths than asked is named once per name (standard error by
    /// default): an unknown name always; Helvetica when none of its metric-compatible families is
    /// installed; never a name installed as asked.
    @Test func aSubstitutionIsNamedOncePerName() throws {
        let lines = LockedLines()
        let previous = setFontDiagnostics { lines.append($0) }
        defer { setFontDiagnostics(previous); useFontDirectory(ProcessInfo.processInfo.environment["CITRINE_FONT_DIR"]) }
        useFontDirectory(ProcessInfo.processInfo.environment["CITRINE_FONT_DIR"])   // forgets what was said
        let helvetica = try #require(resolvedFont("Helvetica"))
        _ = resolvedFont("Helvetica:bold")
        _ = resolvedFont("Helvetica")
        let unknown = try #require(resolvedFont("No Such Font Family"))
        _ = resolvedFont("No Such Font Family:bold")
        _ = resolvedFont("DejaVu Sans")   // installed as asked: nothing to say
        _ = resolvedFont(".SFUI")         // the documented choice: nothing to say
        let expected = (helvetica.metricCompatible ? [] : [helvetica.substitutionNote]) + [unknown.substitutionNote]
        #expect(lines.all == expected)
        #expect(helvetica.metricCompatible == ["Nimbus Sans", "TeX Gyre Heros", "Liberation Sans"].contains(helvetica.family))
        #expect(unknown.substitutionNote.hasPrefix("Citrine: font \"No Such Font Family\" is drawn with \(unknown.family) (\(unknown.file))"))
    }

    /// `CITRINE_FONT_DIR` (`--font-dir`): with a folder holding one DejaVu file, every name is
    /// drawn with it — a CATextLayer's "H" in Helvetica inks where that file's tables put it
    /// (baseline one `hhea` ascent below the top, the glyph's outline bounds around it).
    @Test func aFontFolderRestrictsResolutionToItsFonts() throws {
        let dejaVuSerif = try Self.fontconfig("fc-match", ["-f", "%{file}", "DejaVu Serif"])
        try #require(dejaVuSerif.hasSuffix("DejaVuSerif.ttf"), "DejaVu Serif is installed (fonts-dejavu-core)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("DejaVuSerif.ttf").path
        try FileManager.default.copyItem(atPath: dejaVuSerif, toPath: copy)
        let silent = setFontDiagnostics { _ in }
        defer {
            useFontDirectory(ProcessInfo.processInfo.environment["CITRINE_FONT_DIR"])
            setFontDiagnostics(silent)
            try? FileManager.default.removeItem(at: folder)
        }
        useFontDirectory(folder.path)
        for name in ["Helvetica", "Times", "Courier", "Menlo", ".SFUI", "DejaVu Sans"] {
            #expect(resolvedFont(name)?.file == copy, "\(name)")
        }
        let f = try FontTables.read(copy, text: "H")
        let t = CATextLayer()
        t.frame = CGRect(x: 0, y: 0, width: 120, height: 130)
        t.string = "H"
        t.font = "Helvetica"
        t.fontSize = 100
        t.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let image = try CARenderer.image(of: t, size: CGSize(width: 120, height: 130), at: 0)
        var box: (Int, Int, Int, Int)?
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixmap.pixel(x: x, y: y).a > 127 {
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        let ink = try #require(box)
        let a = f.ascent(100), h = f.box("H", size: 100)
        let x = FontTables.pixels(h.minX, h.maxX), y = FontTables.pixels(a - h.maxY, a - h.minY)
        #expect(abs(ink.0 - x.first) <= (x.ambiguous ? 1 : 0) && abs(ink.2 - x.last) <= (x.ambiguous ? 1 : 0), "\(ink)")
        #expect(abs(ink.1 - y.first) <= (y.ambiguous ? 1 : 0) && abs(ink.3 - y.last) <= (y.ambiguous ? 1 : 0), "\(ink)")
    }
}

/// Lines gathered from any thread.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
