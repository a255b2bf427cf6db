import Foundation
import TestSupport
import Testing

/// `citrine info FILE.png`: the size from IHDR and the text chunks, an iTXt or tEXt "Comment"
/// (where exports record their fonts) printed as it is. The files are written by Pillow, an
/// independent encoder.
@Suite struct InfoPNGTests {
    /// Writes a 3×2 PNG to `path` with Pillow, with `texts` as iTXt (keyword, text) chunks.
    static func write(_ path: String, texts: [(String, String)]) throws {
        let script = """
        import sys, json
        from PIL import Image, PngImagePlugin
        info = PngImagePlugin.PngInfo()
        for keyword, text in json.loads(sys.argv[2]): info.add_itxt(keyword, text)
        Image.new("RGBA", (3, 2)).save(sys.argv[1], pnginfo=info)
        """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: texts.map { [$0.0, $0.1] }), as: UTF8.self)
        let (status, _, errors) = try PillowDecoder.run(PillowDecoder.python, ["-c", script, path, json])
        #expect(status == 0, "\(String(decoding: errors, as: UTF8.self))")
    }

    @Test func infoPrintsAPNGsSizeAndRecordedFonts() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(folder.appendingPathComponent("text.png").path,
                       texts: [("Comment", "Fonts: DejaVu Sans (DejaVuSans.ttf)"), ("Author", "Zoë")])
        let run = try Citrine.run(["info", "text.png"], in: folder)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.output == "text.png: 3x2 pixels\nFonts: DejaVu Sans (DejaVuSans.ttf)\nAuthor: Zoë\n")

        try Self.write(folder.appendingPathComponent("plain.png").path, texts: [])
        let plain = try Citrine.run(["info", "plain.png"], in: folder)
        #expect(plain.status == 0)
        #expect(plain.output == "plain.png: 3x2 pixels\n"
                    + "Fonts: none recorded (no text was drawn, or the file was not exported by Citrine)\n")

        try Data("not a png".utf8).write(to: folder.appendingPathComponent("bad.png"))
        let bad = try Citrine.run(["info", "bad.png"], in: folder)
        #expect(bad.status == 1 && bad.stderr.contains("bad.png") && bad.stderr.contains("not a PNG"), "\(bad.stderr)")
        let whole = try Data(contentsOf: folder.appendingPathComponent("text.png"))
        try whole.prefix(40).write(to: folder.appendingPathComponent("cut.png"))
        let cut = try Citrine.run(["info", "cut.png"], in: folder)
        #expect(cut.status == 1 && cut.stderr.contains("cut.png") && cut.stderr.contains("truncated"), "\(cut.stderr)")
        let missing = try Citrine.run(["info", "missing.png"], in: folder)
        #expect(missing.status == 1 && missing.stderr.contains("no PNG file at 'missing.png'"), "\(missing.stderr)")
    }
}
