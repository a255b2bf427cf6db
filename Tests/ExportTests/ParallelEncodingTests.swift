import Export
import Foundation
import ImageCodecs
import QuartzCore
import Raster
import Testing

/// Encoding on several threads (`CAAnimationExporter.threads`, `FramePipeline`): the files are
/// the same bytes with 1, 2 and 3 threads, and the same as the encoders' plain one-thread
/// `append(_ frame:)` gives for the very frames (so preparing frames on workers changes nothing).
@Suite(.serialized) struct ParallelEncodingTests {
    static let size = CGSize(width: 96, height: 64)

    /// Two squares moving over a gradient (opaque) or over nothing (transparent), then holding
    /// still for the last third of the timeline (identical frames, which GIF merges), one of
    /// them fading in and out (translucent pixels); a GIF of the transparent version needs
    /// disposal to background where a square leaves.
    static func scene(opaque: Bool) -> @Sendable () -> CALayer {
        {
            let root = CALayer()
            root.frame = CGRect(origin: .zero, size: size)
            if opaque {
                let gradient = CAGradientLayer()
                gradient.frame = root.bounds
                gradient.colors = [CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 1), CGColor(red: 0.1, green: 0.4, blue: 0.9, alpha: 1)]
                root.addSublayer(gradient)
            }
            for (i, color) in [CGColor(red: 0.2, green: 0.8, blue: 0.3, alpha: 1), CGColor(red: 1, green: 1, blue: 0.2, alpha: 1)].enumerated() {
                let square = CALayer()
                square.bounds = CGRect(x: 0, y: 0, width: 18, height: 18)
                square.position = CGPoint(x: 12, y: 16 + 30 * CGFloat(i))
                square.cornerRadius = 5
                square.backgroundColor = color
                let move = CABasicAnimation(keyPath: "position.x")
                move.fromValue = 12
                move.toValue = 84
                move.duration = 0.4 + 0.1 * Double(i)
                move.fillMode = .forwards
                move.isRemovedOnCompletion = false
                square.add(move, forKey: "move")
                if i == 1 {
                    let fade = CABasicAnimation(keyPath: "opacity")
                    fade.fromValue = 1
                    fade.toValue = 0.3
                    fade.duration = 0.25
                    fade.autoreverses = true
                    square.add(fade, forKey: "fade")
                }
                root.addSublayer(square)
            }
            return root
        }
    }

    static let timeline = try! ExportTimeline(duration: 0.75, fps: 20)

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-parallel-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The bytes of `name` (a file, or every file of a `%03d` sequence) exported with `threads`.
    static func export(_ name: String, opaque: Bool, threads: Int) throws -> [[UInt8]] {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let exporter = CAAnimationExporter(size: size, makeLayer: scene(opaque: opaque))
        exporter.threads = threads
        try exporter.export(to: .file(dir + "/" + name), timeline: timeline)
        let files = name.contains("%") ? (0..<timeline.frameCount).map { dir + "/" + String(format: "f%03d.png", $0) } : [dir + "/" + name]
        return try files.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) }
    }

    /// The frames, rendered on one thread.
    static func frames(opaque: Bool) throws -> [Pixmap] {
        let exporter = CAAnimationExporter(size: size, makeLayer: scene(opaque: opaque))
        exporter.threads = 1
        var frames: [Pixmap] = []
        try exporter.forEachFrame(timeline) { frame in
            let copy = try Pixmap(width: frame.pixmap.width, height: frame.pixmap.height)
            copy.pixels.update(from: frame.pixmap.pixels, count: copy.bytesPerRow * copy.height)
            frames.append(copy)
        }
        return frames
    }

    @Test(arguments: [true, false])
    func gifIsTheSameWhateverTheThreads(opaque: Bool) throws {
        let one = try Self.export("a.gif", opaque: opaque, threads: 1)
        #expect(try Self.export("a.gif", opaque: opaque, threads: 2) == one)
        #expect(try Self.export("a.gif", opaque: opaque, threads: 3) == one)
        // The plain encoder on the same frames (loop forever, as the export's default).
        let sink = MemorySink()
        let gif = try GIFEncoder(sink: sink, width: 96, height: 64, rate: Self.timeline.rate)
        for frame in try Self.frames(opaque: opaque) { try gif.append(frame) }
        try gif.finish()
        #expect(sink.bytes == one[0])
    }

    @Test(arguments: [true, false])
    func apngIsTheSameWhateverTheThreads(opaque: Bool) throws {
        let one = try Self.export("a.apng", opaque: opaque, threads: 1)
        #expect(try Self.export("a.apng", opaque: opaque, threads: 2) == one)
        #expect(try Self.export("a.apng", opaque: opaque, threads: 3) == one)
        let sink = MemorySink()
        let frames = try Self.frames(opaque: opaque)
        let apng = try APNGEncoder(sink: sink, width: 96, height: 64, frameCount: frames.count, rate: Self.timeline.rate,
                                   options: APNGOptions(loopCount: 0, pixelsPerPoint: 1))
        for frame in frames { try apng.append(frame) }
        try apng.finish()
        #expect(sink.bytes == one[0])
    }

    @Test func pngSequenceIsTheSameWhateverTheThreads() throws {
        let one = try Self.export("f%03d.png", opaque: false, threads: 1)
        #expect(one.count == Self.timeline.frameCount)
        #expect(try Self.export("f%03d.png", opaque: false, threads: 2) == one)
        let frames = try Self.frames(opaque: false)
        #expect(one == (try frames.map { try PNGCodec.encode($0, pixelsPerPoint: 1) }))
    }
}
