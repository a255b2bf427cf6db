import Foundation
import QuartzCore

/// A frame number of an animation's timeline (lottie-ios's `AnimationFrameTime`).
public typealias AnimationFrameTime = CGFloat
/// A fraction of an animation's timeline, 0 to 1 (lottie-ios's `AnimationProgressTime`).
public typealias AnimationProgressTime = CGFloat

/// A Bodymovin (Lottie) animation read from JSON, with lottie-ios's name and API: load it, then
/// show it with `LottieAnimationLayer` or `LottieAnimationView`.
///
///     let animation = try LottieAnimation.from(data: data)
///     let view = LottieAnimationView(animation: animation)
///     view.loopMode = .loop
///     view.play()
///
/// Loading reads and checks the whole file and builds its layer tree once, so every error —
/// a malformed value (named by its JSON path), a parent or precomp cycle, a file past the limits
/// of README: Lottie — is reported here rather than when it plays.
public final class LottieAnimation: Sendable {
    let composition: LottieComposition

    private init(_ composition: LottieComposition) throws(LottieError) {
        self.composition = composition
        _ = try LayerImporter(composition).makeContainer()
    }

    /// Reads Bodymovin JSON; throws `LottieError` naming what is wrong and where. Image files
    /// the animation names are looked for in the current folder.
    public static func from(data: Data) throws -> LottieAnimation {
        try checked(data)
    }

    /// `from(data:)` with its error typed; image files are looked for in `directory` (nil: the
    /// current folder).
    package static func checked(_ data: Data, directory: String? = nil) throws(LottieError) -> LottieAnimation {
        var composition = try LottieComposition(JSONNode.parse(data))
        composition.directory = directory
        return try LottieAnimation(composition)
    }

    /// The animation in the JSON file at `filepath` (its image files beside it); nil when it
    /// cannot be read or imported (as lottie-ios).
    public static func filepath(_ filepath: String) -> LottieAnimation? {
        guard let data = FileManager.default.contents(atPath: filepath) else { return nil }
        return try? checked(data, directory: URL(fileURLWithPath: filepath).deletingLastPathComponent().path)
    }

    /// `name`.json (or `name` itself when it has an extension) in `bundle`, optionally in `subdirectory`.
    public static func named(_ name: String, bundle: Bundle = .main, subdirectory: String? = nil) -> LottieAnimation? {
        let ext = (name as NSString).pathExtension.isEmpty ? "json" : nil
        guard let url = bundle.url(forResource: name, withExtension: ext, subdirectory: subdirectory) else { return nil }
        return filepath(url.path)
    }

    /// The first frame played (`ip`).
    public var startFrame: AnimationFrameTime { composition.inPoint }
    /// The frame the animation ends at (`op`): frames [startFrame, endFrame) are shown.
    public var endFrame: AnimationFrameTime { composition.outPoint }
    /// Frames per second (`fr`).
    public var framerate: Double { composition.frameRate }
    /// Seconds from `startFrame` to `endFrame`.
    public var duration: TimeInterval { (composition.outPoint - composition.inPoint) / composition.frameRate }
    /// The composition's size in points (`w`, `h`).
    public var size: CGSize { CGSize(width: composition.width, height: composition.height) }
    /// The Bodymovin version that wrote the file (`v`).
    public var version: String { composition.version ?? "" }

    /// Citrine's addition: what the file uses that this importer leaves out (masks, effects,
    /// expressions, …), each once, with the JSON path where it was first seen.
    public var unsupportedFeatures: [(feature: String, path: String)] { composition.unsupported }

    /// The number of layers in the composition and its precomps (each precomp counted once).
    public var layerCount: Int { composition.layers.count + composition.precomps.values.reduce(0) { $0 + $1.count } }

    /// The composition's layer tree, its time running from frame 0 at local time 0 (seconds).
    package func makeContainer() -> CALayer {
        // Checked when loaded: the same composition builds the same way.
        (try? LayerImporter(composition).makeContainer()) ?? CALayer()
    }
}
