import QuartzCore
import Raster
import Testing
@testable import WindowHost

/// The host's pieces that need no display: the clocks and the frame grid, the pixel layouts,
/// the pointer state machine, the frame's placement in a resized window, keys.
@Suite(.serialized) struct HostLogicTests {
    @Test func clockPausesStepsAndResumesWhereItStopped() {
        var clock = HostClock(sceneTime: 10, atHostTime: 1000)
        #expect(clock.sceneTime(atHostTime: 1000.5) == 10.5)
        #expect(clock.hostTime(forSceneTime: 12) == 1002)
        let stepped = clock.step(frames: 1)
        #expect(!stepped, "no steps while running")
        clock.togglePause(atHostTime: 1001)
        #expect(clock.isPaused && clock.sceneTime(atHostTime: 1005) == 11)
        #expect(clock.hostTime(forSceneTime: 12) == .infinity)
        clock.step(frames: 3)
        clock.step(frames: -1)
        #expect(abs(clock.sceneTime(atHostTime: 1010) - (11 + 2.0 / 60)) < 1e-12)
        clock.togglePause(atHostTime: 1020)
        #expect(abs(clock.sceneTime(atHostTime: 1021) - (12 + 2.0 / 60)) < 1e-12)
    }

    @Test func gridTicksDropLateFrames() {
        let grid = FrameGrid(origin: 100, interval: 0.25)
        #expect(grid.latestTick(atOrBefore: 100.9) == 100.75)       // a late wake-up draws the latest tick
        #expect(grid.latestTick(atOrBefore: 100.75) == 100.75)
        #expect(grid.firstTick(after: 100.75) == 101)
        #expect(grid.firstTick(after: 100.8) == 101)
        #expect(grid.firstTick(atOrAfter: 100.75) == 100.75)
        #expect(grid.firstTick(atOrAfter: 100.76) == 101)
        #expect(grid.firstTick(atOrAfter: .infinity) == .infinity)
        let display = FrameGrid(origin: 0)
        #expect(display.latestTick(atOrBefore: 7 * (1.0 / 60)) == 7 * (1.0 / 60))   // a sum's rounding
        #expect(HeadlessHost.displayFrameTimes(from: 0, through: 1).count == 61)
    }

    /// A pixmap with known premultiplied pixels: (10, 20, 30, 255), (255, 128, 1, 255), and a
    /// half-transparent (100, 50, 0, 128) — shown over black, i.e. as its colour channels.
    static func samplePixmap() throws -> Pixmap {
        let p = try Pixmap(width: 3, height: 2)
        p.setPixel(x: 0, y: 1, PremultipliedColor(r: 10, g: 20, b: 30, a: 255))
        p.setPixel(x: 1, y: 1, PremultipliedColor(r: 255, g: 128, b: 1, a: 255))
        p.setPixel(x: 2, y: 1, PremultipliedColor(r: 100, g: 50, b: 0, a: 128))
        return p
    }

    static func convert(_ format: PixelFormat, bytesPerPixel: Int) throws -> [UInt8] {
        let p = try samplePixmap()
        let row = 3 * bytesPerPixel + 4                          // padded rows, as X images have
        var out = [UInt8](repeating: 0xEE, count: 2 * row)
        out.withUnsafeMutableBytes { format.convert(PixelRect(x: 0, y: 1, width: 3, height: 1), of: p, into: $0.baseAddress!, bytesPerRow: row) }
        #expect(out[0..<row].allSatisfy { $0 == 0xEE }, "row 0 is outside the rectangle: untouched")
        return Array(out[row..<(row + 3 * bytesPerPixel)])
    }

