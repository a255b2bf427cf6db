import Foundation
import ImageCodecs
import Raster
import SnapshotTesting
import UIKit

extension Diffing where Value == UIImage {
    /// A pixel-diffing strategy for images that requires a 100 % match.
    public static var image: Diffing { .image() }

    /// A pixel-diffing strategy for images, stored as PNG, with the parameters of
    /// swift-snapshot-testing's own `Diffing<UIImage>.image` (its documentation: "precision: The
    /// percentage of pixels that must match", "perceptualPrecision: The percentage a pixel must
    /// match the source pixel to be considered a match. 98-99% mimics the precision of the human
    /// eye").
    ///
    /// Both images are compared as decoded pixels (premultiplied RGBA8, sRGB), the new one after a
    /// round trip through PNG so that what encoding loses does not count as a change. A pixel
    /// matches when its bytes are equal, or — with `perceptualPrecision` below 1 — when its
    /// colour difference ΔE (see `PerceptualDifference`) is at most
    /// `(1 − perceptualPrecision) × 100`. The images match when the share of matching pixels is
    /// at least `precision`. (With `perceptualPrecision == 1` and `precision < 1`, the library's
    /// Apple code counts differing bytes instead; here it is pixels, as the documentation says.)
    ///
    /// - Parameters:
    ///   - precision: The share of pixels (0…1) that must match.
    ///   - perceptualPrecision: How closely (0…1) a pixel must match its reference pixel to count
    ///     as a match: 1 means equal bytes; 0.98 allows ΔE ≤ 2, about the smallest difference a
    ///     person notices.
    ///   - scale: Pixels per point given to the reference image read from disk (nil: the main
    ///     screen's scale). It affects the image's size in points only, never the comparison.
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1, scale: CGFloat? = nil) -> Diffing {
        let imageScale = scale.flatMap { $0 > 0 ? $0 : nil } ?? UIScreen.main.scale
        return .diff(
            toData: { $0.pngData() ?? Data() },
            fromData: { data in
                UIImage(data: data, scale: imageScale)
                    ?? UnavailableImage(reason: "The reference image (\(data.count) bytes) could not be decoded as PNG.")
            },
            diffV2: { reference, new in
                guard let message = compareImages(reference, new, precision: precision, perceptualPrecision: perceptualPrecision)
                else { return nil }
                var attachments: [DiffAttachment] = []
                if let data = reference.pngData() { attachments.append(.data(data, name: "reference.png")) }
                if let data = new.pngData() { attachments.append(.data(data, name: "failure.png")) }
                if let difference = differenceImage(reference, new), let data = difference.pngData() {
                    attachments.append(.data(data, name: "difference.png"))
                }
                return (message, attachments)
            }
        )
    }
}

extension Snapshotting where Value == UIImage, Format == UIImage {
    /// A snapshot strategy for comparing images based on pixel equality.
    public static var image: Snapshotting { .image() }

    /// A snapshot strategy for comparing images, stored as PNG (see `Diffing<UIImage>.image`).
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1, scale: CGFloat? = nil) -> Snapshotting {
        Snapshotting(pathExtension: "png",
                     diffing: .image(precision: precision, perceptualPrecision: perceptualPrecision, scale: scale))
    }
}

/// Stands for an image that could not be made (a render that failed, a reference that does not
/// decode): one transparent pixel, and the reason, which the comparison reports.
final class UnavailableImage: UIImage, @unchecked Sendable {
    let reason: String

    init(reason: String) {
        self.reason = reason
        // A 1×1 pixmap cannot fail to allocate.
        super.init(cgImage: CGImage(pixmap: try! Pixmap(width: 1, height: 1)), scale: 1, orientation: .up)
    }
}

/// Nil when `new` matches `reference` under `precision` and `perceptualPrecision`; else why not.
func compareImages(_ reference: UIImage, _ new: UIImage, precision: Float, perceptualPrecision: Float) -> String? {
    if let unavailable = reference as? UnavailableImage { return unavailable.reason }
    if let unavailable = new as? UnavailableImage { return unavailable.reason }
    guard let old = reference.cgImage?.pixmap else { return "Reference image could not be loaded." }
    guard let taken = new.cgImage?.pixmap else { return "Newly-taken snapshot could not be loaded." }
    guard old.width == taken.width, old.height == taken.height else {
        return "Newly-taken snapshot (\(taken.width)×\(taken.height) pixels) does not match reference (\(old.width)×\(old.height) pixels)."
    }
    // What the reference went through: PNG's straight alpha rounds premultiplied colours.
    guard let pngBytes = try? PNGCodec.encode(taken),
          let roundTripped = try? pngBytes.withUnsafeBytes({ try PNGCodec.decode(buffer: $0) }),
          roundTripped.width == old.width, roundTripped.height == old.height
    else { return "Newly-taken snapshot could not be encoded as PNG." }
    let byteCount = old.width * old.height * 4
    if memcmp(old.pixels, roundTripped.pixels, byteCount) == 0 { return nil }
    if precision >= 1, perceptualPrecision >= 1 { return "Newly-taken snapshot does not match reference." }

    let comparison = PerceptualDifference.compare(old, roundTripped, perceptualPrecision: perceptualPrecision)
    let matching = Float(comparison.pixelCount - comparison.failingPixels) / Float(comparison.pixelCount)
    guard matching < precision else { return nil }
    var message = "The percentage of pixels that match \(matching) is less than required \(precision)"
    if perceptualPrecision < 1 {
        let lowest = 1 - min(comparison.maximumDeltaE / 100, 1)
        message += "\nThe lowest perceptual color precision \(lowest) is less than required \(perceptualPrecision)"
    }
    return message
}

/// An opaque grey image of the per-pixel difference (the largest of the four channel
/// differences), stretched so that the largest difference is white; nil when the sizes differ.
func differenceImage(_ reference: UIImage, _ new: UIImage) -> UIImage? {
    guard let a = reference.cgImage?.pixmap, let b = new.cgImage?.pixmap, a.width == b.width, a.height == b.height,
          let out = try? Pixmap(width: a.width, height: a.height) else { return nil }
    let count = a.width * a.height
    var differences = [UInt8](repeating: 0, count: count)
    var largest: UInt8 = 0
    for i in 0..<count {
        var d: UInt8 = 0
        for c in 0..<4 {
            let x = a.pixels[i * 4 + c], y = b.pixels[i * 4 + c]
            d = max(d, x > y ? x - y : y - x)
        }
        differences[i] = d
        largest = max(largest, d)
    }
    for i in 0..<count {
        let grey = largest == 0 ? 0 : UInt8((Int(differences[i]) * 255 + Int(largest) / 2) / Int(largest))
        out.pixels[i * 4] = grey
        out.pixels[i * 4 + 1] = grey
        out.pixels[i * 4 + 2] = grey
        out.pixels[i * 4 + 3] = 255
    }
    return UIImage(cgImage: CGImage(pixmap: out), scale: new.scale, orientation: .up)
}
