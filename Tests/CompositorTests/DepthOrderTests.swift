@testable import Compositor
import QuartzCore
import Raster
import Testing

/// Sublayers of one flattening layer share its 3D space and are drawn back to
/// front by depth; intersecting layers are cut along the intersection. Expected values come from
/// closed-form geometry (a plane z = k·x is nearer the viewer than z = −k·x exactly where x > 0)
/// and from a per-pixel depth buffer computed here from the layers' matrices (`DepthBuffer`: for
/// each pixel centre, the layer whose plane is hit nearest the viewer) — never from the renderer.
@Suite(.serialized) struct DepthOrderTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    static func layer(center: CGPoint, size: CGFloat, _ color: CGColor, transform: CATransform3D = CATransform3DIdentity) -> CALayer {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: size, height: size)
        l.position = center
        l.backgroundColor = color
        l.transform = transform
        return l
    }

    static func container(_ sublayers: [CALayer], size: CGFloat = 200) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: size, height: size)
        for l in sublayers { root.addSublayer(l) }
        return root
    }

    static func render(_ root: CALayer) throws -> Pixmap {
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: root, size: root.bounds.size, at: 0, background: white).pixmap
    }

    /// A transform whose z output is `k`·x (x from the anchor point): the layer's plane leans
    /// about its vertical centre line, and with no perspective it covers the same pixels as flat.
    static func lean(_ k: CGFloat, z: CGFloat = 0) -> CATransform3D {
        var t = CATransform3DIdentity
        t.m13 = k
        t.m43 = z
        return t
    }

    static func isColor(_ p: PremultipliedColor, _ c: (Int, Int, Int), tolerance: Int = 2) -> Bool {
        abs(Int(p.r) - c.0) <= tolerance && abs(Int(p.g) - c.1) <= tolerance && abs(Int(p.b) - c.2) <= tolerance
    }

    // MARK: - Closed form

    /// Red leans with z = x/2, blue (added later) with z = −x/2, same square: blue is nearer
    /// left of the centre line, red right of it (array order alone would show only blue).
    @Test func intersectingLayersShowTheirNearSides() throws {
        let red = Self.layer(center: CGPoint(x: 100, y: 100), size: 100, Self.red, transform: Self.lean(0.5))
        let blue = Self.layer(center: CGPoint(x: 100, y: 100), size: 100, Self.blue, transform: Self.lean(-0.5))
        let img = try Self.render(Self.container([red, blue]))
        for y in [60, 100, 140] {
            for x in [55, 75, 97] { #expect(Self.isColor(img.pixel(x: x, y: y), (0, 0, 255)), "(\(x), \(y)) blue") }
            for x in [103, 125, 145] { #expect(Self.isColor(img.pixel(x: x, y: y), (255, 0, 0)), "(\(x), \(y)) red") }
        }
        #expect(Self.isColor(img.pixel(x: 40, y: 100), (255, 255, 255)))
    }

    /// A layer lifted towards the viewer and leaning (z from 15 to 25) covers a later flat sibling
    /// (z = 0) where they overlap; so does one only lifted (z = 20).
    @Test func layerInFrontCoversLaterSibling() throws {
        var tilted = Self.lean(0, z: 20)
        tilted.m23 = 0.1
        for transform in [tilted, Self.lean(0, z: 20)] {
            let red = Self.layer(center: CGPoint(x: 80, y: 100), size: 100, Self.red, transform: transform)
            let blue = Self.layer(center: CGPoint(x: 120, y: 100), size: 100, Self.blue)
            let img = try Self.render(Self.container([red, blue]))
            #expect(Self.isColor(img.pixel(x: 100, y: 100), (255, 0, 0)))
            #expect(Self.isColor(img.pixel(x: 150, y: 100), (0, 0, 255)))
        }
    }

    /// Equal depth keeps array order: both lifted to z = 10 (the depth-sorting path), and both
    /// flat at one zPosition (the zPosition path); a higher zPosition still wins.
    @Test func equalDepthKeepsArrayOrder() throws {
        for (a, b) in [(Self.lean(0, z: 10), Self.lean(0, z: 10)), (CATransform3DIdentity, CATransform3DIdentity)] {
            let red = Self.layer(center: CGPoint(x: 80, y: 100), size: 100, Self.red, transform: a)
            let blue = Self.layer(center: CGPoint(x: 120, y: 100), size: 100, Self.blue, transform: b)
            #expect(Self.isColor(try Self.render(Self.container([red, blue])).pixel(x: 100, y: 100), (0, 0, 255)))
        }
        let red = Self.layer(center: CGPoint(x: 80, y: 100), size: 100, Self.red)
        red.zPosition = 1
        let blue = Self.layer(center: CGPoint(x: 120, y: 100), size: 100, Self.blue)
        #expect(Self.isColor(try Self.render(Self.container([red, blue])).pixel(x: 100, y: 100), (255, 0, 0)))
    }

    /// A CATransformLayer's sublayers take part in its parent's depth order: a red layer at z = 10
    /// inside a transform layer covers a later flat sibling of the transform layer.
    @Test func transformLayerSublayersShareTheParentsSpace() throws {
        let t = CATransformLayer()
        t.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        t.addSublayer(Self.layer(center: CGPoint(x: 80, y: 100), size: 100, Self.red, transform: Self.lean(0, z: 10)))
        let blue = Self.layer(center: CGPoint(x: 120, y: 100), size: 100, Self.blue)
        let img = try Self.render(Self.container([t, blue]))
        #expect(Self.isColor(img.pixel(x: 100, y: 100), (255, 0, 0)))
        #expect(Self.isColor(img.pixel(x: 150, y: 100), (0, 0, 255)))
    }

    /// Replicator instances keep instance order even when a later instance lies deeper: the
    /// second copy, shifted 40 right and 10 back, is still drawn over the first.
    @Test func replicatorInstancesKeepInstanceOrder() throws {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        r.instanceCount = 2
        r.instanceTransform = CATransform3DMakeTranslation(40, 0, -10)
        r.instanceColor = Self.red
        r.instanceBlueOffset = 1
        r.instanceRedOffset = -1
        r.addSublayer(Self.layer(center: CGPoint(x: 80, y: 100), size: 100, Self.white))
        let img = try Self.render(Self.container([r]))
        #expect(Self.isColor(img.pixel(x: 100, y: 100), (0, 0, 255)))   // instance 1 (blue) over instance 0 (red)
        #expect(Self.isColor(img.pixel(x: 50, y: 100), (255, 0, 0)))
    }

    // MARK: - The sorter

    /// 3 000 parallel squares in shuffled order come out by ascending z (back to front), uncut;
    /// the sort is iterative, so a tree 3 000 levels deep needs no deep stack.
    @Test func sorterOrdersParallelPlanesByDepth() {
        var sorter = PlaneSorter()
        for i in 0 ..< 3000 {
            let z = Double((i * 7919) % 3000)
            sorter.add(owner: i, [SIMD3(0, 0, z), SIMD3(1, 0, z), SIMD3(1, 1, z), SIMD3(0, 1, z)])
        }
        sorter.sort()
        let depths = sorter.order.map { sorter.points[sorter.pieces[$0].first].z }
        #expect(depths == depths.sorted() && depths.count == 3000)
        let allWhole = sorter.pieces.allSatisfy { $0.isWhole }
        #expect(allWhole)
    }

    /// Squares z = x and z = −x over x, y ∈ [−1, 1] cross along x = 0: each is cut in two there,
    /// and on each side the farther half comes first (left: z = x below z = −x; right: the reverse).
    @Test func sorterCutsCrossingPlanesAlongTheirIntersection() {
        var sorter = PlaneSorter()
        sorter.add(owner: 0, [SIMD3(-1, -1, -1), SIMD3(1, -1, 1), SIMD3(1, 1, 1), SIMD3(-1, 1, -1)])
        sorter.add(owner: 1, [SIMD3(-1, -1, 1), SIMD3(1, -1, -1), SIMD3(1, 1, -1), SIMD3(-1, 1, 1)])
        sorter.sort()
        let drawn = sorter.order.map { sorter.pieces[$0] }
        #expect(drawn.count == 3 || drawn.count == 4)   // the splitter stays whole; the other is cut
        func position(owner: Int, left: Bool) -> Int? {
            drawn.firstIndex { piece in
                let xs = sorter.vertices(of: piece).map(\.x)
                return piece.owner == owner && (left ? xs.min()! < -0.5 : xs.max()! > 0.5)
                    && (piece.isWhole || (left ? xs.max()! <= 1e-9 : xs.min()! >= -1e-9))
            }
        }
        let aLeft = position(owner: 0, left: true), aRight = position(owner: 0, left: false)
        let bLeft = position(owner: 1, left: true), bRight = position(owner: 1, left: false)
        if let aLeft, let bLeft, let aRight, let bRight {
            #expect(aLeft < bLeft || aLeft == aRight, "left: z = x is farther")
            #expect(bRight < aRight || bRight == bLeft, "right: z = −x is farther")
            #expect(aLeft != aRight || bLeft != bRight, "one of the two is cut")
        } else {
            Issue.record("missing piece")
        }
        // The cut pieces share the intersection edge x = 0 bit for bit.
        let cut = drawn.filter { !$0.isWhole }
        let onLine = cut.map { Set(sorter.vertices(of: $0).filter { $0.x == 0 }.map { [$0.y, $0.z] }) }
        #expect(cut.count == 2 && onLine[0] == onLine[1] && onLine[0].count == 2)
    }

    // MARK: - Against a depth buffer

    /// Lockwood's cube ("iOS Core Animation: Advanced Techniques", chapter 5, "Solid Objects"):
    /// six bordered 200-pt faces placed by translations of ±100 and quarter turns, the container's
    /// sublayerTransform m34 = −1/500 then rotated −π/4 about x and −π/4 about y, so that three
    /// faces show. Every layer is double-sided, so in array order the back faces (added last) would
    /// cover the front ones; by depth, each pixel shows the face nearest the viewer.
    @Test func lockwoodCubeShowsTheNearFaces() throws {
        let (container, faces) = Self.lockwoodCube()
        let img = try Self.render(container)
        let nearest = DepthBuffer(faces, in: container, width: img.width, height: img.height)
        var checked = 0, visible = Set<Int>()
        for y in stride(from: 2, to: img.height - 2, by: 3) {
            for x in stride(from: 2, to: img.width - 2, by: 3) {
                // Away from edges and borders: the same face nearest over a 13-px square, 8 pt inside it.
                guard let face = nearest.owner(x, y, margin: 6), nearest.inset(x, y) >= 8 else { continue }
                visible.insert(face)
                let c = faces[face].backgroundColor!.components!
                let expected = (Int(c[0] * 255 + 0.5), Int(c[1] * 255 + 0.5), Int(c[2] * 255 + 0.5))
                #expect(Self.isColor(img.pixel(x: x, y: y), expected, tolerance: 3), "(\(x), \(y)) face \(face + 1)")
                checked += 1
            }
        }
        #expect(visible == [0, 1, 2], "faces 1, 2 and 3 face the viewer")
        #expect(checked > 1000)
    }

    /// Twelve layers in random 3D poses through one point region (many intersections), against
    /// the depth buffer.
    @Test func randomIntersectingLayersMatchADepthBuffer() throws {
        var rng = SplitMix(seed: 16)
        var layers: [CALayer] = []
        for i in 0 ..< 12 {
            let hue = CGFloat(i) / 12
            let color = CGColor(red: 0.5 + 0.5 * cos(2 * .pi * hue), green: 0.5 + 0.5 * cos(2 * .pi * (hue - 1.0 / 3)),
                                blue: 0.5 + 0.5 * cos(2 * .pi * (hue - 2.0 / 3)), alpha: 1)
            var t = CATransform3DMakeRotation(rng.next() * 2 * .pi, rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5)
            t = CATransform3DTranslate(t, 0, 0, (rng.next() - 0.5) * 40)
            layers.append(Self.layer(center: CGPoint(x: 80 + 40 * rng.next(), y: 80 + 40 * rng.next()), size: 90, color,
                                     transform: t))
        }
        let container = Self.container(layers)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 400
        container.sublayerTransform = perspective
        let img = try Self.render(container)
        let nearest = DepthBuffer(layers, in: container, width: img.width, height: img.height)
        var checked = 0, wrong = 0
        for y in stride(from: 2, to: img.height - 2, by: 2) {
            for x in stride(from: 2, to: img.width - 2, by: 2) {
                guard let owner = nearest.owner(x, y, margin: 2) else { continue }
                let c = layers[owner].backgroundColor!.components!
                let expected = (Int(c[0] * 255 + 0.5), Int(c[1] * 255 + 0.5), Int(c[2] * 255 + 0.5))
                if !Self.isColor(img.pixel(x: x, y: y), expected, tolerance: 3) { wrong += 1 }
                checked += 1
            }
        }
        #expect(checked > 1000)
        #expect(wrong == 0, "\(wrong) of \(checked) pixels show another layer than the nearest")
    }

    /// The cube of `lockwoodCubeShowsTheNearFaces`, 300×300, faces in Lockwood's order.
    static func lockwoodCube() -> (CALayer, [CALayer]) {
        let container = CALayer()
        container.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        perspective = CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0)
        perspective = CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0)
        container.sublayerTransform = perspective
        let transforms = [
            CATransform3DMakeTranslation(0, 0, 100),
            CATransform3DRotate(CATransform3DMakeTranslation(100, 0, 0), .pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, -100, 0), .pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 100, 0), -.pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(-100, 0, 0), -.pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -100), .pi, 0, 1, 0),
        ]
        let colors: [(CGFloat, CGFloat, CGFloat)] = [(0.95, 0.3, 0.3), (0.3, 0.8, 0.3), (0.3, 0.45, 0.95),
                                                     (0.95, 0.85, 0.2), (0.8, 0.35, 0.85), (0.2, 0.85, 0.85)]
        var faces: [CALayer] = []
        for (t, c) in zip(transforms, colors) {
            let face = Self.layer(center: CGPoint(x: 150, y: 150), size: 200, CGColor(red: c.0, green: c.1, blue: c.2, alpha: 1),
                                  transform: t)
            face.borderWidth = 4
            face.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            container.addSublayer(face)
            faces.append(face)
        }
        return (container, faces)
    }
}

