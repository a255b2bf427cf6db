import Export
import Foundation
import QuartzCore
import Scene
import Synchronization
import Testing

/// Display links in exported scenes: each worker's scene gets its frames from its own driver, on
/// its own thread and at its own times, whatever the other workers' scenes do meanwhile.
@Suite(.serialized) struct ExportDisplayLinkTests {
    static let size = CGSize(width: 160, height: 40)

    /// A scene whose square follows its display link: at each frame the link moves the square's
    /// centre to x = 20 + 100·timestamp, from the link's handler (as a Lottie layer playing
    /// through its link does). The link is added to the main run loop, as on iOS.
    final class LinkedSquare: @unchecked Sendable {
        let scene: LayerScene
        let thread = Thread.current
        /// Whether every call of the handler came on the thread that built the scene.
        let onOwnThread = Atomic<Bool>(true)
        private var link: CADisplayLink?

        init() {
            let root = CALayer()
            root.frame = CGRect(origin: .zero, size: Self.size)
            let square = CALayer()
            square.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
            square.position = CGPoint(x: 20, y: 20)
            square.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            root.addSublayer(square)
            scene = LayerScene(rootLayer: root, size: Self.size)
            scene.runsContinuously = true
            let link = CADisplayLink { [weak self] link in
                if let self, Thread.current !== self.thread { self.onOwnThread.store(false, ordering: .relaxed) }
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                square.position.x = 20 + 100 * link.timestamp
                CATransaction.commit()
            }
            link.add(to: .main, forMode: .common)
            self.link = link
        }

        static var size: CGSize { ExportDisplayLinkTests.size }
        deinit { link?.invalidate() }
    }

    /// Frames at 10 fps over one second: at frame i (time i/10, a display-frame boundary) the
    /// link last fired at i/10, so the square's left edge is at 10 + 10·i points — with one
    /// worker or several, each scene's link fired only by its own worker.
    @Test(arguments: [1, 2, 3])
    func eachWorkersLinkFollowsItsOwnFrames(threads: Int) throws {
        let scenes = Mutex<[LinkedSquare]>([])
        let exporter = CAAnimationExporter(size: Self.size) {
            let square = LinkedSquare()
            scenes.withLock { $0.append(square) }
            return square.scene
        }
        exporter.threads = threads
        let timeline = try ExportTimeline(duration: 1, fps: 10)
        var frames: [[UInt8]] = []
        try exporter.forEachFrame(timeline) { frame in
            frames.append(Array(UnsafeBufferPointer(start: frame.pixmap.pixels, count: frame.pixmap.bytesPerRow * frame.pixmap.height)))
        }
        func alpha(_ frame: [UInt8], x: Int) -> UInt8 { frame[(20 * Int(Self.size.width) + x) * 4 + 3] }
        for (i, frame) in frames.enumerated() {
            #expect(alpha(frame, x: 10 + 10 * i) == 255 && alpha(frame, x: 9 + 10 * i) == 0, "frame \(i)")
        }
        scenes.withLock { scenes in
            #expect(scenes.count == threads)
            for scene in scenes {
                let onOwnThread = scene.onOwnThread.load(ordering: .relaxed)
                #expect(onOwnThread, "a link fired on another worker's thread")
            }
        }
    }
}
