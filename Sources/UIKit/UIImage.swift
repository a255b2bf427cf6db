import Foundation
import ImageCodecs
import Synchronization

/// An image (Apple's `UIImage`): a `CGImage` and the scale that turns its pixels into points.
///
/// `size` is in points: pixel size / `scale`. Images read from a file named `name@2x.png` or
/// `name@3x.png` get scale 2 or 3, as on iOS. Only the `.up` orientation exists here (PNG and
/// JPEG files are decoded as stored; EXIF orientation is not applied).
open class UIImage: @unchecked Sendable {
    /// How the pixels are turned for display (Apple's raw values). Only `.up` is produced.
    public enum Orientation: Int, Sendable {
        case up = 0, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }

    /// The pixels (never nil here; optional as in Apple's signature).
    public let cgImage: CGImage?
    /// Pixels per point.
    public let scale: CGFloat
    public let imageOrientation: Orientation

    /// An image of `cgImage`'s pixels at `scale` pixels per point (a scale that is not positive
    /// and finite counts as 1).
    public init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        self.cgImage = cgImage
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        self.imageOrientation = orientation
    }

    /// An image of `cgImage`'s pixels at scale 1.
    public convenience init(cgImage: CGImage) {
        self.init(cgImage: cgImage, scale: 1, orientation: .up)
    }

    /// The PNG or JPEG file at `path` (recognised by its signature), with the scale of an `@2x` or
    /// `@3x` suffix in its name; nil when it cannot be read or decoded.
    public convenience init?(contentsOfFile path: String) {
        guard let image = try? CGImage(contentsOfFile: path) else { return nil }
        self.init(cgImage: image, scale: UIImage.scale(ofFileNamed: path), orientation: .up)
    }

    /// PNG or JPEG data; nil when it cannot be decoded.
    public convenience init?(data: Data) {
        self.init(data: data, scale: 1)
    }

    /// PNG or JPEG data at `scale`; nil when it cannot be decoded.
    public convenience init?(data: Data, scale: CGFloat) {
        guard let image = try? CGImage(encodedData: data) else { return nil }
        self.init(cgImage: image, scale: scale, orientation: .up)
    }

    /// The image file called `name` in `UIImage._resourceDirectories`. Deviation (no app bundle
    /// on Linux): the directories are searched in order for `name` as given, then — when `name`
    /// has no extension — `name@Nx.png` for the main screen's scale N, `name.png`, `name@2x.png`,
    /// `name@3x.png`, `name.jpg`, `name.jpeg`. Nil when none decodes.
    public convenience init?(named name: String) {
        guard !name.isEmpty else { return nil }
        for path in UIImage.candidatePaths(forName: name) where FileManager.default.fileExists(atPath: path) {
            if let image = try? CGImage(contentsOfFile: path) {
                self.init(cgImage: image, scale: UIImage.scale(ofFileNamed: path), orientation: .up)
                return
            }
        }
        return nil
    }

    /// The size in points (pixels / scale).
    public var size: CGSize {
        guard let cgImage else { return .zero }
        return CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale)
    }

    /// The image as PNG data (straight alpha), or nil when encoding fails.
    public func pngData() -> Data? {
        guard let cgImage, let bytes = try? PNGCodec.encode(cgImage.pixmap) else { return nil }
        return Data(bytes)
    }

    // MARK: Drawing into the current context

    /// Draws the image upright, stretched to fill `rect` (points, in the current context's y-down
    /// user space).
    open func draw(in rect: CGRect) { draw(in: rect, blendMode: .normal, alpha: 1) }

    /// Draws the image upright with its top-left corner at `point`, at its size in points.
    open func draw(at point: CGPoint) { draw(in: CGRect(origin: point, size: size)) }

    /// Draws the image upright into `rect` with `blendMode` and `alpha`.
    open func draw(in rect: CGRect, blendMode: CGBlendMode, alpha: CGFloat) {
        guard let ctx = UIGraphicsGetCurrentContext(), let cgImage else { return }
        ctx.saveGState()
        ctx.setBlendMode(blendMode)
        ctx.setAlpha(alpha)
        // CGContext draws an image's first row at rect.maxY; in UIKit's y-down space that is the
        // bottom, so flip about the rectangle's middle to keep the image upright.
        ctx.translateBy(x: 0, y: rect.minY + rect.maxY)
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(cgImage, in: rect)
        ctx.restoreGState()
    }

    // MARK: Named images

    private static let resourceDirectories = Mutex<[String]?>(nil)

    /// Citrine extension: the directories `UIImage(named:)` searches, in order. Default: the
    /// current directory.
    public static var _resourceDirectories: [String] {
        get { resourceDirectories.withLock { $0 } ?? [FileManager.default.currentDirectoryPath] }
        set { resourceDirectories.withLock { $0 = newValue } }
    }

    static func candidatePaths(forName name: String) -> [String] {
        let hasExtension = !(name as NSString).pathExtension.isEmpty
        let screenScale = Int(UIScreen.main.scale)
        let files = hasExtension ? [name] : [name, "\(name)@\(screenScale)x.png", "\(name).png", "\(name)@2x.png",
                                            "\(name)@3x.png", "\(name).jpg", "\(name).jpeg"]
        let directories = name.hasPrefix("/") ? [""] : _resourceDirectories
        return directories.flatMap { dir in files.map { dir.isEmpty ? $0 : (dir as NSString).appendingPathComponent($0) } }
    }

    /// 2 or 3 for a file name ending in "@2x"/"@3x" before its extension, else 1.
    static func scale(ofFileNamed path: String) -> CGFloat {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if base.hasSuffix("@3x") { return 3 }
        if base.hasSuffix("@2x") { return 2 }
        return 1
    }
}
