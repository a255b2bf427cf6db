import Raster

/// A bitmap image (Apple's `CGImage`): 8 bits per component, RGBA, premultiplied alpha, sRGB.
/// Immutable: it owns a `Pixmap` that nobody else writes to.
public final class CGImage: @unchecked Sendable {
    /// The pixels (premultiplied RGBA8). Project API: Apple offers `dataProvider` instead.
    public let pixmap: Pixmap
    public var width: Int { pixmap.width }
    public var height: Int { pixmap.height }
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    public var bytesPerRow: Int { pixmap.bytesPerRow }

    /// Wraps `pixmap`; the caller must not modify it afterwards.
    public init(pixmap: Pixmap) { self.pixmap = pixmap }
}