    @Test func pixelLayoutsFollowTheMasksAndByteOrder() throws {
        // Depth 24 in 32 bits, little-endian: BGRX in memory.
        let bgrx = try #require(PixelFormat(redMask: 0xff0000, greenMask: 0xff00, blueMask: 0xff, bitsPerPixel: 32, bigEndian: false))
        #expect(try Self.convert(bgrx, bytesPerPixel: 4) == [30, 20, 10, 0, 1, 128, 255, 0, 0, 50, 100, 0])
        // The same masks, big-endian: XRGB in memory.
        let xrgb = try #require(PixelFormat(redMask: 0xff0000, greenMask: 0xff00, blueMask: 0xff, bitsPerPixel: 32, bigEndian: true))
        #expect(try Self.convert(xrgb, bytesPerPixel: 4) == [0, 10, 20, 30, 0, 255, 128, 1, 0, 100, 50, 0])
        // Red in the low byte (RGBX).
        let rgbx = try #require(PixelFormat(redMask: 0xff, greenMask: 0xff00, blueMask: 0xff0000, bitsPerPixel: 32, bigEndian: false))
        #expect(try Self.convert(rgbx, bytesPerPixel: 4) == [10, 20, 30, 0, 255, 128, 1, 0, 100, 50, 0, 0])
        // 565 in 16 bits, little-endian: r >> 3 << 11 | g >> 2 << 5 | b >> 3.
        let rgb565 = try #require(PixelFormat(redMask: 0xf800, greenMask: 0x07e0, blueMask: 0x1f, bitsPerPixel: 16, bigEndian: false))
        let v0 = UInt16(10 >> 3) << 11 | UInt16(20 >> 2) << 5 | UInt16(30 >> 3)
        let v1 = UInt16(255 >> 3) << 11 | UInt16(128 >> 2) << 5 | UInt16(1 >> 3)
        let v2 = UInt16(100 >> 3) << 11 | UInt16(50 >> 2) << 5
        #expect(try Self.convert(rgb565, bytesPerPixel: 2) == [v0, v1, v2].flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] })
        // Packed 24 bits, big-endian.
        let packed = try #require(PixelFormat(redMask: 0xff0000, greenMask: 0xff00, blueMask: 0xff, bitsPerPixel: 24, bigEndian: true))
        #expect(try Self.convert(packed, bytesPerPixel: 3) == [10, 20, 30, 255, 128, 1, 100, 50, 0])
        // Depth 30: 10-bit channels, the 8-bit value's top bits replicated into the low ones.
        let deep = try #require(PixelFormat(redMask: 0x3ff00000, greenMask: 0xffc00, blueMask: 0x3ff, bitsPerPixel: 32, bigEndian: false))
        #expect(deep.pixelValue(0x00_01_80_FF) == (0x3ff << 20 | (128 << 2 | 2) << 10 | (1 << 2)))
        // Masks that are not contiguous, overlap or are empty describe no layout.
        #expect(PixelFormat(redMask: 0xf0f000, greenMask: 0xff00, blueMask: 0xff, bitsPerPixel: 32, bigEndian: false) == nil)
        #expect(PixelFormat(redMask: 0xff0000, greenMask: 0xff0000, blueMask: 0xff, bitsPerPixel: 32, bigEndian: false) == nil)
        #expect(PixelFormat(redMask: 0, greenMask: 0xff00, blueMask: 0xff, bitsPerPixel: 32, bigEndian: false) == nil)
        #expect(PixelFormat(redMask: 0xe0, greenMask: 0x1c, blueMask: 0x3, bitsPerPixel: 8, bigEndian: false)?.isConvertedDirectly == false)
    }

    /// The eight-at-a-time path agrees with the per-pixel rule, at any offset and width.
    @Test func vectorConversionMatchesThePixelRule() throws {
        let p = try Pixmap(width: 37, height: 5)
        var seed: UInt32 = 12345
        for i in 0..<(37 * 5) {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            p.words[i] = seed | 0xff00_0000
        }
        for masks in [(UInt(0xff0000), UInt(0xff00), UInt(0xff)), (0xff, 0xff00, 0xff0000), (0xff00, 0xff0000, 0xff000000)] {
            let f = try #require(PixelFormat(redMask: masks.0, greenMask: masks.1, blueMask: masks.2, bitsPerPixel: 32, bigEndian: false))
            var out = [UInt32](repeating: 0, count: 37 * 5)
            let rect = PixelRect(x: 3, y: 1, width: 30, height: 3)
            out.withUnsafeMutableBytes { f.convert(rect, of: p, into: $0.baseAddress!, bytesPerRow: 37 * 4) }
            for y in 0..<5 {
                for x in 0..<37 {
                    let inside = x >= 3 && x < 33 && y >= 1 && y < 4
                    #expect(out[y * 37 + x] == (inside ? f.pixelValue(p.words[y * 37 + x]) : 0), "(\(x), \(y)) masks \(masks)")
                }
            }
        }
    }

