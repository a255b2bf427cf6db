import CKernels
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors the pixel engine reports instead of crashing.
public enum RasterError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A canvas or image size that is negative, zero where not allowed, or beyond the limits.
    case invalidSize(width: Int, height: Int, reason: String)

    public var description: String {
        switch self {
        case let .invalidSize(w, h, reason): return "invalid pixmap size \(w)×\(h): \(reason)"
        }
    }
}

/// A premultiplied RGBA8 sRGB pixel buffer: row-major, origin top-left, 4 bytes per pixel in
/// the order R, G, B, A, rows packed (`bytesPerRow == width * 4`). Allocated once, zeroed
/// (transparent black), freed with the object. Reused across frames by its owner.
///
/// Size limits: each side at most `maxDimension`, area at most `maxPixelCount`; larger
/// requests throw `RasterError.invalidSize` rather than exhausting memory.
public final class Pixmap: @unchecked Sendable {
    /// Largest width or height accepted (pixels).
    public static let maxDimension = 32_768
    /// Largest area accepted (pixels): 2^28, i.e. 1 GiB of RGBA8.
    public static let maxPixelCount = 1 << 28

    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (always `width * 4`).
    @inlinable public var bytesPerRow: Int { width &* 4 }
    /// The bytes, `height * bytesPerRow` of them.
    public let pixels: UnsafeMutablePointer<UInt8>
    /// The rows drawing may change: every row, except in a band of another pixmap
    /// (`init(band:of:)`). Drawing computes every shape, image and texture exactly as it would
    /// for the whole pixmap and writes only these rows, so bands drawn one by one, in any order
    /// or on several threads, leave the same bytes as one draw of the whole.
    public private(set) var drawableRows: Range<Int>
    /// The pixmap whose bytes a band or a pixmap made `reusing` another shares (kept alive by it;
    /// nil when this pixmap owns its bytes).
    private let bandOwner: Pixmap?
    /// Scan-conversion buffers reused by every draw into this pixmap (a pixmap is drawn into
    /// from one thread at a time); made at the first draw.
    var rasterizer: Rasterizer {
        if let made = scratch.rasterizer { return made }
        let made = Rasterizer()
        scratch.rasterizer = made
        return made
    }
    /// Row buffers reused by every paint into this pixmap; made at the first paint.
    var paintScratch: PaintScratch {
        if let made = scratch.paint { return made }
        let made = PaintScratch()
        scratch.paint = made
        return made
    }
    private(set) var scratch: (rasterizer: Rasterizer?, paint: PaintScratch?) = (nil, nil)

    /// Frees the buffers drawing into this pixmap left behind (about 3 KB for one never filled;
    /// after a fill, the rasterizer's cells of the largest area filled, 4 bytes a pixel up to
    /// 64 MiB (`Rasterizer.maxCells`), and up to 512 KB of kept edges), for a pixmap that is
    /// kept but no longer drawn into — a renderer's retained layer bitmaps (a million
    /// retained 1×1 layers kept gigabytes of them). A later draw makes them again.
    public func releaseDrawingScratch() { scratch = (nil, nil) }
    /// What drawing into a `width`×`height` pixmap adds to its pixels, in bytes, once it has
    /// been filled: the rasterizer's cells and row bounds (`Rasterizer.bytes`), and the paint
    /// rows and bookkeeping of a pixmap drawn into (`drawingBookkeepingBytes`). Kept edges (up
    /// to 512 KB, only after large fills) are not included.
    public static func drawingScratchBytes(width: Int, height: Int) -> Int {
        Rasterizer.bytes(width: width, height: height) &+ drawingBookkeepingBytes
    }
    /// The paint rows (`PaintScratch`: 1 280 bytes), the rasterizer's and paint scratch's objects
    /// and their allocations' headers, rounded up: about 3 KB measured for a pixmap drawn into
    /// once (see `releaseDrawingScratch`), counted as 4 KB.
    static let drawingBookkeepingBytes = 4096
    /// Takes `other`'s scan-conversion and paint buffers, leaving it none: a renderer that moves
    /// on to draw into this pixmap keeps the buffers it had grown (`CARenderer.retarget`).
    package func takeDrawingScratch(from other: Pixmap) {
        guard other !== self else { return }
        scratch = other.scratch
        other.scratch = (nil, nil)
    }
    /// Cached mipmap levels 1, 2, … (see `Pixmap+Mipmap.swift`), behind a lock: one image may
    /// be sampled by several threads at once (the bands of a frame).
    let mipLevels = Mutex<[Pixmap]>([])

    /// Largest pixmap (bytes) whose zeros `init(width:height:)` writes rather than leaves to
    /// calloc: 1 MiB, a 512 × 512 bitmap (layers' bitmaps; a 1080p frame is 8 MiB).
    static let writtenZerosLimit = 1 << 20

    /// A transparent pixmap. Zero-sized pixmaps are allowed (they draw nothing).
    public init(width: Int, height: Int) throws(RasterError) {
        try Pixmap.validate(width: width, height: height)
        self.width = width
        self.height = height
        let count = max(width * height * 4, 4)
        // Up to `writtenZerosLimit` bytes the zeros are written first: a layer's bitmap is drawn
        // right away, and drawing blends (reads a pixel, then writes it), so pages calloc left
        // untouched were mapped to the shared zero page by the read and copied at the write, each
        // copy flushing the other processors' address translations — with a storm of new turned
        // bitmaps on two threads, 9.4 % of band-bench's samples were in the kernel, 3.3 % once
        // written (`perf record`). aligned_alloc, not malloc: with malloc + memset the faults
        // stayed (the optimizer folds the pair back into calloc). Larger: calloc, whose zeros
        // come from the system as pages are first touched, so a buffer that is never drawn whole
        // (an export's spare frame buffer) costs no resident memory and no clearing pass.
        let allocated: UnsafeMutableRawPointer?
        if count <= Pixmap.writtenZerosLimit {
            let rounded = (count + 63) & ~63   // aligned_alloc: a multiple of the alignment
            allocated = aligned_alloc(64, rounded)
            if let allocated { memset(allocated, 0, rounded) }
        } else {
            allocated = calloc(count, 1)
        }
        guard let zeroed = allocated else {
            throw RasterError.invalidSize(width: width, height: height, reason: "cannot allocate \(count) bytes")
        }
        pixels = zeroed.assumingMemoryBound(to: UInt8.self)
        drawableRows = 0..<height
        bandOwner = nil
    }

