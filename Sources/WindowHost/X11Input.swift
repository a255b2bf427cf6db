import CX11
import QuartzCore
import Scene

/// Mouse button 1 → pointer phases. A press inside the drawn area begins a pointer; motion is
/// reported only while it is down (the window asks the server for button-1 motion only, and the
/// server grabs the pointer for the window while the button is down, so a drag may leave the
/// window and still end); the release ends it. A press while one is already down (a release the
/// window never saw) cancels the first, and so do closing and unmapping the window.
struct PointerTracker: Equatable {
    private(set) var isDown = false

    /// Phases for a press at `point`; `inside`: whether it falls in the drawn area (a press outside
    /// it starts nothing).
    mutating func press(inside: Bool) -> [HostPointerEvent.Phase] {
        let cancelled: [HostPointerEvent.Phase] = isDown ? [.cancelled] : []
        isDown = inside
        return cancelled + (inside ? [.began] : [])
    }

    mutating func motion() -> HostPointerEvent.Phase? { isDown ? .moved : nil }

    mutating func release() -> HostPointerEvent.Phase? {
        defer { isDown = false }
        return isDown ? .ended : nil
    }

    mutating func cancel() -> HostPointerEvent.Phase? {
        defer { isDown = false }
        return isDown ? .cancelled : nil
    }
}

/// Where the scene's frame sits in the window, and window pixels ↔ scene points.
///
/// The scene keeps its size whatever the window's: centred in a larger window (per axis), at the
/// top-left in a smaller one (so that what is cut off is the right and bottom edge).
struct FramePlacement: Equatable {
    /// The frame's size, device pixels.
    let frameWidth: Int, frameHeight: Int
    /// Device pixels per point.
    let scale: CGFloat
    /// The frame's top-left corner in the window.
    private(set) var originX = 0, originY = 0

    init(frameWidth: Int, frameHeight: Int, scale: CGFloat) {
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.scale = scale
    }

    /// Places the frame in a `width`×`height` window; true when the origin moved.
    mutating func windowResized(width: Int, height: Int) -> Bool {
        let old = (originX, originY)
        originX = max(0, (width - frameWidth) / 2)
        originY = max(0, (height - frameHeight) / 2)
        return old != (originX, originY)
    }

    /// A window pixel position → scene points (y down). The pixel's top-left corner: pixel
    /// (x, y) at scale 2 is point (x/2, y/2).
    func scenePoint(windowX x: Int, windowY y: Int) -> CGPoint {
        CGPoint(x: CGFloat(x - originX) / scale, y: CGFloat(y - originY) / scale)
    }

    /// The point mirrored about the frame's centre (scene points): where the second finger of a
    /// press with Alt held is, as the iOS Simulator's Option key places it.
    func mirroredAboutCentre(_ p: CGPoint) -> CGPoint {
        CGPoint(x: CGFloat(frameWidth) / scale - p.x, y: CGFloat(frameHeight) / scale - p.y)
    }

    /// Whether a window pixel falls on the frame.
    func contains(windowX x: Int, windowY y: Int) -> Bool {
        x >= originX && y >= originY && x < originX + frameWidth && y < originY + frameHeight
    }

    /// The part of a window rectangle that shows the frame, in frame pixels.
    func frameRect(ofWindowRect r: PixelRect) -> PixelRect {
        r.offsetBy(dx: -originX, dy: -originY).intersection(PixelRect(x: 0, y: 0, width: frameWidth, height: frameHeight))
    }
}

extension HostKey {
    /// The text a key types: `XLookupString` gives Latin-1 bytes (each byte is the code point
    /// U+00XX); keysyms 0x01000100… name Unicode characters directly (U+0100 and up).
    static func text(keysym: KeySym, latin1: [UInt8]) -> String {
        if keysym >= 0x0100_0100 && keysym <= 0x0110_FFFF, let scalar = Unicode.Scalar(UInt32(keysym - 0x0100_0000)) {
            return String(scalar)
        }
        return String(String.UnicodeScalarView(latin1.map { Unicode.Scalar($0) }))
    }

    /// The key for an X keysym and the text it types (`XLookupString`); nil for keys that mean
    /// nothing to a host (modifiers, function keys).
    init?(keysym: KeySym, text: String) {
        switch Int32(truncatingIfNeeded: keysym) {
        case XK_space: self = .space
        case XK_Left, XK_KP_Left: self = .left
        case XK_Right, XK_KP_Right: self = .right
        case XK_Up, XK_KP_Up: self = .up
        case XK_Down, XK_KP_Down: self = .down
        case XK_Escape: self = .escape
        case XK_Return, XK_KP_Enter: self = .return
        case XK_Tab: self = .tab
        case XK_BackSpace: self = .backspace
        default:
            guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else { return nil }
            self = .character(text)
        }
    }
}
