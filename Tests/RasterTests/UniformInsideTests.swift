@testable import Raster
import Testing

/// `Pixmap.drawTexture(_:inside:imageToDevice:uniformInside:)`: pixels whose samples can only
/// read texels of one colour blend that colour without sampling. The bilinear sample of equal
/// texels is that texel (weights summing to 256 in each direction), so the target's words must
/// be those of a draw that samples every pixel — perspective and affine maps, opaque and
/// translucent colours, at any opacity (ClearInsideTests' images and maps, the clear inside
/// painted one colour).
struct UniformInsideTests {
    typealias Generator = DifferentialTests.Generator

    /// `ClearInsideTests.image` with the texels of `inside` set to `color`.
    static func image(_ g: inout Generator, width: Int, height: Int, inside: Rect, color: UInt32) throws -> Pixmap {
        let pm = try ClearInsideTests.image(&g, width: width, height: height, clear: inside)
        for y in 0..<height {
            for x in 0..<width where Double(x) >= inside.minX && Double(x + 1) <= inside.maxX
                && Double(y) >= inside.minY && Double(y + 1) <= inside.maxY {
                pm.words[y * width + x] = color
            }
        }
        return pm
    }

    @Test(arguments: Array(1...24))
    func blendingTheUniformInsideChangesNoWord(seed: Int) throws {
        var g = Generator(state: UInt64(seed) &* 0x2545_F491_4F6C_DD1D)
        let (width, height, inside) = ClearInsideTests.sizeAndInside(&g)
        let a = UInt32(seed % 2 == 0 ? 255 : 1 + g.next() % 255)
        let color = a << 24 | UInt32(g.next() % UInt64(a + 1)) << 16 | UInt32(g.next() % UInt64(a + 1)) << 8
            | UInt32(g.next() % UInt64(a + 1))
        let image = try Self.image(&g, width: width, height: height, inside: inside, color: color)
        let m = ClearInsideTests.map(&g, width: width, height: height, affine: seed % 4 == 0)
        let opacity: Float = seed % 3 == 0 ? 1 : Float(0.3 + 0.6 * g.unit())
        let polygon = ClearInsideTests.quad(m, width: width, height: height)
        try #require(polygon.count == 4)
        let plain = try ClearInsideTests.target(seed: UInt64(seed)), filling = try ClearInsideTests.target(seed: UInt64(seed))
        plain.drawTexture(image, inside: polygon, imageToDevice: m, opacity: opacity)
        filling.drawTexture(image, inside: polygon, imageToDevice: m, opacity: opacity,
                            uniformInside: UniformTexels(rect: inside, color: color))
        #expect(ClearInsideTests.differing(plain, filling) == 0, "seed \(seed)")
        // The colour is blended, not sampled: another colour shows.
        let other = try ClearInsideTests.target(seed: UInt64(seed))
        other.drawTexture(image, inside: polygon, imageToDevice: m, opacity: opacity,
                          uniformInside: UniformTexels(rect: inside, color: color ^ 0x0000_0001 == 0 ? 1 : 0xFF00_FF00))
        #expect(ClearInsideTests.differing(plain, other) > 0, "seed \(seed)")
    }

    @Test func uniformTexelsAreFoundOnlyWhenAllAgree() throws {
        var g = Generator(state: 7)
        let inside = Rect(x: 5, y: 6, width: 20, height: 12)
        let image = try Self.image(&g, width: 40, height: 30, inside: inside, color: 0x8040_2010)
        #expect(UniformTexels(of: image, columns: 5..<25, rows: 6..<18) == UniformTexels(rect: inside, color: 0x8040_2010))
        #expect(UniformTexels(of: image, columns: 4..<25, rows: 6..<18) == nil)
        #expect(UniformTexels(of: image, columns: 5..<25, rows: 6..<19) == nil)
        #expect(UniformTexels(of: image, columns: 5..<5, rows: 6..<18) == nil)
        #expect(UniformTexels(of: image, columns: -100..<1000, rows: 6..<18) == nil)
        image.words[17 * 40 + 24] = 0x8040_2011
        #expect(UniformTexels(of: image, columns: 5..<25, rows: 6..<18) == nil)
    }
}