    /// A view of `rows` of `frame` (clamped to its rows): the same size and bytes, with drawing
    /// limited to those rows (`drawableRows`) and its own scan-conversion and paint buffers, so
    /// that bands of one frame can be drawn on different threads at once. Only drawing that
    /// honours `drawableRows` may target a band: fills and strokes of paths, `draw(_:atX:y:)`,
    /// both `drawTexture`s and `drawSprite`; `fill(with:)`, filters and meshes change every row.
    package init(band rows: Range<Int>, of frame: Pixmap) {
        width = frame.width
        height = frame.height
        pixels = frame.pixels
        drawableRows = rows.clamped(to: 0..<frame.height)
        bandOwner = frame
    }

    /// A `width`×`height` pixmap over the first `width * height * 4` bytes of `storage`, which
    /// must hold at least that many (a renderer's damaged patches, drawn one after another into
    /// one buffer kept between frames). Its contents are whatever `storage` held.
    package init(width: Int, height: Int, reusing storage: Pixmap) {
        precondition(width >= 0 && height >= 0 && width * height <= storage.width * storage.height, "storage holds the pixels")
        self.width = width
        self.height = height
        pixels = storage.pixels
        drawableRows = 0..<height
        bandOwner = storage
    }

    /// Moves this band to `rows` of its frame (clamped to them), between two draws: a frame's
    /// bands are re-divided from frame to frame without making new views.
    package func moveBand(to rows: Range<Int>) {
        precondition(bandOwner != nil, "only a band of another pixmap moves")
        drawableRows = rows.clamped(to: 0..<height)
    }

    deinit { if bandOwner == nil { free(pixels) } }

    /// Throws unless `width`×`height` is within the limits.
    public static func validate(width: Int, height: Int) throws(RasterError) {
        guard width >= 0, height >= 0 else {
            throw .invalidSize(width: width, height: height, reason: "negative dimension")
        }
        guard width <= maxDimension, height <= maxDimension else {
            throw .invalidSize(width: width, height: height,
                               reason: "a side exceeds the limit of \(maxDimension) pixels")
        }
        guard width * height <= maxPixelCount else {
            throw .invalidSize(width: width, height: height,
                               reason: "area exceeds the limit of \(maxPixelCount) pixels")
        }
    }

    /// The 32-bit little-endian word view of the pixels (R in the low byte).
    @inlinable public var words: UnsafeMutablePointer<UInt32> {
        UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt32.self)
    }

    /// Overwrites every pixel with `color` (a band's: those of its `drawableRows`).
    public func fill(with color: PremultipliedColor) {
        let word = UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | UInt32(color.a) << 24
        Pixmap.fill(words + width * drawableRows.lowerBound, count: width * drawableRows.count, with: word)
    }

    /// Writes `word` into the `count` words from `start`: the AVX-512 or AVX2 loop where the
    /// processor has it (a plain store loop compiles to one word a store), else vector stores.
    static func fill(_ start: UnsafeMutablePointer<UInt32>, count: Int, with word: UInt32) {
        if count >= 16 && AVX2Kernels.isEnabled {
            if AVX512Kernels.isEnabled { citrine_fill_avx512(start, count, word) } else { citrine_fill_avx2(start, count, word) }
            return
        }
        // Sixteen words (four vector stores) per step, then the rest.
        let block = SIMD16<UInt32>(repeating: word)
        var p = start
        let blocksEnd = start + (count & ~15)
        while p < blocksEnd {
            UnsafeMutableRawPointer(p).storeBytes(of: block, as: SIMD16<UInt32>.self)
            p += 16
        }
        p.update(repeating: word, count: count & 15)
    }

    /// Whether every pixel is fully transparent (premultiplied: every byte is zero).
    public var isTransparent: Bool {
        let p = words, count = width * height
        // Sixteen words OR-ed at a time (a layer's drawn content is checked once per drawing).
        var i = 0
        while i &+ 16 <= count {
            let block = UnsafeRawPointer(p + i).loadUnaligned(as: SIMD16<UInt32>.self)
            if block != SIMD16<UInt32>() { return false }
            i &+= 16
        }
        while i < count {
            if p[i] != 0 { return false }
            i &+= 1
        }
        return true
    }

    /// The pixel at (x, y); transparent outside the pixmap.
    public func pixel(x: Int, y: Int) -> PremultipliedColor {
        guard x >= 0, y >= 0, x < width, y < height else { return .transparent }
        let p = pixels + (y * width + x) * 4
        return PremultipliedColor(r: p[0], g: p[1], b: p[2], a: p[3])
    }

    /// Sets the pixel at (x, y); ignored outside the pixmap.
    public func setPixel(x: Int, y: Int, _ c: PremultipliedColor) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let p = pixels + (y * width + x) * 4
        p[0] = c.r; p[1] = c.g; p[2] = c.b; p[3] = c.a
    }
}
