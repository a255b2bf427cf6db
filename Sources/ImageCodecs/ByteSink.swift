import Raster

/// Where an encoder's bytes go: a file being written atomically (`OutputFile`), memory
/// (`MemorySink`), or a pipe. Encoders call `write` with whole chunks, in order.
public protocol ByteSink: AnyObject {
    /// Appends `bytes`. Throws when the destination refuses (disk full, closed pipe).
    func write(_ bytes: UnsafeRawBufferPointer) throws(ImageCodecError)
}

extension ByteSink {
    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(ImageCodecError) {
        let sink: any ByteSink = self
        do { try bytes.withUnsafeBytes { try sink.write($0) } } catch let error as ImageCodecError { throw error } catch {
            throw ImageCodecError(file: nil, reason: .fileSystem("\(error)"))
        }
    }
}

/// A `ByteSink` that keeps everything in memory (tests, small images).
public final class MemorySink: ByteSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws(ImageCodecError) {
        self.bytes.append(contentsOf: bytes)
    }
}

/// An animation encoder writing to a `ByteSink`, frame by frame (`GIFEncoder`, `APNGEncoder`).
public protocol AnimationEncoder: AnyObject {
    /// Appends the next frame: premultiplied RGBA8, the animation's size.
    func append(_ frame: Pixmap) throws(ImageCodecError)
    /// Writes the end of the file (the sink is the caller's to close or commit).
    func finish() throws(ImageCodecError)
}

extension GIFEncoder: AnimationEncoder {}
extension APNGEncoder: AnimationEncoder {}
