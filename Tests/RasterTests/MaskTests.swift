import Raster
import Testing

/// Clip masks: coverage written by `Mask.fill`, intersections, and draws through a mask.
struct MaskTests {
    @Test func maskCoverageAndIntersection() throws {
        let a = try Mask(width: 20, height: 10)
        a.fill(Path(rect: Rect(x: 0, y: 0, width: 10.5, height: 10)))
        #expect(a.value(x: 9, y: 5) == 255 && a.value(x: 10, y: 5) == 128 && a.value(x: 11, y: 5) == 0)
        let b = try Mask(width: 20, height: 10)
        b.fill(Path(rect: Rect(x: 5, y: 0, width: 15, height: 10)))
        a.intersect(b)
        #expect(a.value(x: 4, y: 5) == 0 && a.value(x: 7, y: 5) == 255 && a.value(x: 10, y: 5) == 128)
    }

    @Test func drawsAreMultipliedByTheMask() throws {
        let clip = try Mask(width: 10, height: 10)
        clip.fill(Path(rect: Rect(x: 0, y: 0, width: 5, height: 10)))
        let pm = try Pixmap(width: 10, height: 10)
        pm.fill(Rect(x: 0, y: 0, width: 10, height: 10), paint: Paint(color: .black), clip: clip)
        #expect(pm.pixel(x: 2, y: 2).a == 255 && pm.pixel(x: 7, y: 2).a == 0)
    }
}
