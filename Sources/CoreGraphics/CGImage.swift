import Raster

/// Where alpha is stored and whether colour is premultiplied (Apple's `CGImageAlphaInfo`,
/// same raw values).
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0, premultipliedLast, premultipliedFirst, last, first, noneSkipLast, noneSkipFirst, alphaOnly
}

/// Pixel layout flags (Apple's `CGBitmapInfo`, same raw values). The low 5 bits hold a
/// `CGImageAlphaInfo`.
public struct CGBitmapInfo: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    public static let byteOrderDefault = CGBitmapInfo([])
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
}

/// A bitmap image (Apple's `CGImage`): 8 bits per component, bytes R, G, B, A in memory
/// (`alphaInfo == .premultipliedLast`, default byte order), premultiplied alpha, sRGB, rows
/// top to bottom. Immutable: it owns a `Pixmap` that nobody else writes to.
public final class CGImage: @unchecked Sendable {
    /// The pixels (premultiplied RGBA8, row 0 = top row of the image). Project API: Apple
    /// offers `dataProvider` instead.
    public let pixmap: Pixmap
    public var width: Int { pixmap.width }
    public var height: Int { pixmap.height }
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    public var bytesPerRow: Int { pixmap.bytesPerRow }
    public var alphaInfo: CGImageAlphaInfo { .premultipliedLast }
    public var bitmapInfo: CGBitmapInfo { CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue) }
    public var colorSpace: CGColorSpace? { CGColorSpaceCreateDeviceRGB() }
    public var isMask: Bool { false }
    public var shouldInterpolate: Bool { true }

    /// Wraps `pixmap`; the caller must not modify it afterwards.
    public init(pixmap: Pixmap) { self.pixmap = pixmap }

    /// The part of the image inside `rect`, in image pixel coordinates with the origin at the
    /// top-left pixel (as Apple's `CGImageCreateWithImageInRect`): the rect is standardized,
    /// made integral and intersected with the image bounds; nil when that is empty.
    public func cropping(to rect: CGRect) -> CGImage? {
        let bounds = CGRect(x: 0, y: 0, width: width, height: height)
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return nil }
        let r = rect.standardized.integral.intersection(bounds)
        guard !r.isNull, r.width >= 1, r.height >= 1 else { return nil }
        let x0 = Int(r.minX), y0 = Int(r.minY), w = Int(r.width), h = Int(r.height)
        guard let cropped = try? Pixmap(width: w, height: h) else { return nil }
        for row in 0..<h {
            (cropped.pixels + row * cropped.bytesPerRow)
                .update(from: pixmap.pixels + (y0 + row) * bytesPerRow + x0 * 4, count: w * 4)
        }
        return CGImage(pixmap: cropped)
    }

    /// The straight (un-premultiplied) sRGB colour of pixel (`x`, `y`), origin top-left;
    /// transparent black outside the image (project API).
    public func color(atX x: Int, y: Int) -> CGColor {
        let c = pixmap.pixel(x: x, y: y).unpremultiplied
        return CGColor(red: CGFloat(c.r), green: CGFloat(c.g), blue: CGFloat(c.b), alpha: CGFloat(c.a))
    }
}
