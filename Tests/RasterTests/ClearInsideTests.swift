import Foundation
@testable import Raster
import Testing

/// `Pixmap.drawTexture(_:inside:imageToDevice:clearInside:)`: pixels whose samples can only read
/// transparent texels are skipped. A transparent source blends nothing (source-over:
/// dst + src − dst·αs = dst when src = 0), so the target's words must be the same as when
/// every pixel is sampled — for perspective and affine maps, at any opacity, with a tint, in
/// strips — and the skipped pixels must really be skipped (a "clear" rectangle that is not
/// clear leaves a hole).
struct ClearInsideTests {
    typealias Generator = DifferentialTests.Generator

    /// A random `width`×`height` image, transparent in `clear` (texels whose pixel square lies
    /// in it) and random elsewhere.
    static func image(_ g: inout Generator, width: Int, height: Int, clear: Rect) throws -> Pixmap {
        let pm = try Pixmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let inside = Double(x) >= clear.minX && Double(x + 1) <= clear.maxX
                    && Double(y) >= clear.minY && Double(y + 1) <= clear.maxY
                let a: UInt8 = inside ? 0 : g.next() % 3 == 0 ? 255 : UInt8(g.next() % 256)
                func channel() -> UInt8 { UInt8(g.next() % (UInt64(a) + 1)) }
                pm.setPixel(x: x, y: y, PremultipliedColor(r: channel(), g: channel(), b: channel(), a: a))
            }
        }
        return pm
    }

    /// A random perspective (or, for `affine`, affine) map of a width×height image into a
    /// 200×160 target, in front of the eye over the whole image: a card turned about a
    /// slanted axis, scaled, sheared and moved.
    static func map(_ g: inout Generator, width: Int, height: Int, affine: Bool) -> Projective {
        let s = 0.6 + 1.4 * g.unit(), shear = g.unit() - 0.5, turn = (g.unit() - 0.5) * 1.2
        let gx = affine ? 0 : (g.unit() - 0.5) * 0.8 / Double(width), gy = affine ? 0 : (g.unit() - 0.5) * 0.8 / Double(height)
        return Projective(s * cos(turn), s * (shear - sin(turn)), 20 + 40 * g.unit(),
                          s * sin(turn), s * cos(turn), 20 + 30 * g.unit(),
                          gx, gy, 1)
    }

    /// A 200×160 target with a random opaque or translucent background (the same for equal `seed`s).
    static func target(seed: UInt64) throws -> Pixmap {
        var g = Generator(state: seed)
        let pm = try Pixmap(width: 200, height: 160)
        for i in 0..<(200 * 160) {
            let a = UInt32(g.next() % 2 == 0 ? 255 : g.next() % 256)
            pm.words[i] = a << 24 | UInt32(g.next() % (UInt64(a) + 1)) << 8 | UInt32(g.next() % (UInt64(a) + 1))
        }
        return pm
    }

    /// How many words of `a` and `b` (the same size) differ.
    static func differing(_ a: Pixmap, _ b: Pixmap) -> Int {
        (0..<(a.width * a.height)).reduce(0) { $0 + (a.words[$1] != b.words[$1] ? 1 : 0) }
    }

    /// The image's outline mapped by `m`.
    static func quad(_ m: Projective, width: Int, height: Int) -> [Point] {
        [(0.0, 0.0), (Double(width), 0), (Double(width), Double(height)), (0, Double(height))]
            .compactMap { m.apply(Point(x: $0.0, y: $0.1)) }
    }

    /// A random image size from 30 to 119 texels a side and a rectangle inside it, 2 to 9 texels
    /// from each edge.
    static func sizeAndInside(_ g: inout Generator) -> (width: Int, height: Int, inside: Rect) {
        let width = 30 + Int(g.next() % 90), height = 30 + Int(g.next() % 90)
        let inset = 2 + Double(g.next() % 8)
        return (width, height, Rect(x: inset, y: inset + 1, width: Double(width) - 2 * inset - 1, height: Double(height) - 2 * inset))
    }

    @Test(arguments: Array(1...24))
    func skippingTheClearInsideChangesNoWord(seed: Int) throws {
        var g = Generator(state: UInt64(seed) &* 0x5851_F42D_4C95_7F2D)
        let (width, height, clear) = Self.sizeAndInside(&g)
        let image = try Self.image(&g, width: width, height: height, clear: clear)
        let m = Self.map(&g, width: width, height: height, affine: seed % 4 == 0)
        let opacity: Float = seed % 3 == 0 ? 1 : Float(0.3 + 0.6 * g.unit())
        let tint = seed % 5 == 0 ? TexelTint(multiply: 0.7, addWhite: 0.2) : .none
        let polygon = Self.quad(m, width: width, height: height)
        try #require(polygon.count == 4)
        let background = try Self.target(seed: UInt64(seed)), plain = try Self.target(seed: UInt64(seed))
        let skipping = try Self.target(seed: UInt64(seed))
        plain.drawTexture(image, inside: polygon, imageToDevice: m, opacity: opacity, tint: tint)
        skipping.drawTexture(image, inside: polygon, imageToDevice: m, opacity: opacity, tint: tint, clearInside: clear)
        #expect(Self.differing(plain, skipping) == 0, "seed \(seed)")
        #expect(Self.differing(plain, background) > 0, "seed \(seed): the texture drew something")
    }

    @Test func aClearRectangleThatIsNotClearLeavesAHole() throws {
        let image = try Pixmap(width: 40, height: 40)
        image.fill(with: PremultipliedColor(r: 200, g: 0, b: 0, a: 255))
        let target = try Pixmap(width: 100, height: 100)
        // A mild perspective: the image's middle lands near (50, 50).
        let m = Projective(1.5, 0, 20, 0, 1.5, 20, 0.002, 0, 1)
        let polygon = Self.quad(m, width: 40, height: 40)
        target.drawTexture(image, inside: polygon, imageToDevice: m, clearInside: Rect(x: 5, y: 5, width: 30, height: 30))
        let centre = try #require(m.apply(Point(x: 20, y: 20)))
        let edge = try #require(m.apply(Point(x: 3, y: 20)))
        #expect(target.pixel(x: Int(centre.x), y: Int(centre.y)).a == 0, "skipped: the texels claimed clear")
        #expect(target.pixel(x: Int(edge.x), y: Int(edge.y)).a == 255, "drawn: outside the clear rectangle")
    }
}
