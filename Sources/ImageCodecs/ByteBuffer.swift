/// A growable byte buffer whose storage is kept across frames (no allocation once it has grown
/// to the largest frame): a GIF frame's blocks, a palette search's candidate lists, an APNG
/// frame's deflated data. `bytes` moves when the buffer grows.
final class ByteBuffer {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 16)
        bytes = .allocate(capacity: self.capacity)
    }

    deinit { bytes.deallocate() }

    func removeAll() { count = 0 }

    /// Makes room for `extra` more bytes.
    @inline(__always) func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        let newBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBytes.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = newBytes
        capacity = newCapacity
    }

    @inline(__always) func append(_ byte: UInt8) {
        reserve(1)
        bytes[count] = byte
        count += 1
    }

    /// Appends `value` as two little-endian bytes (GIF's byte order); `value` is in 0…65535.
    func appendUInt16(_ value: Int) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    func append(_ values: [UInt8]) {
        reserve(values.count)
        for v in values { bytes[count] = v; count += 1 }
    }

    /// Overwrites the byte at `offset` (already written).
    func set(_ byte: UInt8, at offset: Int) { bytes[offset] = byte }

    /// Sends the contents to `sink`.
    func write(to sink: ByteSink) throws(ImageCodecError) {
        try sink.write(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Counts `count` more bytes as written (the caller wrote them at `bytes + count` after
    /// reserving the room).
    func advance(by count: Int) { self.count += count }

    /// The room after the written bytes (after `reserve`).
    var end: UnsafeMutablePointer<UInt8> { bytes + count }

    /// Unchecked append for hot loops: the caller has reserved the room.
    @inline(__always) func appendUnchecked(_ byte: UInt8) {
        bytes[count] = byte
        count += 1
    }
}
