/// An 8-bit coverage mask the size of a target, for anti-aliased clipping: 0 = clipped out,
/// 255 = fully visible. Allocated once, zeroed; freed with the object.
public final class Mask: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// `width * height` bytes, row-major.
    public let data: UnsafeMutablePointer<UInt8>

    public init(width: Int, height: Int) throws(RasterError) {
        try Pixmap.validate(width: width, height: height)
        self.width = width
        self.height = height
        let count = max(width * height, 1)
        data = .allocate(capacity: count)
        data.initialize(repeating: 0, count: count)
    }

    deinit { data.deallocate() }

    /// Coverage at (x, y); 0 outside.
    public func value(x: Int, y: Int) -> UInt8 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return data[y * width + x]
    }
}
