#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

/// One frame as the container writes it: rectangle, colour table, indices, disposal.
struct GIFCodedFrame {
    var rect: GIFRect
    /// The local colour table's colours (nil: the frame uses the global table).
    var localPalette: [UInt32]?
    /// Entries of the table the indices refer to (a power of two, 2…256).
    var tableSize: Int
    var transparentIndex: Int?
    /// 1 (do not dispose) or 2 (restore the rectangle to transparent after the frame).
    var disposal: UInt8
    /// `rect.area` indices, row-major (storage owned by the coder, valid until the next frame).
    var indices: UnsafeBufferPointer<UInt8>
}

/// Codes frames against a model of what a viewer displays.
///
/// The model holds, per pixel, the colour displayed (`shown`) and the source colour it stands
/// for (`shownSource`; 0 = transparent). A frame writes only its changed pixels — those whose
/// source colour differs from `shownSource` — inside their bounding rectangle; every other
/// pixel of the rectangle is the transparent index, which keeps what is displayed and which LZW
/// compresses to almost nothing. Since an unchanged pixel is never re-coded, static areas keep
/// their first indices whatever the dithering or palette of later frames (no crawl).
///
/// GIF cannot make a displayed pixel transparent again except by disposal: when the next frame
/// is transparent where this one is opaque, this frame gets disposal 2 (restore to background,
/// which browsers and Pillow show as transparent) and its rectangle grows to cover those
/// pixels; after it the model is cleared in the rectangle, so the next frame redraws what stays
/// opaque there. Otherwise disposal is 1 (do not dispose). Frame 0 covers the whole canvas, so
/// a viewer starting a new loop from a cleared canvas shows it right.
final class GIFFrameCoder {
    let width: Int
    let height: Int
    let options: GIFOptions
    /// Ordered dithering spans this fraction of the palette's median nearest-neighbour spacing.
    static let orderedStrength: Float = 0.75
    /// Error diffusion passes on at most this many levels per channel and pixel.
    static let diffusionLimit: Int32 = 24

    private let shown: UnsafeMutablePointer<UInt32>
    private let shownSource: UnsafeMutablePointer<UInt32>
    private let indices: UnsafeMutablePointer<UInt8>
    /// The palette work of frames not prepared ahead (or whose preparation does not hold).
    private let quantizer: GIFFrameQuantizer
    /// The colours of the table being committed, opaque (index → word).
    private let tableColors: UnsafeMutablePointer<UInt32>
    /// The global table, set by the first frame under `.automatic` and `.global`.
    private(set) var global: GIFGlobalPalette?
    /// The global table as written (colours, then the transparent entry if any).
    var globalPalette: [UInt32]? { global?.table }
    private(set) var framesCoded = 0
    /// Of the frames coded: how many used a local table, and how many used the palette work of
    /// a `GIFFramePreparer` (the rest were quantized here).
    private(set) var localTables = 0
    private(set) var preparedFramesUsed = 0

    init(width: Int, height: Int, options: GIFOptions) {
        self.width = width
        self.height = height
        self.options = options
        let count = width * height
        shown = .allocate(capacity: count)
        shown.initialize(repeating: 0, count: count)
        shownSource = .allocate(capacity: count)
        shownSource.initialize(repeating: 0, count: count)
        indices = .allocate(capacity: count)
        quantizer = GIFFrameQuantizer(width: width, options: options)
        tableColors = .allocate(capacity: 256)
        tableColors.initialize(repeating: 0, count: 256)
    }

    deinit {
        shown.deallocate(); shownSource.deallocate(); indices.deallocate(); tableColors.deallocate()
    }

    // MARK: - Source conversion

