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
    private let errors: UnsafeMutablePointer<Int32>
    private let quantizer = GIFQuantizer()
    private let globalSearch = GIFPaletteSearch()
    private let localSearch = GIFPaletteSearch()
    private var globalSpacing: Float = 0
    /// The global table (colours, then the transparent entry if any), set by the first frame
    /// under `.automatic` and `.global`.
    private(set) var globalPalette: [UInt32]?
    private(set) var globalTransparentIndex: Int?
    private(set) var framesCoded = 0
    /// Of the frames coded: how many used a local table.
    private(set) var localTables = 0

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
        errors = .allocate(capacity: 6 * (width + 2))
    }

    deinit {
        shown.deallocate(); shownSource.deallocate(); indices.deallocate(); errors.deallocate()
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
    /// for the last; it decides this frame's disposal.
    func code(_ source: UnsafeMutablePointer<UInt32>, next: UnsafePointer<UInt32>?, nextHasTransparency: Bool) -> GIFCodedFrame {
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

        quantizer.reset()
        var changedCount = 0
        for y in rect.y..<(rect.y + rect.height) {
            let offset = y * width + rect.x
            changedCount += quantizer.add(row: source + offset, shown: shownSource + offset, count: rect.width)
        }
        quantizer.finishHistogram()
        let needsTransparency = changedCount < rect.area || disposal == 2

        // Choose the table.
        var local: [UInt32]? = nil
        var search = globalSearch
        var exact: Bool
        var spacing = globalSpacing
        let usesGlobal = options.palette != .perFrame
        if first && usesGlobal {
            // The global table keeps a transparent entry whenever frames may follow.
            let reserve = needsTransparency || next != nil
            var colors = quantizer.makePalette(maxColors: reserve ? 255 : 256)
            exact = quantizer.fitsExactly(colors.count)
            if colors.isEmpty { colors = [0xFF00_0000] }
            globalSearch.load(colors)
            globalSpacing = Self.medianSpacing(colors)
            spacing = globalSpacing
            globalTransparentIndex = reserve ? colors.count : nil
            globalPalette = colors + (reserve ? [0] : [])
        } else {
            let globalFits = usesGlobal && (!needsTransparency || globalTransparentIndex != nil)
            let globalError = globalFits ? quantizer.squaredError(of: globalSearch) : .infinity
            exact = globalError == 0
            let slack = Double(changedCount)
            if options.palette == .global && globalFits {
                // Keep the global table.
            } else if options.palette == .automatic && globalError <= slack {
                // The global table is within a level of anything better.
            } else {
                // The median cut's error stands for the local table's (k-means would lower it a
                // little): k-means runs only for a table that is written.
                let candidate = quantizer.candidatePalette(maxColors: needsTransparency ? 255 : 256)
                if options.palette == .automatic && globalError <= 1.122 * candidate.error + slack {
                    // Within 0.5 dB (+ one level² per pixel) of a local table: keep the global one.
                } else {
                    var colors = quantizer.finishPalette(candidate.centres, exact: candidate.exact)
                    if colors.isEmpty { colors = [0xFF00_0000] }
                    localSearch.load(colors)
                    local = colors
                    search = localSearch
                    exact = candidate.exact
                    spacing = Self.medianSpacing(colors)
                }
            }
        }
        if local != nil { localTables += 1 }

        let transparentIndex: Int?
        let tableSize: Int
        if let local {
            transparentIndex = needsTransparency ? local.count : nil
            tableSize = Self.tableSize(local.count + (needsTransparency ? 1 : 0))
        } else {
            transparentIndex = globalTransparentIndex
            tableSize = Self.tableSize(globalPalette?.count ?? 2)
        }

        let mapping = GIFFrameMapping(source: source, shownSource: shownSource, shown: shown, canvasWidth: width,
                                      rect: rect, indices: indices, search: search,
                                      transparentIndex: transparentIndex ?? -1)
        switch exact ? .none : options.dithering {
        case .none: mapping.mapNearest()
        case .ordered: mapping.mapOrdered(amplitude: Int32((spacing * Self.orderedStrength).rounded()))
        case .diffusion: mapping.mapDiffusion(errorLimit: Self.diffusionLimit, errors: errors)
        }
        if disposal == 2 { clearModel(rect) }
        return GIFCodedFrame(rect: rect, localPalette: local.map { $0 + (needsTransparency ? [0] : []) },
                             tableSize: tableSize, transparentIndex: transparentIndex, disposal: disposal,
                             indices: UnsafeBufferPointer(start: indices, count: rect.area))
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
        var minX = width, maxX = -1, minY = -1, maxY = -1
        for y in 0..<height {
            let row = source + y * width, model = shownSource + y * width
            if memcmp(row, model, width * 4) == 0 { continue }
            if minY < 0 { minY = y }
            maxY = y
            var x = 0
            while x < minX && row[x] == model[x] { x += 1 }
            if x < minX { minX = x }
            x = width - 1
            while x > maxX && row[x] == model[x] { x -= 1 }
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

