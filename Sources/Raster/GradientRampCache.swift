/// The gradient tables a pixmap's draws used last, so that a gradient drawn again (every frame of
/// an animation, every row band of a layer) reuses its table instead of building and allocating
/// a new one. Keyed by the stops and the spread mode, compared by value (equal stops make equal
/// tables); the eight most recently built are kept, the oldest replaced first. One per pixmap
/// (`PaintScratch`), used from the thread drawing into it.
final class GradientRampCache {
    /// How many tables are kept (each 1 KB).
    static let capacity = 8
    private var entries: [(stops: [GradientStop], ramp: GradientRamp)] = []
    /// The entry replaced next once the cache is full.
    private var next = 0

    /// The table of `stops` with `spread`: a kept one, or a new one, then kept.
    func ramp(_ stops: [GradientStop], spread: SpreadMode) -> GradientRamp {
        for entry in entries where entry.ramp.spread == spread && entry.stops == stops { return entry.ramp }
        let made = GradientRamp(stops, spread: spread)
        if entries.count < GradientRampCache.capacity {
            entries.append((stops, made))
        } else {
            entries[next] = (stops, made)
            next = (next + 1) % GradientRampCache.capacity
        }
        return made
    }
}
