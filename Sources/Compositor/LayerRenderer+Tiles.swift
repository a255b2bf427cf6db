import QuartzCore
import Raster

/// CATiledLayer: drawn content made tile by tile at a level of detail, only where it can be seen
/// (see `CATiledLayer` for the rules). The visible tiles are assembled, at whole-pixel offsets
/// of the level's grid, into one bitmap covering just them, which is then composited like a
/// backing store — so adjacent tiles meet without seams, and nothing outside the visible tiles
/// is ever allocated or drawn.
extension LayerRenderer {
    /// One tiled layer's tiles at one level, size and tile size.
    final class TileStore {
        struct Index: Hashable { let x: Int, y: Int }
        /// What the tiles were drawn for; any change drops them.
        struct Setting: Equatable { let owner: UInt64, size: CGSize, level: CGFloat, tile: CGSize }
        let setting: Setting
        weak var layer: CALayer?
        var tiles: [Index: Pixmap] = [:]
        /// The last assembled bitmap and the tile range it covers.
        var assembled: (range: TileRange, pixmap: Pixmap)?

        init(_ setting: Setting, layer: CALayer) { self.setting = setting; self.layer = layer }
    }

    struct TileRange: Equatable { let x0: Int, y0: Int, x1: Int, y1: Int }

    /// Draws `model`'s visible tiles under `transform` (layer → canvas) inside `clip` (the rounded
    /// bounds with masksToBounds) or the visible tiles' area.
    func drawTiles(_ model: CATiledLayer, _ p: CALayer, transform: Transform, clip: Path?, into canvas: Pixmap) {
        let b = p.bounds
        guard b.width > 0, b.height > 0, let ppp = LayerRenderer.pixelsPerPoint(transform),
              let inverse = transform.inverted() else { return }
        let level = model._levelScale(forPixelsPerPoint: CGFloat(ppp))
        let tw = Int(min(4096, max(1, model.tileSize.width.isFinite ? model.tileSize.width : 256)))
        let th = Int(min(4096, max(1, model.tileSize.height.isFinite ? model.tileSize.height : 256)))
        let setting = TileStore.Setting(owner: model._serial, size: b.size, level: level,
                                        tile: CGSize(width: tw, height: th))
        let id = ObjectIdentifier(model)
        if model.needsDisplay() || tileStores[id]?.setting != setting {
            model.display()
            tileStores[id] = TileStore(setting, layer: model)
        }
        guard let store = tileStores[id], let range = visibleTiles(b, inverse: inverse, canvas: canvas, level: level, tw: tw, th: th)
        else { return }
        let assembled: Pixmap
        if let last = store.assembled, last.range == range { assembled = last.pixmap } else {
            guard let fresh = assemble(model, store: store, range: range, bounds: b, level: level, tw: tw, th: th) else { return }
            assembled = fresh
            store.assembled = (range, fresh)
        }
        // Assembled pixel → layer point → canvas.
        let originX = Double(b.minX) + Double(range.x0 * tw) / Double(level)
        let originY = Double(b.minY) + Double(range.y0 * th) / Double(level)
        let toLayer = Transform(a: 1 / Double(level), b: 0, c: 0, d: 1 / Double(level), tx: originX, ty: originY)
        let pattern = ImagePattern(image: assembled, transform: toLayer.concatenating(transform), filter: .bilinear, spread: .decal)
        let area = Rect(x: originX, y: originY, width: Double(assembled.width) / Double(level),
                        height: Double(assembled.height) / Double(level))
        canvas.fill(clip ?? Path(rect: area), paint: Paint(shader: .image(pattern)), transform: transform)
    }

    /// The tiles whose rectangles meet the part of the bounds that lands on the canvas.
    private func visibleTiles(_ b: CGRect, inverse: Transform, canvas: Pixmap, level: CGFloat, tw: Int, th: Int) -> TileRange? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(0.0, 0.0), (Double(canvas.width), 0), (0, Double(canvas.height)), (Double(canvas.width), Double(canvas.height))] {
            let q = inverse.apply(Point(x: x, y: y))
            minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
        }
        let x0 = max(minX, Double(b.minX)), x1 = min(maxX, Double(b.maxX))
        let y0 = max(minY, Double(b.minY)), y1 = min(maxY, Double(b.maxY))
        guard x1 > x0, y1 > y0 else { return nil }
        let sx = Double(level) / Double(tw), sy = Double(level) / Double(th)
        // Tile indices clamped to 0…Int32.max: finite bounds may still be 1e300.
        func index(_ v: Double) -> Int { Int(clamping: v, to: 0...Int(Int32.max)) }
        let lastX = index((Double(b.width) * sx).rounded(.up)), lastY = index((Double(b.height) * sy).rounded(.up))
        return TileRange(x0: index(((x0 - Double(b.minX)) * sx).rounded(.down)),
                         y0: index(((y0 - Double(b.minY)) * sy).rounded(.down)),
                         x1: min(lastX, index(((x1 - Double(b.minX)) * sx).rounded(.up))),
                         y1: min(lastY, index(((y1 - Double(b.minY)) * sy).rounded(.up))))
    }

    /// The tiles of `range` (drawn where missing) side by side in one bitmap; the store then
    /// keeps only them.
    private func assemble(_ model: CATiledLayer, store: TileStore, range: TileRange, bounds b: CGRect, level: CGFloat,
                          tw: Int, th: Int) -> Pixmap? {
        let fullW = Int(clamping: Double((b.width * level).rounded(.up)), to: 0...Int(Int32.max) * tw)
        let fullH = Int(clamping: Double((b.height * level).rounded(.up)), to: 0...Int(Int32.max) * th)
        let w = min(fullW, range.x1 * tw) - range.x0 * tw, h = min(fullH, range.y1 * th) - range.y0 * th
        guard w > 0, h > 0, let out = try? Pixmap(width: w, height: h) else { return nil }
        var kept: [TileStore.Index: Pixmap] = [:]
        for j in range.y0..<range.y1 {
            for i in range.x0..<range.x1 {
                let index = TileStore.Index(x: i, y: j)
                let pw = min(tw, fullW - i * tw), ph = min(th, fullH - j * th)
                guard pw > 0, ph > 0 else { continue }
                guard let tile = store.tiles[index] ?? drawTile(model, i, j, bounds: b, level: level, tw: tw, th: th,
                                                                 pixels: (pw, ph)) else { continue }
                kept[index] = tile
                out.draw(tile, atX: (i - range.x0) * tw, y: (j - range.y0) * th)
            }
        }
        store.tiles = kept
        return out
    }

    /// Tile (i, j): `draw(in:)` with the tile's rectangle as the clip, the CTM mapping layer points
    /// to the tile's pixels at `level` pixels per point.
    private func drawTile(_ model: CATiledLayer, _ i: Int, _ j: Int, bounds b: CGRect, level: CGFloat, tw: Int, th: Int,
                          pixels: (Int, Int)) -> Pixmap? {
        guard let tile = try? Pixmap(width: pixels.0, height: pixels.1) else { return nil }
        let rect = CGRect(x: b.minX + CGFloat(i * tw) / level, y: b.minY + CGFloat(j * th) / level,
                          width: CGFloat(pixels.0) / level, height: CGFloat(pixels.1) / level)
        let ctx = CGContext(pixmap: tile, origin: .topLeft, scale: level)
        ctx.translateBy(x: -rect.minX, y: -rect.minY)
        ctx.clip(to: rect)
        model.draw(in: ctx)
        return tile
    }
}
