import Foundation
import TestSupport
import Testing

/// The package's `Examples/`, each rendered to stills through `citrine render FILE.swift` and
/// checked against its lesson's closed form; and `citrine gallery --examples` on a folder of
/// its own. The examples build into one cache for the suite (`XDG_CACHE_HOME`).
@Suite(.serialized) struct ExamplesTests {
    static let examples = URL(fileURLWithPath: PillowDecoder.packageRoot).appendingPathComponent("Examples")

    static let cache: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-examples-cache-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// Example `name` rendered at 1× as a still at `time`, with `input` (its header's options).
    static func still(_ name: String, at time: String, _ input: [String] = []) throws -> Picture {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", examples.appendingPathComponent(name + ".swift").path, "-o", "still.png",
                                   "--scale", "1", "--time", time] + input,
                                  in: folder, environment: Citrine.environment(["XDG_CACHE_HOME": cache.path]))
        guard run.status == 0 else { throw Picture.Mismatch(description: "\(name) at \(time): \(run.stderr)") }
        return try Picture.still(folder.appendingPathComponent("still.png"))
    }

    static func pixel(_ picture: Picture, _ x: Double, _ y: Double) -> [UInt8] { UserCodeTests.pixel(picture, Int(x), Int(y)) }

    static func near(_ a: [UInt8], _ b: [UInt8], within tolerance: Int = 2) -> Bool {
        zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    /// The centre of the pixels of colour `rgb` in rows `rows` (nil when there are none).
    static func centroid(_ picture: Picture, _ rgb: [UInt8], rows: Range<Int>? = nil) -> (x: Double, y: Double)? {
        var (sx, sy, n) = (0.0, 0.0, 0.0)
        for y in rows ?? 0..<picture.height {
            for x in 0..<picture.width where near(Array(pixel(picture, Double(x), Double(y)).prefix(3)), rgb, within: 8) {
                (sx, sy, n) = (sx + Double(x) + 0.5, sy + Double(y) + 0.5, n + 1)
            }
        }
        return n > 0 ? (sx / n, sy / n) : nil
    }

    static let white: [UInt8] = [255, 255, 255, 255]

    /// Replicator.swift at t = 0: copy i of the 16 × 100 bar is centred at x = 29 + 26 i, from
    /// y = 30 to 130, coloured instanceColor (1, 0.55, 0.2) shifted i times by the offsets
    /// (red −0.1, blue +0.1) times the bar's white; between the bars, the background.
    @Test func replicatorCopiesAreShiftedAndTinted() throws {
        let picture = try Self.still("Replicator", at: "0")
        for i in 0..<8 {
            let x = 29.0 + 26 * Double(i)
            let shift = 0.1 * Double(i)
            let channels: [Double] = [255 * (1 - shift), 255 * 0.55, 255 * (0.2 + shift), 255]
            let expected = channels.map { UInt8($0.rounded()) }
            #expect(Self.near(Self.pixel(picture, x, 80), expected), "copy \(i): \(Self.pixel(picture, x, 80))")
            #expect(Self.near(Self.pixel(picture, x, 35), expected), "copy \(i) at its top")
            #expect(Self.pixel(picture, x + 13, 80) == [31, 31, 31, 255], "the gap after copy \(i)")
        }
    }

    /// Flip3D.swift at t = 2/3 s: the card has turned θ = 60° (linear, π in 2 s). Its vertical
    /// edges, ±80 points from the axis, are at x = ±80 cos θ and z = ∓80 sin θ; m34 = −1/500
    /// divides each by 1 − z/500, so they appear 80 cos θ / (1 ∓ 80 sin θ / 500) from the centre
    /// (x = 130): 46.43 and 35.13 points, the card 81.57 wide instead of 80 without perspective.
    @Test func flipIsForeshortenedByPerspective() throws {
        let picture = try Self.still("Flip3D", at: "0.6666667")
        // Row y = 120 runs under the label, away from the rounded corners.
        let covered = (0..<picture.width).filter { Self.pixel(picture, Double($0), 120) != Self.white }
        let (left, right) = (Double(covered.min() ?? 0), Double((covered.max() ?? 0) + 1))
        let angle = Double.pi / 3
        let near = 80 * cos(angle) / (1 - 80 * sin(angle) / 500), far = 80 * cos(angle) / (1 + 80 * sin(angle) / 500)
        let reach = [130 - left, right - 130].sorted()
        #expect(abs(reach[0] - far) < 1.5 && abs(reach[1] - near) < 1.5, "edges \(left) … \(right)")
        // The front faces the eye; the back (isDoubleSided = false) is hidden.
        #expect(Self.pixel(picture, 130, 140) == [0, 122, 255, 255])
    }

    /// KeyframePath.swift at t = 0.5 s, an eighth of its 4 s paced lap: the car is at 45° on the
    /// circle of radius 80 about (120, 120), clockwise on screen from the rightmost point, so at
    /// (120 + 80 cos 45°, 120 + 80 sin 45°), heading along the tangent (−sin 45°, cos 45°)
    /// (rotateAuto): its yellow nose 10 points ahead, its red tail 10 behind, and 10 points to
    /// either side of it (the car is 14 wide) off the 14-point road, on white.
    @Test func keyframePathCarFollowsTheRoad() throws {
        let picture = try Self.still("KeyframePath", at: "0.5")
        let c = 120 + 80 * cos(Double.pi / 4), h = sin(Double.pi / 4) * 10
        #expect(Self.pixel(picture, c, c) == [255, 59, 48, 255])                 // systemRed
        #expect(Self.pixel(picture, c - h, c + h) == [255, 204, 0, 255])         // systemYellow nose
        #expect(Self.pixel(picture, c + h, c - h) == [255, 59, 48, 255])
        #expect(Self.pixel(picture, c + h, c + h) == Self.white)
        #expect(Self.pixel(picture, c - h, c - h) == Self.white)
    }

    /// StrokeEnd.swift: at t = 0 nothing of the tick is stroked (the ring's pale fill shows);
    /// at 1 s (between the draw, 0…0.6 s, and the wipe, 1.4…2 s) all of it, ends and corner.
    @Test func strokeEndDrawsTheTick() throws {
        let green: [UInt8] = [52, 199, 89, 255]   // systemGreen
        let points = [(62.0, 104.0), (88.0, 130.0), (140.0, 74.0), (114.0, 102.0)]
        let start = try Self.still("StrokeEnd", at: "0")
        let drawn = try Self.still("StrokeEnd", at: "1")
        for (x, y) in points {
            #expect(Self.pixel(start, x, y) != green)
            #expect(Self.pixel(drawn, x, y) == green, "(\(x), \(y))")
        }
    }

    /// ImplicitVsExplicit.swift tapped at 0.25 s (the tap ends, and both moves start, at 0.3 s):
    /// at 0.8 s the implicit move (0.25 s) is over — the orange square at x = 280 — while the
    /// explicit one (1 s, ease in-out, symmetric about its middle) is half way, x = 160; at 2 s
    /// both are at 280.
    @Test func implicitIsQuickExplicitIsShaped() throws {
        let tap = ["--tap", "160,100@0.25"]
        let middle = try Self.still("ImplicitVsExplicit", at: "0.8", tap)
        #expect(Self.pixel(middle, 280, 60) == [255, 149, 0, 255])
        #expect(Self.pixel(middle, 40, 60) == Self.white)
        let blue = try #require(Self.centroid(middle, [0, 122, 255], rows: 120..<160))
        #expect(abs(blue.x - 160) < 8, "explicit square at x = \(blue.x)")
        let end = try Self.still("ImplicitVsExplicit", at: "2", tap)
        #expect(Self.pixel(end, 280, 140) == [0, 122, 255, 255])
    }

    /// SpringDrag.swift dragged from the ball's centre (80, 100) to (240, 50) in 0.2…0.7 s: half
    /// way the ball is under the finger, its centre on the drag's line; the spring (1.2 s from
    /// the release) has brought it home by 2.4 s.
    @Test func springDragFollowsTheFingerAndReturns() throws {
        let drag = ["--drag", "80,100:240,50@0.2+0.5"]
        let pink: [UInt8] = [255, 45, 85]   // systemPink
        let dragging = try #require(Self.centroid(try Self.still("SpringDrag", at: "0.45", drag), pink))
        // Distance from the line through (80, 100) and (240, 50).
        let distance = abs(50 * (dragging.x - 80) + 160 * (dragging.y - 100)) / hypot(50, 160)
        #expect(distance < 0.5 && dragging.x > 140 && dragging.x < 180, "ball at \(dragging)")
        let home = try #require(Self.centroid(try Self.still("SpringDrag", at: "2.4", drag), pink))
        #expect(abs(home.x - 80) < 0.5 && abs(home.y - 100) < 0.5, "ball at \(home)")
    }

    /// `gallery --examples FOLDER`: a folder with one example, a square sliding 10 → 50 points
    /// in 1 s (linear), rendered beside the demos into examples/, its header on its card.
    @Test func galleryRendersAFolderOfExamples() throws {
        let page = """
            // A sliding square.
            //
            // It moves 40 points in a second.
            //
            // citrine render Slide.swift -o slide.gif --duration 1
            import PlaygroundSupport
            import UIKit

            let view = UIView(frame: CGRect(x: 0, y: 0, width: 60, height: 20))
            view.backgroundColor = .white
            let square = CALayer()
            square.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            square.position = CGPoint(x: 50, y: 10)
            square.backgroundColor = UIColor.black.cgColor
            view.layer.addSublayer(square)
            let slide = CABasicAnimation(keyPath: "position.x")
            slide.fromValue = 10
            slide.toValue = 50
            slide.duration = 1
            slide.repeatCount = .infinity
            square.add(slide, forKey: "slide")
            PlaygroundPage.current.liveView = view

            """
        let (folder, environment) = try UserCodeTests.workspace(["lessons/Slide.swift": page])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["gallery", "--examples", "lessons", "-o", "site", "--scale", "0.5", "--fps", "4", "-q"],
                                  in: folder, environment: environment, timeout: 300)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output == "site/index.html: 26 demos, 1 example and 2 Lottie files as GIF, APNG and PNG\nopen site/index.html\n")
        let site = folder.appendingPathComponent("site")
        #expect(TemporaryFolder.entries(site.appendingPathComponent("examples")) == ["Slide.apng", "Slide.gif", "Slide.png"])
        // 4 frames at 4 fps, at half scale: the square's centre at (10 + 40 t) / 2 pixels.
        for file in ["Slide.gif", "Slide.apng"] {
            let decoded = try PillowDecoder.decode(site.appendingPathComponent("examples/" + file).path)
            #expect(decoded.frames.count == 4, "\(file)")
            for (k, frame) in decoded.frames.enumerated() {
                let picture = Picture(frame)
                #expect((picture.width, picture.height) == (30, 10))
                let centre = try #require(Self.centroid(picture, [0, 0, 0]))
                #expect(abs(centre.x - (10 + 40 * Double(k) / 4) / 2) < 0.5, "\(file) frame \(k): \(centre.x)")
            }
        }
        // The poster: the middle of the 1 s span, the square at x = 30 points.
        let poster = try Picture.still(site.appendingPathComponent("examples/Slide.png"))
        #expect(abs((try #require(Self.centroid(poster, [0, 0, 0]))).x - 15) < 0.5)
        let html = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        for src in ["examples/Slide.gif", "examples/Slide.apng", "examples/Slide.png", "volume-bars.gif"] {
            #expect(html.contains("src=\"\(src)\""), "index.html does not show \(src)")
        }
        #expect(html.contains("<p>A sliding square.</p>") && html.contains("<p>It moves 40 points in a second.</p>"))
        #expect(html.contains("PNG at 0.5 s"))
        #expect(!html.contains("citrine render Slide.swift"))
    }

    /// A folder without --examples is a usage error; an empty examples folder is bad input.
    @Test func examplesFolderMisuse() throws {
        let (folder, environment) = try UserCodeTests.workspace(["empty/README": "nothing here\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let stray = try Citrine.run(["gallery", "empty"], in: folder, environment: environment)
        #expect(stray.status == 2)
        #expect(stray.stderr.contains("a folder is given after --examples"), "\(stray.stderr)")
        let empty = try Citrine.run(["gallery", "--examples", "empty", "-o", "site"], in: folder, environment: environment)
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("holds no .swift file or .playground folder"), "\(empty.stderr)")
    }
}