/// For each pixel centre, the layer (of `layers`, sublayers of `container`, which is drawn at the
/// device origin at scale 1) whose rectangle is hit nearest the viewer: the layer → container
/// matrix maps the layer plane (z = 0) to the container's space, where after the perspective
/// divide the view is along z (a larger z nearer). Each layer's plane is inverted per pixel
/// (3×3 homography), a point inside the bounds gives the depth z / w there.
struct DepthBuffer {
    let width: Int, height: Int
    /// Per pixel: nearest layer (-1: none) and how far (points) inside its bounds the hit lies.
    private var owners: [Int], insets: [CGFloat]

    init(_ layers: [CALayer], in container: CALayer, width: Int, height: Int) {
        self.width = width
        self.height = height
        owners = Array(repeating: -1, count: width * height)
        insets = Array(repeating: 0, count: width * height)
        var depths = Array(repeating: -CGFloat.infinity, count: width * height)
        for (index, layer) in layers.enumerated() {
            let m = layer._transform(toParent: container)
            // (u, v, 1) → (X, Y, W): rows 1, 2, 4 and columns 1, 2, 4 of the row-vector matrix.
            let h = [[m.m11, m.m12, m.m14], [m.m21, m.m22, m.m24], [m.m41, m.m42, m.m44]]
            guard let inv = Self.inverse(h) else { continue }
            let b = layer.bounds
            for y in 0 ..< height {
                for x in 0 ..< width {
                    let px = CGFloat(x) + 0.5, py = CGFloat(y) + 0.5
                    // Solve (u, v, 1)·H = s·(px, py, 1): (u, v, 1) ∝ (px, py, 1)·H⁻¹.
                    let uh = px * inv[0][0] + py * inv[1][0] + inv[2][0]
                    let vh = px * inv[0][1] + py * inv[1][1] + inv[2][1]
                    let wh = px * inv[0][2] + py * inv[1][2] + inv[2][2]
                    guard abs(wh) > 1e-12 else { continue }
                    let u = uh / wh, v = vh / wh
                    guard u > b.minX, u < b.maxX, v > b.minY, v < b.maxY else { continue }
                    let w = u * m.m14 + v * m.m24 + m.m44
                    guard w > 0 else { continue }
                    let z = (u * m.m13 + v * m.m23 + m.m43) / w
                    if z > depths[y * width + x] {
                        depths[y * width + x] = z
                        owners[y * width + x] = index
                        insets[y * width + x] = min(u - b.minX, b.maxX - u, v - b.minY, b.maxY - v)
                    }
                }
            }
        }
    }

