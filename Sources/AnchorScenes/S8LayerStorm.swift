import Raster
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// S8 `layer-storm` — 1920×1080, seed 8: the immediate-mode equivalent of a Core Animation
/// frame, 1000 sibling "layers" (rounded-rect background, solid or image; 2-px border inside the
/// bounds; group opacity), each under its own affine transform.
public struct S8LayerStorm: Sendable {
    /// An integer device box, half-open: [x0, x1) × [y0, y1).
    public struct Box: Equatable, Sendable {
        public let x0: Int, y0: Int, x1: Int, y1: Int
        public var width: Int { x1 - x0 }
        public var height: Int { y1 - y0 }
    }

    public struct Layer: Sendable {
        public let w: Double, h: Double, radius: Double
        public let background: RGBA8, border: RGBA8
        public let opacity: Double
        /// `floor(opacity · 255 + 0.5)`; every engine composites with α8 / 255.
        public let alpha8: Int
        public let cx: Double, cy: Double, theta: Double, s: Double
        /// Layer space → canvas: `T(cx, cy)·R(θ)·S(s)`.
        public let matrix: Transform
        /// Layer i with i % 5 == 0 shows the source image instead of its background colour.
        public let isImage: Bool
        /// The device box of the transformed bounds, clipped to the canvas (the group's extent).
        public let groupBox: Box
        /// Whether the layer is drawn through a group (α8 < 255) or directly.
        public var usesGroup: Bool { alpha8 < 255 }
        /// Layer space → the pixmap drawn into: `matrix`, shifted by −groupBox origin for a group.
        public let drawTransform: Transform
        /// The bounds (−w/2, −h/2, w, h) rounded by `radius`, mapped by `drawTransform`.
        public let backgroundPath: Path
        /// Solid colour, or the image with its pattern transform mapped by `drawTransform`.
        public let backgroundPaint: Paint
        /// The border's centre line (the bounds inset by 1, radius ρ − 1) mapped by
        /// `drawTransform`; stroked `borderStyle.width` = 2·s wide, which equals stroking 2 wide
        /// in layer space since M is a similarity.
        public let borderPath: Path
        public let borderStyle: StrokeStyle
        public let borderPaint: Paint
        /// The group box on the canvas, and the paint that composites the group over it.
        public let compositePath: Path
        public let compositePaint: Paint
    }

    public let width = 1920, height = 1080
    public static let borderWidth = 2.0
    public let image: Pixmap
    public let layers: [Layer]
    /// The next `nextUInt32()` after the 14 000 draws (a check value).
    public let nextUInt32AfterLayers: UInt32
    /// The offscreen group buffer, allocated once; reused by every layer. As large as the
    /// largest layer's device box before it is clipped to the canvas (so a layer's drawing is
    /// never cut by the buffer's edge, only by its top-left corner, as in a canvas-sized one),
    /// the size Blend2D's anchor harness gives its scratch image (scenes.md S8 step 3: "a group
    /// buffer may be allocated once"); its rows lie close together. Because of it, one
    /// `S8LayerStorm` must not render on two threads at once.
    public let group: Pixmap

    public init() {
        let image = SceneGeometry.sourceImage()
        var rng = PCG32(seed: 8)
        var drawn: [(w: Double, h: Double, rho: Double, background: RGBA8, border: RGBA8, o: Double,
                     cx: Double, cy: Double, theta: Double, s: Double)] = []
        for _ in 0..<1000 {
            let w = rng.uniform(40, 160), h = rng.uniform(40, 160)
            let rho = rng.uniform(4, min(w, h) / 4)
            let background = RGBA8(rng.u8(), rng.u8(), rng.u8())
            let border = RGBA8(rng.u8(), rng.u8(), rng.u8())
            let o = rng.uniform(0.5, 1)
            let cx = rng.uniform(0, 1920), cy = rng.uniform(0, 1080)
            let theta = rng.uniform(0, SceneGeometry.twoPi), s = rng.uniform(0.75, 1.25)
            drawn.append((w, h, rho, background, border, o, cx, cy, theta, s))
        }
        var groupWidth = 1, groupHeight = 1
        for d in drawn {
            let matrix = SceneGeometry.affine(cx: d.cx, cy: d.cy, theta: d.theta, s: d.s, half: 0)
            let box = S8LayerStorm.deviceBox(matrix: matrix, w: d.w, h: d.h, clippedTo: nil)
            groupWidth = max(groupWidth, box.width)
            groupHeight = max(groupHeight, box.height)
        }
        let group = try! Pixmap(width: groupWidth, height: groupHeight)  // a few hundred pixels a side
        self.layers = drawn.enumerated().map { i, d in
            S8LayerStorm.layer(index: i, w: d.w, h: d.h, rho: d.rho, background: d.background, border: d.border,
                               opacity: d.o, cx: d.cx, cy: d.cy, theta: d.theta, s: d.s, image: image, group: group)
        }
        self.image = image
        self.group = group
        nextUInt32AfterLayers = rng.nextUInt32()
    }

