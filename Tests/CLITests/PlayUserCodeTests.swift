import Foundation
import TestSupport
import Testing

/// `citrine play FILE.swift` end to end: the user's own UIView subclass in a real X window under
/// a private Xvfb, dragged with xdotool, its pixels read back with xwd. The page's square follows
/// the finger (`touchesMoved` sets its centre to the touch's location), so after a drag to
/// (150, 110) its 40-point square is centred there.
@Suite(.serialized, .enabled(if: XTools.available, Comment(rawValue: XTools.skipReason)))
struct PlayUserCodeTests {
    static let page = """
        import PlaygroundSupport
        import UIKit

        final class DragView: UIView {
            let square = UIView(frame: CGRect(x: 20, y: 20, width: 40, height: 40))

            override init(frame: CGRect) {
                super.init(frame: frame)
                backgroundColor = .white
                square.backgroundColor = .systemRed
                addSubview(square)
            }

            required init?(coder: NSCoder) {
                fatalError("init(coder:) has not been implemented")
            }

            override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
                guard let touch = touches.first else { return }
                square.center = touch.location(in: self)
            }
        }

        PlaygroundPage.current.liveView = DragView(frame: CGRect(x: 0, y: 0, width: 200, height: 160))

        """

    static func isRed(_ rgb: [UInt8]) -> Bool { rgb[0] > 200 && rgb[1] < 90 && rgb[2] < 90 }
    static func isWhite(_ rgb: [UInt8]) -> Bool { rgb.allSatisfy { $0 > 240 } }

    @Test func aViewOfTheUsersOwnFollowsARealDrag() throws {
        let (folder, environment) = try UserCodeTests.workspace(["Drag.swift": Self.page])
        defer { try? FileManager.default.removeItem(at: folder) }
        let xvfb = try Xvfb(width: 640, height: 480)
        var env = environment
        env["DISPLAY"] = xvfb.display
        let play = try Child(Citrine.executable.path, ["play", folder.appendingPathComponent("Drag.swift").path, "--scale", "1"],
                             environment: env)
        defer { play.terminate() }
        // The parent compiles the page first: give the window time to appear.
        let id = try xvfb.window(matching: "Drag.swift$", timeout: 120)
        /// Whether the square's red is at `red` and the background's white at `white` (pixels).
        func shows(red: (Int, Int), white: (Int, Int)) throws -> Bool {
            let image = try xvfb.grab(id)
            return Self.isRed(image.rgb(red.0, red.1)) && Self.isWhite(image.rgb(white.0, white.1))
        }
        #expect(try waitUntil { try shows(red: (40, 40), white: (150, 110)) }, "the square at rest")
        let window = String(id)
        try xvfb.run("xdotool", ["mousemove", "--window", window, "40", "40", "mousedown", "1"]
                     + [(70, 60), (100, 80), (130, 100), (150, 110)].flatMap { ["mousemove", "--window", window, "\($0.0)", "\($0.1)"] }
                     + ["mouseup", "1"])
        #expect(try waitUntil { try shows(red: (150, 110), white: (40, 40)) }, "the square followed the drag")
        try xvfb.run("xdotool", ["key", "q"])
        #expect(play.waitForExit(timeout: 10), "q closes the window, and the parent ends with its child")
        #expect(play.exitStatus() == 0)
    }
}
