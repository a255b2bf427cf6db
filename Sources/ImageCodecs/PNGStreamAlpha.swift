// Pixel helpers of the PNG stream writer (straight alpha itself: StraightAlpha.swift).

extension PNGStreamWriter {
    /// Sets to 0 each pixel of `row` whose pixel in `source` equals the one in `reference`.
    static func clearEqualPixels(_ row: UnsafeMutablePointer<UInt8>, _ source: UnsafePointer<UInt8>,
                                 _ reference: UnsafePointer<UInt8>, pixelCount: Int) {
        let target = UnsafeMutableRawPointer(row), a = UnsafeRawPointer(source), b = UnsafeRawPointer(reference)
        for i in 0..<pixelCount {
            let offset = 4 &* i
            if a.loadUnaligned(fromByteOffset: offset, as: UInt32.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt32.self) {
                target.storeBytes(of: 0, toByteOffset: offset, as: UInt32.self)
            }
        }
    }
}
