import Raster
import Testing

/// Triangle-mesh warps: texture placement by the corner correspondence, and no seams.
struct MeshTests {
    static func image() throws -> Pixmap {
        // 20×20: left half red, right half blue, opaque.
        let pm = try Pixmap(width: 20, height: 20)
        for y in 0..<20 { for x in 0..<20 {
            pm.setPixel(x: x, y: y, x < 10 ? PremultipliedColor(r: 255, g: 0, b: 0, a: 255) : PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        } }
        return pm
    }

    @Test func twoTrianglesCoverTheQuadWithoutASeam() throws {
        let target = try Pixmap(width: 60, height: 60)
        // The image's square mapped onto the rectangle (10, 10)–(50, 50): scale 2, split along
        // the diagonal. Every interior pixel must be fully opaque, the diagonal included.
        let pos = [Point(x: 10, y: 10), Point(x: 50, y: 10), Point(x: 50, y: 50), Point(x: 10, y: 50)]
        let tex = [Point(x: 0, y: 0), Point(x: 20, y: 0), Point(x: 20, y: 20), Point(x: 0, y: 20)]
        target.drawMesh(image: try Self.image(), positions: pos, texCoords: tex, indices: [0, 1, 2, 0, 2, 3])
        for y in 11..<49 { for x in 11..<49 { #expect(target.pixel(x: x, y: y).a == 255, "(\(x), \(y))") } }
        // The red/blue boundary at image x = 10 lands at device x = 10 + 2·10 = 30.
        #expect(target.pixel(x: 25, y: 30).r == 255 && target.pixel(x: 35, y: 30).b == 255)
        #expect(target.pixel(x: 5, y: 30).a == 0)
    }

    @Test func degenerateTrianglesAreSkipped() throws {
        let target = try Pixmap(width: 10, height: 10)
        let p = Point(x: 1, y: 1)
        target.drawMesh(image: try Self.image(), positions: [p, p, p], texCoords: [p, p, p], indices: [0, 1, 2, 0, 1, 7])
        #expect(target.pixel(x: 1, y: 1).a == 0)
    }
}
