import Raster

/// One anchor scene, built once, rendered per frame like the anchor harness's timed loop:
/// clear the whole canvas to opaque white, then draw everything with source-over.
public protocol AnchorScene: Sendable {
    /// "S1" … "S8".
    static var name: String { get }
    /// The harness's title ("circles", "bubble", …).
    static var title: String { get }
    var width: Int { get }
    var height: Int { get }
    /// Frames before the picture repeats (S2: 100 bubbles; others 1).
    var framesPerCycle: Int { get }
    /// Draws frame `frame` into `pixmap` (which must be `width`×`height`).
    func render(frame: Int, into pixmap: Pixmap)
}

extension AnchorScene {
    public var framesPerCycle: Int { 1 }
}

/// All scenes by name.
public enum AnchorSceneCatalog {
    public static let names = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"]

    /// Builds the scene called `name` ("S1" … "S8"), or nil.
    public static func make(_ name: String) -> (any AnchorScene)? {
        switch name {
        case S1Circles.name: return S1Circles()
        case S2Bubble.name: return S2Bubble()
        case S3Strokes.name: return S3Strokes()
        case S4Gradient.name: return S4Gradient()
        case S5ImageAffine.name: return S5ImageAffine()
        case S6RoundedRects.name: return S6RoundedRects()
        case S7ImagePerspective.name: return S7ImagePerspective()
        case S8LayerStorm.name: return S8LayerStorm()
        default: return nil
        }
    }
}

/// Opaque white, the background of every frame.
let white = PremultipliedColor(r: 255, g: 255, b: 255, a: 255)
