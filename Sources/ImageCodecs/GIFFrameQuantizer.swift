/// The global colour table, as the first frame chose it.
struct GIFGlobalPalette: Equatable {
    /// Its colours (opaque words), without the transparent entry.
    var colors: [UInt32]
    /// The transparent entry's index (`colors.count`), when the table has one.
    var transparentIndex: Int?
    /// `GIFFrameCoder.medianSpacing(colors)`: the ordered dither's span.
    var spacing: Float
    /// The table as written: the colours, then the transparent entry (black) if any.
    var table: [UInt32] { colors + (transparentIndex != nil ? [0] : []) }
}

/// How a frame's changed pixels were turned into indices: the table, and whether it is exact.
struct GIFQuantization {
    /// The local table's colours without the transparent entry (nil: the global table).
    var localPalette: [UInt32]?
    var transparentIndex: Int?
    /// Entries of the table the indices refer to (a power of two, 2…256).
    var tableSize: Int
    /// Made from frame 0 under `.automatic`/`.global`: the global table (then `localPalette` is nil).
    var madeGlobal: GIFGlobalPalette?
}

/// A frame's palette work, the part of coding a GIF frame that needs no more than the frame,
/// the canvas model's source colours before it (`shownSource`), its rectangle and disposal:
/// the histogram of the changed pixels, the choice of table (see `GIFPaletteStrategy`) and the
/// mapping to indices with the chosen dithering. What is displayed (`shown`) is not needed:
/// the indices are raw (every changed pixel gets its palette index; `GIFFrameCoder` then makes
/// those whose colour is already displayed transparent). Holds the quantizer, the colour
/// searches (global and local) and the diffusion scratch: one per thread, reused frame after
/// frame (`GIFFrameCoder` has one; so has each `GIFFramePreparer`). Deterministic: the same
/// inputs give the same indices on any instance (the searches are exact).
final class GIFFrameQuantizer {
    let width: Int
    let options: GIFOptions
    private let quantizer = GIFQuantizer()
    private let globalSearch = GIFPaletteSearch()
    private let localSearch = GIFPaletteSearch()
    private let errors: UnsafeMutablePointer<Int32>
    /// The global table loaded into `globalSearch`.
    private(set) var global: GIFGlobalPalette?

    init(width: Int, options: GIFOptions) {
        self.width = width
        self.options = options
        errors = .allocate(capacity: 6 * (width + 2))
    }

    deinit { errors.deallocate() }

    /// Uses `palette` as the global table from now on (loads it unless it is already).
    func useGlobal(_ palette: GIFGlobalPalette) {
        guard global != palette else { return }
        globalSearch.load(palette.colors)
        global = palette
    }

    /// Chooses the table for the pixels of `rect` whose colour in `source` differs from
    /// `shownSource` and writes `rect.area` raw indices to `indices` (unchanged pixels get the
    /// transparent index). `first`: the animation's first frame (which makes the global table
    /// under `.automatic`/`.global`, keeping a transparent entry when `reserve`);
    /// `disposal2`: the frame restores its rectangle (so it needs a transparent entry).
    func quantize(_ source: UnsafePointer<UInt32>, shownSource: UnsafePointer<UInt32>, rect: GIFRect, first: Bool,
                  reserveTransparency reserve: Bool, disposal2: Bool,
                  into indices: UnsafeMutablePointer<UInt8>) -> GIFQuantization {
        quantizer.reset()
        var changedCount = 0
        for y in rect.y..<(rect.y + rect.height) {
            let offset = y * width + rect.x
            changedCount += quantizer.add(row: source + offset, shown: shownSource + offset, count: rect.width)
        }
        quantizer.finishHistogram()
        let needsTransparency = changedCount < rect.area || disposal2

        var local: [UInt32]? = nil
        var madeGlobal: GIFGlobalPalette? = nil
        var search = globalSearch
        var exact: Bool
        var spacing = global?.spacing ?? 0
        let usesGlobal = options.palette != .perFrame
        if first && usesGlobal {
            // The global table keeps a transparent entry whenever frames may follow.
            let reserve = needsTransparency || reserve
            var colors = quantizer.makePalette(maxColors: reserve ? 255 : 256)
            exact = quantizer.fitsExactly(colors.count)
            if colors.isEmpty { colors = [0xFF00_0000] }
            let palette = GIFGlobalPalette(colors: colors, transparentIndex: reserve ? colors.count : nil,
                                           spacing: GIFFrameCoder.medianSpacing(colors))
            useGlobal(palette)
            madeGlobal = palette
            spacing = palette.spacing
        } else {
            let globalFits = usesGlobal && global != nil && (!needsTransparency || global?.transparentIndex != nil)
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
                    spacing = GIFFrameCoder.medianSpacing(colors)
                }
            }
        }

        let transparentIndex: Int?
        let tableSize: Int
        if let local {
            transparentIndex = needsTransparency ? local.count : nil
            tableSize = GIFFrameCoder.tableSize(local.count + (needsTransparency ? 1 : 0))
        } else {
            transparentIndex = global?.transparentIndex
            tableSize = GIFFrameCoder.tableSize(global.map { $0.colors.count + ($0.transparentIndex != nil ? 1 : 0) } ?? 2)
        }

        let mapping = GIFFrameMapping(source: source, shownSource: shownSource, canvasWidth: width, rect: rect,
                                      indices: indices, search: search, transparentIndex: transparentIndex ?? -1)
        switch exact ? .none : options.dithering {
        case .none: mapping.mapNearest()
        case .ordered: mapping.mapOrdered(amplitude: Int32((spacing * GIFFrameCoder.orderedStrength).rounded()))
        case .diffusion: mapping.mapDiffusion(errorLimit: GIFFrameCoder.diffusionLimit, errors: errors)
        }
        return GIFQuantization(localPalette: local, transparentIndex: transparentIndex, tableSize: tableSize,
                               madeGlobal: madeGlobal)
    }
}