    static func layer(index i: Int, w: Double, h: Double, rho: Double, background: RGBA8, border: RGBA8, opacity o: Double,
                      cx: Double, cy: Double, theta: Double, s: Double, image: Pixmap, group: Pixmap) -> Layer {
        let alpha8 = Int((o * 255 + 0.5).rounded(.down))
        let matrix = SceneGeometry.affine(cx: cx, cy: cy, theta: theta, s: s, half: 0)
        let box = deviceBox(matrix: matrix, w: w, h: h)
        let drawTransform = alpha8 < 255
            ? Transform(a: matrix.a, b: matrix.b, c: matrix.c, d: matrix.d,
                        tx: matrix.tx - Double(box.x0), ty: matrix.ty - Double(box.y0))
            : matrix
        let isImage = i % 5 == 0
        let backgroundPaint: Paint
        if isImage {
            let imageToLayer = Transform(a: w / 512, b: 0, c: 0, d: h / 512, tx: -(w / 2), ty: -(h / 2))
            backgroundPaint = Paint(shader: .image(ImagePattern(image: image, transform: imageToLayer.concatenating(drawTransform),
                                                                filter: .bilinear, spread: .pad)))
        } else {
            backgroundPaint = Paint(color: background.color)
        }
        let bw = borderWidth
        let groupAtBox = Transform(a: 1, b: 0, c: 0, d: 1, tx: Double(box.x0), ty: Double(box.y0))
        return Layer(
            w: w, h: h, radius: rho, background: background, border: border, opacity: o, alpha8: alpha8,
            cx: cx, cy: cy, theta: theta, s: s, matrix: matrix, isImage: isImage, groupBox: box,
            drawTransform: drawTransform,
            backgroundPath: SceneGeometry.transformed(
                SceneGeometry.roundedRect(x: -(w / 2), y: -(h / 2), w: w, h: h, radius: rho), by: drawTransform),
            backgroundPaint: backgroundPaint,
            borderPath: SceneGeometry.transformed(
                SceneGeometry.roundedRect(x: -(w / 2) + bw / 2, y: -(h / 2) + bw / 2, w: w - bw, h: h - bw,
                                          radius: rho - bw / 2), by: drawTransform),
            borderStyle: StrokeStyle(width: bw * s),
            borderPaint: Paint(color: border.color),
            compositePath: SceneGeometry.rect(x: Double(box.x0), y: Double(box.y0),
                                              w: Double(box.width), h: Double(box.height)),
            compositePaint: Paint(shader: .image(ImagePattern(image: group, transform: groupAtBox, filter: .nearest,
                                                              spread: .decal)),
                                  opacity: Float(alpha8) / 255))
    }

    /// scenes.md S8 step 3: the corners of B mapped by M, floor/ceil, clipped to the canvas.
    /// (`clippedTo` nil: the box before the clip to the canvas.)
    static func deviceBox(matrix m: Transform, w: Double, h: Double, clippedTo canvas: (Int, Int)? = (1920, 1080)) -> Box {
        let hw = w / 2, hh = h / 2
        let corners = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
        let xs = corners.map { m.a * $0.0 + m.c * $0.1 + m.tx }
        let ys = corners.map { m.b * $0.0 + m.d * $0.1 + m.ty }
        var x0 = Int(floor(xs.min()!)), y0 = Int(floor(ys.min()!))
        var x1 = Int(ceil(xs.max()!)), y1 = Int(ceil(ys.max()!))
        if let (width, height) = canvas {
            x0 = max(0, x0); y0 = max(0, y0)
            x1 = min(width, x1); y1 = min(height, y1)
        }
        return Box(x0: x0, y0: y0, x1: max(x0, x1), y1: max(y0, y1))
    }
}