    /// The nearest layer at (x, y) when the same one is nearest over the square of `margin`
    /// pixels around it; nil at edges, intersections and empty pixels.
    func owner(_ x: Int, _ y: Int, margin: Int) -> Int? {
        let o = owners[y * width + x]
        guard o >= 0 else { return nil }
        for dy in -margin ... margin {
            for dx in -margin ... margin {
                let xx = x + dx, yy = y + dy
                guard xx >= 0, yy >= 0, xx < width, yy < height, owners[yy * width + xx] == o else { return nil }
            }
        }
        return o
    }

    func inset(_ x: Int, _ y: Int) -> CGFloat { insets[y * width + x] }

    static func inverse(_ a: [[CGFloat]]) -> [[CGFloat]]? {
        let det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        guard abs(det) > 1e-12 else { return nil }
        var r = Array(repeating: Array(repeating: CGFloat(0), count: 3), count: 3)
        for i in 0 ..< 3 {
            for j in 0 ..< 3 {
                let rows = [0, 1, 2].filter { $0 != j }, cols = [0, 1, 2].filter { $0 != i }
                let minor = a[rows[0]][cols[0]] * a[rows[1]][cols[1]] - a[rows[0]][cols[1]] * a[rows[1]][cols[0]]
                r[i][j] = ((i + j) % 2 == 0 ? 1 : -1) * minor / det
            }
        }
        return r
    }
}

/// A small deterministic generator (SplitMix64) for test scenes: values in [0, 1).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> CGFloat {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return CGFloat(z >> 11) / CGFloat(1 << 53)
    }
}
