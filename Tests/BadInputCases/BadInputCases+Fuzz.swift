import Compositor
import Foundation
import ImageCodecs
import QuartzCore

/// Inputs the fuzzers (`Fuzz/`, `scripts/fuzz`) found, kept as regression cases: each runs the
/// public call its fuzz target made, on the input as found or minimized (RELIABILITY.md,
/// Fuzzing, lists the campaign that found it). Layer-tree findings are written out as the
/// operations their byte script performed; their raw inputs are also in `Fuzz/Corpus/layers`, so
/// every fuzz run replays them first.
extension BadInputCase {
    static let fuzzCases: [BadInputCase] = fuzzLayerCases + [
        // fuzz-jpeg, campaign timeouts (13 s, then over 30 s, under ASan on the loaded machine):
        // a 115-byte CMYK JPEG whose header claims 6896×7709 pixels — within the decoding budget
        // — with a few bytes of scan data, then EOI. Strict: an error at the corrupt data, at
        // once. Lenient: the image libjpeg recovers, every pixel decoded and converted from CMYK,
        // time proportional to the pixels claimed, which the budget bounds — the documented
        // behaviour, not a defect; not run here (28.5 s in a debug build on the loaded machine).
        BadInputCase("fuzz-jpeg-cmyk-claims-53-megapixels-strict", area: "files", expected: "refused: <memory>: malformed image: Corrupt JPEG data") {
            _ = try JPEGCodec.decode(fuzzJPEGClaiming53Megapixels)
            return "decoded"
        },
        // Found while reading that case's decode path: a file cut short is an error either way,
        // yet libjpeg went on to fill every row it lacked with grey before the error was
        // reported. The decode now stops at the end of the data (strict and lenient alike).
        BadInputCase("jpeg-truncated-header-8192-squared-lenient", area: "files", expected: "refused: <memory>: truncated") {
            let cut = Array(jpeg(width: 8192, height: 8192, progressive: false).dropLast(2))
            _ = try cut.withUnsafeBytes { try JPEGCodec.decode(buffer: $0, lenient: true) }
            return "decoded"
        },
    ]

    /// Layer-tree findings of fuzz-layers.
    static let fuzzLayerCases: [BadInputCase] = [
        // Found: a fade transition (duration −17, so the default 0.25 s) with a time offset of
        // 9.7e24 s, drawn after its end: the play index of the final cycle (≈ 4e25 cycles) was
        // converted to Int and trapped (Fuzz/Corpus/layers/found-transition-time-offset-1e25).
        // Every play index is now clamped to 0…Int32.max, wherever it is computed.
        BadInputCase("fuzz-transition-time-offset-1e25-after-its-end", area: "numbers", expected: "drew") {
            let transition = CATransition()
            transition.duration = -17
            transition.timeOffset = 9.7e24
            return try drawnAfterItsEnd(transition)
        },
        BadInputCase("animation-time-offset-1e30-after-its-end", area: "numbers", expected: "drew") {
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0
            fade.duration = 1
            fade.timeOffset = 1e30
            fade.fillMode = .forwards
            fade.isRemovedOnCompletion = false
            return try drawnAfterItsEnd(fade)
        },
    ]

    /// Adds `animation` to a square at media time 0 and draws it at 0.25, 1 and 4.5 s.
    static func drawnAfterItsEnd(_ animation: CAAnimation) throws -> String {
        CAMediaClock.setManualTime(0)
        let layer = square()
        layer.add(animation, forKey: nil)
        let renderer = try CARenderer(width: 32, height: 32, scale: 2)
        renderer.layer = layer
        for t in [0.25, 1, 4.5] {
            CAMediaClock.setManualTime(t)
            renderer.beginFrame(atTime: t)
            renderer.render()
            renderer.endFrame()
        }
        return "drew"
    }

    static let fuzzJPEGClaiming53Megapixels = [UInt8](Data(base64Encoded:
        "/9gA/9sAQwAIBgYHBgUICQoIBwwU7AcNDAsLDBkSEw8UHRofHh0aHBwjHCQoNiksMDE0NDUfJzk9ODI8LjM0Mv/AABQuMzQy/8AAFAgeHRrwBEMRAE0RAFkRAEsRAAAB+v/aAA4EQwBNAFkASwAAca//2Q==")!)
}