    @Test func pointerPhasesFromButtonOne() {
        var t = PointerTracker()
        var phases: [[HostPointerEvent.Phase]] = []
        func record(_ p: HostPointerEvent.Phase?) { phases.append(p.map { [$0] } ?? []) }
        record(t.motion())                   // no motion while up
        phases.append(t.press(inside: false)) // a press outside the frame starts nothing
        record(t.motion()); record(t.release())
        phases.append(t.press(inside: true))
        record(t.motion())
        phases.append(t.press(inside: true)) // a missed release cancels the first press
        record(t.release()); record(t.release()); record(t.cancel())
        phases.append(t.press(inside: true))
        record(t.cancel())
        #expect(phases == [[], [], [], [], [.began], [.moved], [.cancelled, .began], [.ended], [], [], [.began], [.cancelled]])
        #expect(!t.isDown)
    }

    @Test func frameIsCentredInALargerWindowAndTopLeftInASmallerOne() {
        var p = FramePlacement(frameWidth: 400, frameHeight: 200, scale: 2)
        let unchanged = p.windowResized(width: 400, height: 200)
        #expect(!unchanged)
        #expect(p.scenePoint(windowX: 100, windowY: 51) == CGPoint(x: 50, y: 25.5))
        let moved = p.windowResized(width: 600, height: 300)
        #expect(moved)
        #expect(p.originX == 100 && p.originY == 50)
        #expect(p.scenePoint(windowX: 100, windowY: 50) == .zero)
        #expect(!p.contains(windowX: 99, windowY: 60) && p.contains(windowX: 100, windowY: 50) && !p.contains(windowX: 500, windowY: 60))
        #expect(p.frameRect(ofWindowRect: PixelRect(x: 0, y: 0, width: 150, height: 60)) == PixelRect(x: 0, y: 0, width: 50, height: 10))
        let movedBack = p.windowResized(width: 300, height: 100)
        #expect(movedBack)
        #expect(p.originX == 0 && p.originY == 0)
        // The mirrored finger: about the centre of the 200 × 100-point scene, (100, 50).
        #expect(p.mirroredAboutCentre(CGPoint(x: 30, y: 20)) == CGPoint(x: 170, y: 80))
        #expect(p.mirroredAboutCentre(CGPoint(x: 100, y: 50)) == CGPoint(x: 100, y: 50))
    }

    @Test func keysFromKeysyms() {
        #expect(HostKey(keysym: 0x20, text: " ") == .space)
        #expect(HostKey(keysym: 0xff51, text: "") == .left)
        #expect(HostKey(keysym: 0xff53, text: "") == .right)
        #expect(HostKey(keysym: 0xff1b, text: "\u{1b}") == .escape)
        #expect(HostKey(keysym: 0x71, text: "q") == .character("q"))
        #expect(HostKey(keysym: 0xe9, text: "é") == .character("é"))
        #expect(HostKey(keysym: 0xffe1, text: "") == nil, "shift alone")
        #expect(HostKey.text(keysym: 0xe9, latin1: [0xe9]) == "é", "XLookupString's Latin-1")
        #expect(HostKey.text(keysym: 0x0100_20ac, latin1: []) == "€", "a Unicode keysym")
    }

    @Test func pixelRects() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10), b = PixelRect(x: 5, y: 8, width: 10, height: 10)
        #expect(a.union(b) == PixelRect(x: 0, y: 0, width: 15, height: 18))
        #expect(a.intersection(b) == PixelRect(x: 5, y: 8, width: 5, height: 2))
        #expect(a.intersection(PixelRect(x: 20, y: 0, width: 1, height: 1)) == .zero)
        #expect(PixelRect.zero.union(b) == b)
        #expect(PixelRect(covering: CGRect(x: 1.5, y: 2, width: 3, height: 0.5)) == PixelRect(x: 1, y: 2, width: 4, height: 1))
    }

    @Test func noDisplayIsReportedWithAMessage() {
        #expect(!X11Window.displayAvailable(":9999"))
        #expect(HostError.noDisplay(nil).description.contains("DISPLAY is not set"))
        #expect(HostError.noDisplay(":9999").description.contains("cannot open display \":9999\""))
        let scene = LayerScene(rootLayer: CALayer(), size: CGSize(width: 10, height: 10))
        #expect(throws: HostError.noDisplay(":9999")) { _ = try X11Window(scene: scene, title: "x", display: ":9999") }
    }
}