    /// Converts a premultiplied frame into source words (opaque straight colour, or 0 for a
    /// transparent pixel) per `alpha`; returns whether any pixel is transparent.
    static func convert(_ pixmap: Pixmap, alpha: GIFAlphaHandling, into target: UnsafeMutablePointer<UInt32>) -> Bool {
        let source = pixmap.words
        let count = pixmap.width * pixmap.height
        var transparent = false
        // Opaque pixels are copied eight at a time; the loops below see the rest.
        let opaque = SIMD8<UInt32>(repeating: 0xFF00_0000)
        var i = 0
        func copyOpaque() {
            while i &+ 8 <= count {
                let v = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<UInt32>.self)
                if any(v & opaque .!= opaque) { return }
                UnsafeMutableRawPointer(target + i).storeBytes(of: v, as: SIMD8<UInt32>.self)
                i &+= 8
            }
        }
        switch alpha {
        case let .threshold(cut):
            let cut = UInt32(cut)
            while i < count {
                copyOpaque()
                guard i < count else { break }
                defer { i &+= 1 }
                let w = source[i], a = w >> 24
                if a == 255 { target[i] = w; continue }
                if a < cut { target[i] = 0; transparent = true; continue }
                if a == 0 { target[i] = 0xFF00_0000; continue }
                let half = a / 2
                let r = min(255, ((w & 0xFF) &* 255 &+ half) / a)
                let g = min(255, ((w >> 8 & 0xFF) &* 255 &+ half) / a)
                let b = min(255, ((w >> 16 & 0xFF) &* 255 &+ half) / a)
                target[i] = r | g << 8 | b << 16 | 0xFF00_0000
            }
        case let .matte(mr, mg, mb):
            let m = (UInt32(mr), UInt32(mg), UInt32(mb))
            while i < count {
                copyOpaque()
                guard i < count else { break }
                defer { i &+= 1 }
                let w = source[i], a = w >> 24
                if a == 255 { target[i] = w; continue }
                let rest = 255 &- a
                let r = min(255, (w & 0xFF) &+ (m.0 &* rest &+ 127) / 255)
                let g = min(255, (w >> 8 & 0xFF) &+ (m.1 &* rest &+ 127) / 255)
                let b = min(255, (w >> 16 & 0xFF) &+ (m.2 &* rest &+ 127) / 255)
                target[i] = r | g << 8 | b << 16 | 0xFF00_0000
            }
        }
        return transparent
    }

    // MARK: - Coding

    /// Codes `source` (converted words). `next` is the next frame that will be coded, or nil
    /// for the last; it decides this frame's disposal. `ahead`: the frame's palette work done
    /// by a preparer against the words of the frame before it, which the caller has checked
    /// are what the model holds; it is used when its rectangle and assumptions (disposal 1;
    /// for the first frame, a transparent entry kept or not as here) are the coder's, else the
    /// work is done again here — the indices are the same either way.
    func code(_ source: UnsafeMutablePointer<UInt32>, next: UnsafePointer<UInt32>?, nextHasTransparency: Bool,
              ahead: GIFPreparedFrame? = nil) -> GIFCodedFrame {
        let first = framesCoded == 0
        framesCoded += 1
        let changed = changedRect(source)
        var clear = GIFRect.empty
        if let next, nextHasTransparency { clear = clearRect(source, next) }
        let disposal: UInt8 = clear.isEmpty ? 1 : 2
        var rect = first ? GIFRect(x: 0, y: 0, width: width, height: height) : changed.union(clear)
        if changed.isEmpty && !first {
            // Nothing to draw (only disposal, or pixels cleared by the previous frame's).
            if rect.isEmpty { rect = GIFRect(x: 0, y: 0, width: 1, height: 1) }
            return filler(rect, disposal: disposal, updatingModel: true)
        }

        let quantization: GIFQuantization
        let frameIndices: UnsafeMutablePointer<UInt8>
        if let ahead, let done = ahead.quantization, ahead.rect == rect, ahead.first == first, disposal == 1,
           !first || ahead.reservedTransparency == (next != nil), first || ahead.global == global {
            quantization = done
            frameIndices = ahead.indices
            preparedFramesUsed += 1
        } else {
            if let global { quantizer.useGlobal(global) }
            quantization = quantizer.quantize(source, shownSource: shownSource, rect: rect, first: first,
                                              reserveTransparency: next != nil, disposal2: disposal == 2, into: indices)
            frameIndices = indices
        }
        if let made = quantization.madeGlobal { global = made }
        let local = quantization.localPalette
        if local != nil { localTables += 1 }
        commit(source, rect: rect, indices: frameIndices, colors: local ?? global!.colors,
               transparentIndex: quantization.transparentIndex)
        if disposal == 2 { clearModel(rect) }
        return GIFCodedFrame(rect: rect, localPalette: local.map { $0 + (quantization.transparentIndex != nil ? [0] : []) },
                             tableSize: quantization.tableSize, transparentIndex: quantization.transparentIndex,
                             disposal: disposal, indices: UnsafeBufferPointer(start: frameIndices, count: rect.area))
    }

    /// Records the frame in the canvas model: every changed pixel (source ≠ `shownSource`) of
    /// `rect` now stands for its source colour and shows its table colour — unless that colour
    /// is already displayed there and the table has a transparent entry, in which case its
    /// index becomes the transparent one (keeping the display as it is, which LZW codes
    /// cheaper).
    private func commit(_ source: UnsafePointer<UInt32>, rect: GIFRect, indices: UnsafeMutablePointer<UInt8>,
                        colors: [UInt32], transparentIndex: Int?) {
        for (i, c) in colors.enumerated() { tableColors[i] = c | 0xFF00_0000 }
        let transparent = transparentIndex ?? -1
        for y in 0..<rect.height {
            let row = (rect.y + y) * width + rect.x
            let out = indices + y * rect.width
            GIFRows.forEachChanged(source + row, shownSource + row, count: rect.width) { x in
                let i = row &+ x
                shownSource[i] = source[i]
                let color = tableColors[Int(out[x])]
                if transparent >= 0 && shown[i] == color {
                    out[x] = UInt8(truncatingIfNeeded: transparent)
                } else {
                    shown[i] = color
                }
            }
        }
    }

    /// A frame that draws nothing over `rect`: every index transparent, a two-entry local table.
    /// With `updatingModel`, a disposal 2 clears the rectangle in the model (a frame being coded);
    /// without, the model is left alone (an extra frame continuing a long delay, written after
    /// later frames were coded). Uses the index buffer: call it after the last frame's indices
    /// were LZW-coded.
    func filler(_ rect: GIFRect, disposal: UInt8, updatingModel: Bool) -> GIFCodedFrame {
        indices.update(repeating: 1, count: rect.area)
        if updatingModel && disposal == 2 { clearModel(rect) }
        return GIFCodedFrame(rect: rect, localPalette: [0xFF00_0000, 0], tableSize: 2, transparentIndex: 1,
                             disposal: disposal, indices: UnsafeBufferPointer(start: indices, count: rect.area))
    }

    /// The bounding rectangle of the pixels whose source differs from `shownSource`.
    private func changedRect(_ source: UnsafeMutablePointer<UInt32>) -> GIFRect {
        Self.changedRect(source, shownSource, width: width, height: height)
    }

    /// The bounding rectangle of the pixels where `source` and `model` (both `width`×`height`
    /// words) differ; empty when they are equal.
    static func changedRect(_ source: UnsafePointer<UInt32>, _ model: UnsafePointer<UInt32>, width: Int, height: Int) -> GIFRect {
        var minX = width, maxX = -1, minY = -1, maxY = -1
        for y in 0..<height {
            let row = source + y * width, modelRow = model + y * width
            if memcmp(row, modelRow, width * 4) == 0 { continue }
            if minY < 0 { minY = y }
            maxY = y
            var x = 0
            while x < minX && row[x] == modelRow[x] { x += 1 }
            if x < minX { minX = x }
            x = width - 1
            while x > maxX && row[x] == modelRow[x] { x -= 1 }
            if x > maxX { maxX = x }
        }
        guard minY >= 0 else { return .empty }
        return GIFRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The bounding rectangle of the pixels opaque in `source` and transparent in `next`.
    private func clearRect(_ source: UnsafeMutablePointer<UInt32>, _ next: UnsafePointer<UInt32>) -> GIFRect {
        var minX = width, maxX = -1, minY = -1, maxY = -1
        for y in 0..<height {
            let row = source + y * width, following = next + y * width
            var x0 = -1, x1 = -1
            for x in 0..<width where row[x] != 0 && following[x] == 0 {
                if x0 < 0 { x0 = x }
                x1 = x
            }
            if x0 < 0 { continue }
            if minY < 0 { minY = y }
            maxY = y
            minX = min(minX, x0)
            maxX = max(maxX, x1)
        }
        guard minY >= 0 else { return .empty }
        return GIFRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// Records that `rect` is restored to transparent.
    private func clearModel(_ rect: GIFRect) {
        for y in rect.y..<(rect.y + rect.height) {
            let offset = y * width + rect.x
            (shown + offset).update(repeating: 0, count: rect.width)
            (shownSource + offset).update(repeating: 0, count: rect.width)
        }
    }

    /// The smallest GIF table size (a power of two, at least 2) holding `entries`.
    static func tableSize(_ entries: Int) -> Int {
        var size = 2
        while size < entries { size *= 2 }
        return size
    }

    /// The median distance from each colour to its nearest other colour (0 for one colour).
    static func medianSpacing(_ colors: [UInt32]) -> Float {
        guard colors.count > 1 else { return 0 }
        var nearest = [Float](repeating: 0, count: colors.count)
        for i in colors.indices {
            var best = Int32.max
            let a = colors[i]
            for j in colors.indices where j != i {
                let b = colors[j]
                let dr = Int32(a & 0xFF) - Int32(b & 0xFF)
                let dg = Int32(a >> 8 & 0xFF) - Int32(b >> 8 & 0xFF)
                let db = Int32(a >> 16 & 0xFF) - Int32(b >> 16 & 0xFF)
                best = min(best, dr * dr + dg * dg + db * db)
            }
            nearest[i] = Float(best).squareRoot()
        }
        nearest.sort()
        return nearest[nearest.count / 2]
    }
}

