import AnchorScenes
import Raster
import Testing

/// Scene parameters against the check values of ../shared/bench/anchors/scenes.md §4 (values
/// marked "bench.py" come from the reference implementation's `--check-values` output, the
/// independent Python generator). Values are compared exactly: the generator and the operation
/// order are specified bit for bit.
struct SceneDataTests {
    @Test func s1FirstAndLastCircle() {
        let scene = S1Circles()
        #expect(scene.circles.count == 1000)
        let first = scene.circles[0], last = scene.circles[999]
        #expect(first.cx == 1165.660057067871 && first.cy == 51.44871711730957 && first.r == 33.052228927612305)
        #expect(first.color == RGBA8(130, 148, 27, 151))
        #expect(last.cx == 183.9242935180664 && last.cy == 141.2948441505432 && last.r == 37.911224365234375)
        #expect(last.color == RGBA8(147, 115, 249, 132))
    }

    @Test func s2FirstBubble() {
        let scene = S2Bubble()
        #expect(scene.bubbles.count == 100)
        let b = scene.bubbles[0]
        #expect([b.x1, b.y1, b.r1, b.x2, b.y2, b.r2] == [224.22088623046875, 224.29090881347656, 34.60339164733887,
                                                         118.1179428100586, 224.81256103515625, 39.51372194290161])
        // bench.py: the connector of frame 0, M B · Q P C · L D · Q O A · Z.
        let tail = Array(b.path.points.suffix(6))
        #expect(tail == [Point(x: 224.3910108037521, y: 258.89388225693494),
                         Point(x: 171.22045189224866, y: 234.93262695735393), Point(x: 118.31220859628216, y: 264.32580542972914),
                         Point(x: 117.92367702383503, y: 185.29931664058336),
                         Point(x: 171.11837714827868, y: 214.17084289127888), Point(x: 224.0507616571854, y: 189.68793537001818)])
        #expect(Array(b.path.verbs.suffix(5)) == [.move, .quad, .line, .quad, .close])
    }

    @Test func s3FirstCurve() {
        let c = S3Strokes().curves[0]
        #expect(c.points[0] == Point(x: 1847.2969436645508, y: 1031.8626952171326))
        // bench.py: P1, P2, P3.
        #expect(Array(c.points[1...]) == [Point(x: 1614.649965763092, y: 1155.8762383460999),
                                          Point(x: 1828.88840675354, y: 805.4958057403564),
                                          Point(x: 1703.1921172142029, y: 781.8009924888611)])
        #expect(c.strokeWidth == 2.266208052635193)
        #expect(c.color == RGBA8(67, 246, 49, 181))
        #expect(c.style == StrokeStyle(width: 2.266208052635193, cap: .round, join: .round))
    }

    @Test func s5SourceImageAndFirstMatrix() {
        let scene = S5ImageAffine()
        #expect(scene.image.pixel(x: 0, y: 0) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
        #expect(scene.image.pixel(x: 40, y: 7) == PremultipliedColor(r: 236, g: 252, b: 244, a: 255))
        #expect(scene.image.pixel(x: 511, y: 511) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        #expect(scene.transforms.count == 50)
        #expect(scene.transforms[0] == Transform(a: 0.16238333801383117, b: -0.8246443819680974, c: 0.8246443819680974,
                                                 d: 0.16238333801383117, tx: 929.6243323345286, ty: 893.9660385369295))
    }

    @Test func s6FirstRoundedRect() {
        let item = S6RoundedRects().items[0]
        #expect(item.x == 1171.5796611628123 && item.y == 884.1618510812377)
        #expect(item.w == 103.42765426635742 && item.h == 138.33376789093018)
        #expect(item.color == RGBA8(161, 222, 113, 128))
    }

    /// bench.py's first S7 homography (numpy matrix products; compared to 1e-12 relative since
    /// scenes.md fixes no summation order for the 3×3 products).
    @Test func s7FirstHomography() {
        let h = S7ImagePerspective().homographies[0]
        let expected = [2.097823383924202, -0.8463238657613853, 1154.2114053579958, 1.1700097423394142, 1.094220114274737,
                        -33.51762585636495, 0.0008016091466207847, -3.425149101776436e-05, 1.0]
        let got = [h.m.0, h.m.1, h.m.2, h.m.3, h.m.4, h.m.5, h.m.6, h.m.7, h.m.8]
        #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, abs($1)) }, "\(got)")
    }

    @Test func s8Layers() {
        let scene = S8LayerStorm()
        let first = scene.layers[0], last = scene.layers[999]
        #expect(first.isImage && !last.isImage)
        #expect(first.w == 117.14932918548584 && first.h == 49.333529472351074 && first.radius == 11.451556262173597)
        #expect(first.background == RGBA8(2, 64, 249) && first.border == RGBA8(203, 162, 230))
        #expect(first.opacity == 0.577231764793396 && first.alpha8 == 147)
        #expect(first.cx == 208.7354278564453 && first.cy == 26.023564338684082)
        #expect(first.theta == 2.3432552723648428 && first.s == 0.9611121118068695)
        #expect(first.matrix == Transform(a: -0.6707586392176206, b: 0.6883453634454048, c: -0.6883453634454048,
                                          d: -0.6707586392176206, tx: 208.7354278564453, ty: 26.023564338684082))
        #expect(last.w == 65.47178030014038 && last.h == 130.88732481002808 && last.radius == 8.136465208047213)
        #expect(last.background == RGBA8(137, 175, 132) && last.border == RGBA8(136, 191, 137))
        #expect(last.opacity == 0.5136833488941193 && last.alpha8 == 131)
        #expect(last.cx == 1577.8249740600586 && last.cy == 643.9428520202637)
        #expect(last.theta == 5.7615161166267255 && last.s == 0.8053824603557587)
        #expect(scene.layers.reduce(0) { $0 + $1.alpha8 } == 192_684)
        #expect(scene.layers.indices.filter { scene.layers[$0].alpha8 == 255 } == [29, 35, 49, 161, 332, 624])
        #expect(scene.nextUInt32AfterLayers == 0x78c46751)
    }
}
