import Foundation
import TestSupport

/// Decoded pictures compared pixel by pixel (straight-alpha RGBA8, as Pillow gives them).
struct Picture {
    var width: Int
    var height: Int
    var rgba: [UInt8]

    init(_ frame: PillowDecoder.Frame) {
        width = frame.width
        height = frame.height
        rgba = frame.rgba
    }

    /// The only frame of the PNG at `path`.
    static func still(_ path: URL) throws -> Picture {
        let decoded = try PillowDecoder.decode(path.path)
        guard decoded.frames.count == 1 else { throw Mismatch(description: "\(path.lastPathComponent) has \(decoded.frames.count) frames") }
        return Picture(decoded.frames[0])
    }

    struct Mismatch: Error, CustomStringConvertible { var description: String }

    /// How a GIF frame differs from the picture it was made from: GIF has one transparent index,
    /// so a pixel is either transparent (where the source's alpha is below the encoder's 50 %
    /// threshold) or opaque with a palette colour near the source's straight colour.
    struct GIFError {
        /// Pixels transparent in one and opaque in the other, away from the cut: the source's
        /// alpha below 96 or above 160.
        var alphaMismatches = 0
        /// The same near the cut (alpha 96…160), where the encoder may keep a pixel's previous
        /// index while its colour changes by less than the palette can show.
        var edgeFlips = 0
        /// Largest and mean absolute difference of a colour channel over pixels opaque in both.
        var maxColourError = 0
        var meanColourError = 0.0
    }

    func gifError(against source: Picture) -> GIFError {
        var e = GIFError()
        var sum = 0, count = 0
        for i in stride(from: 0, to: rgba.count, by: 4) {
            let opaque = rgba[i + 3] == 255, sourceOpaque = source.rgba[i + 3] >= 128
            if opaque != sourceOpaque {
                if (96...160).contains(source.rgba[i + 3]) { e.edgeFlips += 1 } else { e.alphaMismatches += 1 }
                continue
            }
            guard opaque else { continue }
            for c in 0..<3 {
                let d = abs(Int(rgba[i + c]) - Int(source.rgba[i + c]))
                e.maxColourError = max(e.maxColourError, d)
                sum += d
                count += 1
            }
        }
        e.meanColourError = count > 0 ? Double(sum) / Double(count) : 0
        return e
    }
}
