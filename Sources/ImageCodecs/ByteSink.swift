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

    /// Forgets the bytes, keeping the memory.
    public func removeAll() { bytes.removeAll(keepingCapacity: true) }
}

/// An animation encoder writing to a `ByteSink`, frame by frame (`GIFEncoder`, `APNGEncoder`).
public protocol AnimationEncoder: AnyObject {
    /// Appends the next frame: premultiplied RGBA8, the animation's size.
    func append(_ frame: Pixmap) throws(ImageCodecError)
    /// Writes the end of the file (the sink is the caller's to close or commit).
    func finish() throws(ImageCodecError)
}

/// An animation encoder whose per-frame work can run on several threads: a `Preparer` per
/// thread turns frames into `Prepared` frames — in any order, several at once, each frame from
/// the one before it — and `append(_:)` takes them in order and writes them. The bytes are
/// the same as appending the frames themselves.
public protocol PreparingAnimationEncoder: AnimationEncoder {
    associatedtype Preparer: AnimationFramePreparer where Preparer.Prepared == Prepared
    associatedtype Prepared: AnyObject
    /// Whether frame 0 must be prepared before any other frame is (GIF: the global palette).
    static var preparesFirstFrameFirst: Bool { get }
    /// A preparer (one per thread: it holds scratch memory reused frame after frame).
    func makePreparer() throws(ImageCodecError) -> Preparer
    /// Storage for one prepared frame, reusable once the frame is appended.
    func makePreparedFrame() -> Prepared
    /// Appends the next frame, prepared.
    func append(_ prepared: Prepared) throws(ImageCodecError)
}

/// Prepares frames for a `PreparingAnimationEncoder`, on the thread it is called from.
public protocol AnimationFramePreparer {
    associatedtype Prepared
    /// Prepares `frame` into `prepared`: frame 0 when `previous` is nil, else the frame after
    /// `previous`; `isLast` tells whether it is the animation's last frame.
    func prepare(_ frame: Pixmap, previous: Pixmap?, isLast: Bool, into prepared: Prepared) throws(ImageCodecError)
}

extension GIFEncoder: AnimationEncoder {}
extension APNGEncoder: PreparingAnimationEncoder {
    public static var preparesFirstFrameFirst: Bool { false }
}
extension APNGFramePreparer: AnimationFramePreparer {}
