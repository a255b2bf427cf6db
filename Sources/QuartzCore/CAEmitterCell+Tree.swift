/// The tree of an emitter's cells as the emitter reads it: a cell's `emitterCells`
/// may nest as deep, and list a cell as often, as a caller likes (cycles are refused when they
/// are set), so every walk of an emitter's cells — the simulation's plans, the birth values'
/// reach and copies, the sprite looks — reads them through `readableCells`: the cells
/// themselves when the tree is within `maxNesting` levels and `maxCells` cells, counted as
/// listed (a cell listed twice is emitted twice, as on Apple), else a copy cut there, parents
/// first, in order. Apple documents no limit; its nested emitters are a few levels deep.
extension CAEmitterCell {
    /// Levels of cells an emitter reads, its own cells being the first: 16.
    public static let maxNesting = 16
    /// Cells an emitter reads in all, counted as listed: 4 096.
    public static let maxCells = 4_096

    /// `cells` if their tree is within the limits, else a copy cut at them (said once per
    /// process on standard error).
    static func readable(_ cells: [CAEmitterCell]?) -> [CAEmitterCell]? {
        guard let cells, !isWithinLimits(cells) else { return cells }
        reportCut()
        var budget = maxCells
        return copies(of: cells, levelsLeft: maxNesting, budget: &budget)
    }

    /// Whether the tree below `cells` has at most `maxNesting` levels and `maxCells` cells: a
    /// recursion no deeper than `maxNesting`, allocating nothing (the emitter asks every frame).
    private static func isWithinLimits(_ cells: [CAEmitterCell]) -> Bool {
        var count = 0
        func fits(_ cells: [CAEmitterCell], level: Int) -> Bool {
            for cell in cells {
                count += 1
                guard count <= maxCells else { return false }
                guard let subs = cell.emitterCells, !subs.isEmpty else { continue }
                guard level < maxNesting, fits(subs, level: level + 1) else { return false }
            }
            return true
        }
        return fits(cells, level: 1)
    }

    /// Copies of `cells` and their sub-cells, parents first, while `levelsLeft` and `budget` last.
    private static func copies(of cells: [CAEmitterCell], levelsLeft: Int, budget: inout Int) -> [CAEmitterCell] {
        var out: [CAEmitterCell] = []
        for cell in cells where budget > 0 {
            budget -= 1
            let copy = cell.copyWithoutCells()
            if levelsLeft > 1, let subs = cell.emitterCells {
                copy.emitterCells = copies(of: subs, levelsLeft: levelsLeft - 1, budget: &budget)
            }
            out.append(copy)
        }
        return out
    }

    private static let cut = _OnceDiagnostic()

    private static func reportCut() {
        cut.say("Citrine: an emitter's cells nest deeper than \(maxNesting) levels or number more than \(maxCells); "
            + "the cells past that are not emitted (README: Limits)")
    }

    /// Gives up the sub-cell tree without recursion (from `deinit`, `_releaseTreeIteratively`).
    func releaseCellsIteratively() {
        _releaseTreeIteratively(below: self) { cell in
            defer { cell.emitterCells = nil }
            return cell.emitterCells ?? []
        }
    }
}

extension CAEmitterLayer {
    /// The cells as the emitter reads them (`CAEmitterCell.readable`).
    var readableCells: [CAEmitterCell]? { CAEmitterCell.readable(emitterCells) }
}
