import Raster
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A GIF frame made ready on any thread (`GIFFramePreparer.prepare`) for
/// `GIFEncoder.append(_:)`: the frame's source colours, and — unless it equals the frame before
/// it — its palette work (rectangle, table choice, dithered indices) done on the assumption that
/// the frame before it is what the viewer's canvas model holds and that the frame keeps its
/// pixels (disposal 1). The encoder uses that work when the assumption holds, which it does for
/// every frame of an animation without transparency changes, merged or skipped frames; other
/// frames it quantizes itself, with the same result. Reusable: prepare into it again once it is
/// appended. 5 bytes per canvas pixel.
public final class GIFPreparedFrame {
    let width: Int, height: Int
    /// Source words (opaque straight colour, or 0 for transparent), `width`×`height`.
    private(set) var words: UnsafeMutablePointer<UInt32>
    var hasTransparency = false
    /// The palette work, or nil (not prepared ahead, or nothing changed).
    var quantization: GIFQuantization?
    /// `rect.area` indices, row-major.
    private(set) var indices: UnsafeMutablePointer<UInt8>
    var rect = GIFRect.empty
    /// Prepared as the animation's first frame, and then whether a transparent entry was kept.
    var first = false
    var reservedTransparency = false
    /// The global table the work used (nil: none).
    var global: GIFGlobalPalette?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        words = .allocate(capacity: width * height)
        words.initialize(repeating: 0, count: width * height)
        indices = .allocate(capacity: width * height)
    }

    deinit {
        words.deallocate()
        indices.deallocate()
    }

    /// Swaps contents with `other` (a frame of the same size): the encoder takes a prepared
    /// frame's storage and gives it storage back to reuse, without copying.
    func exchange(with other: GIFPreparedFrame) {
        precondition(other.width == width && other.height == height, "prepared frames of one animation")
        swap(&words, &other.words)
        swap(&indices, &other.indices)
        swap(&hasTransparency, &other.hasTransparency)
        swap(&quantization, &other.quantization)
        swap(&rect, &other.rect)
        swap(&first, &other.first)
        swap(&reservedTransparency, &other.reservedTransparency)
        swap(&global, &other.global)
    }
}

/// The global table as frame 0's preparation chose it, for the preparers of later frames.
final class GIFSharedPalette: Sendable {
    private let palette = Mutex<GIFGlobalPalette?>(nil)
    func publish(_ value: GIFGlobalPalette) { palette.withLock { $0 = value } }
    var value: GIFGlobalPalette? { palette.withLock { $0 } }
}

/// Does a GIF frame's palette work on the thread it is called from (see `GIFPreparedFrame`):
/// converts the frame (and the one before it) to source colours, finds the changed rectangle,
/// makes the histogram, chooses the table and maps the pixels with the chosen dithering. Made
/// by `GIFEncoder.makePreparer()`, one per thread (it keeps a quantizer, colour searches and a
/// frame of scratch, about 20 MB at 1080p, reused frame after frame). Frame 0 must be prepared
/// before any other frame (it chooses the global table the others use); the others in any
/// order, each from the frame before it.
public final class GIFFramePreparer {
    private let width: Int, height: Int
    private let options: GIFOptions
    private let quantizer: GIFFrameQuantizer
    private let shared: GIFSharedPalette
    /// The previous frame's source words.
    private let model: UnsafeMutablePointer<UInt32>

    init(width: Int, height: Int, options: GIFOptions, shared: GIFSharedPalette) {
        self.width = width
        self.height = height
        self.options = options
        self.shared = shared
        quantizer = GIFFrameQuantizer(width: width, options: options)
        model = .allocate(capacity: width * height)
    }

    deinit { model.deallocate() }

    /// Prepares `frame` (premultiplied RGBA8, the animation's size) into `prepared`: frame 0
    /// when `previous` is nil, else the frame after `previous`. `isLast`: whether it is the
    /// animation's last frame (frame 0 of a longer animation keeps a transparent entry in the
    /// global table).
    public func prepare(_ frame: Pixmap, previous: Pixmap?, isLast: Bool,
                        into prepared: GIFPreparedFrame) throws(ImageCodecError) {
        try ImageCodecError.checkFrame(frame, width: width, height: height, of: "GIF")
        if let previous { try ImageCodecError.checkFrame(previous, width: width, height: height, of: "GIF") }
        guard prepared.width == width, prepared.height == height else {
            throw ImageCodecError(file: nil, reason: .misuse(
                "a prepared frame of \(prepared.width)×\(prepared.height) for a \(width)×\(height) GIF"))
        }
        prepared.hasTransparency = GIFFrameCoder.convert(frame, alpha: options.alpha, into: prepared.words)
        prepared.quantization = nil
        let first = previous == nil
        let rect: GIFRect
        if let previous {
            _ = GIFFrameCoder.convert(previous, alpha: options.alpha, into: model)
            rect = GIFFrameCoder.changedRect(prepared.words, model, width: width, height: height)
            if rect.isEmpty { return }
        } else {
            model.update(repeating: 0, count: width * height)
            rect = GIFRect(x: 0, y: 0, width: width, height: height)
        }
        if !first && options.palette != .perFrame {
            guard let global = shared.value else {
                throw ImageCodecError(file: nil, reason: .misuse("GIF frame 0 must be prepared before the others"))
            }
            quantizer.useGlobal(global)
        }
        let quantization = quantizer.quantize(prepared.words, shownSource: model, rect: rect, first: first,
                                              reserveTransparency: !isLast, disposal2: false, into: prepared.indices)
        if let made = quantization.madeGlobal { shared.publish(made) }
        prepared.quantization = quantization
        prepared.rect = rect
        prepared.first = first
        prepared.reservedTransparency = !isLast
        prepared.global = quantizer.global
    }
}

extension GIFEncoder: PreparingAnimationEncoder {
    /// Frame 0 chooses the global table the other frames' preparation uses.
    public static var preparesFirstFrameFirst: Bool { true }

    /// A preparer for this encoder's frames: one per thread.
    public func makePreparer() throws(ImageCodecError) -> GIFFramePreparer {
        GIFFramePreparer(width: width, height: height, options: options, shared: sharedPalette)
    }

    /// Storage for a prepared frame (reusable once appended).
    public func makePreparedFrame() -> GIFPreparedFrame { GIFPreparedFrame(width: width, height: height) }
}

extension GIFFramePreparer: AnimationFramePreparer {}
