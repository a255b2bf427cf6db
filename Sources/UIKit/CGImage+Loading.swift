import Foundation
import ImageCodecs
import QuartzCore

// Loading images from PNG and JPEG files (project API: Apple goes through ImageIO's
// CGImageSource or UIImage instead). It lives here, beside `UIImage`, which loads files with it,
// because CoreGraphics knows no codecs: `import UIKit` brings it.

extension CGImage {
    /// The image in the PNG or JPEG file at `path` (the format is recognised by its
    /// signature, not its name). Throws `ImageCodecError` naming the file when it cannot be
    /// read or decoded.
    public convenience init(contentsOfFile path: String) throws(ImageCodecError) {
        if try CGImage.startsWithPNGSignature(path) {
            self.init(pixmap: try PNGCodec.decode(contentsOf: path))
        } else {
            self.init(pixmap: try JPEGCodec.decode(contentsOf: path))
        }
    }

    /// The image in PNG or JPEG `data` (recognised by its signature).
    public convenience init(encodedData data: Data) throws(ImageCodecError) {
        if data.starts(with: CGImage.pngSignature) {
            self.init(pixmap: try PNGCodec.decode(data))
        } else {
            self.init(pixmap: try JPEGCodec.decode(data))
        }
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func startsWithPNGSignature(_ path: String) throws(ImageCodecError) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImageCodecError(file: path, reason: .fileSystem("cannot open"))
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: pngSignature.count)) ?? nil
        return head.map { Array($0) == pngSignature } ?? false
    }
}
