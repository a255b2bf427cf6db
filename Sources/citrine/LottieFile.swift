import Export
import Foundation
import Lottie
import QuartzCore
import Scene

/// A Lottie (Bodymovin) file named where a demo's name goes — `citrine render anim.json`,
/// `info`, `play` — imported onto Core Animation layers by the Lottie module. What the file uses
/// that is not imported is warned about once per feature on standard error (`warnUnsupported`).
struct LottieFile {
    /// The path as given.
    let path: String
    let animation: LottieAnimation

    /// The file `argument` names when it ends in `.json` (nil otherwise: a demo or Swift code);
    /// a file that cannot be read or imported is an error naming the place in it.
    init?(argument: String) throws(Failure) {
        guard URL(fileURLWithPath: argument).pathExtension.lowercased() == "json" else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), !isFolder.boolValue else {
            throw Failure(.badInput, "no Lottie file at '\(argument)'")
        }
        guard let data = FileManager.default.contents(atPath: argument) else {
            throw Failure(.badInput, "cannot read '\(argument)'")
        }
        do {
            animation = try LottieAnimation.checked(data, directory: URL(fileURLWithPath: argument).deletingLastPathComponent().path)
        } catch {
            throw Failure(.badInput, "\(argument): \(error)")
        }
        path = argument
    }

    var name: String { URL(fileURLWithPath: path).lastPathComponent }

    /// `citrine: warning: anim.json: masks are not drawn (first at layers[2].masksProperties)`, once per feature.
    func warnUnsupported() {
        for (feature, where_) in animation.unsupportedFeatures {
            Terminal.write("citrine: warning: \(name): \(feature) not supported yet, left out (first at \(where_))\n")
        }
    }

    /// A new layer showing the animation, its top-left corner at the origin.
    private static func layer(_ animation: LottieAnimation) -> LottieAnimationLayer {
        let layer = LottieAnimationLayer(animation: animation)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        layer.anchorPoint = .zero
        layer.position = .zero
        return layer
    }

    /// What `render` draws: the animation from its start frame at media time 0, for its duration;
    /// each rendering thread builds its own layer tree.
    var subject: RenderSubject {
        let animation = animation
        return RenderSubject(name: name, size: animation.size, span: animation.duration) { scale in
            CAAnimationExporter(size: animation.size, scale: scale) {
                let layer = Self.layer(animation)
                layer.runFreely(from: 0)
                return layer
            }
        }
    }

    /// What `play` shows: the animation looping, played by its layer's display link.
    func makeScene() -> LayerScene {
        let layer = Self.layer(animation)
        layer.loopMode = .loop
        layer.play()
        let scene = LayerScene(rootLayer: layer, size: animation.size)
        scene.runsContinuously = true
        return scene
    }

    /// `info`'s lines: size, rate, frames, layers, and what is not imported.
    var summary: [String] {
        let a = animation
        var lines = [
            "\(name): Lottie \(a.version.isEmpty ? "(no version)" : a.version)",
            "\(LayerTree.number(a.size.width))x\(LayerTree.number(a.size.height)) points, "
                + "\(LayerTree.number(a.framerate)) fps, frames \(LayerTree.number(a.startFrame))–\(LayerTree.number(a.endFrame)) "
                + "(\(LayerTree.number(a.duration)) s), \(a.layerCount) layer\(a.layerCount == 1 ? "" : "s")",
        ]
        if a.unsupportedFeatures.isEmpty {
            lines.append("Unsupported features: none")
        } else {
            lines.append("Unsupported features (left out when drawn):")
            lines += a.unsupportedFeatures.map { "  \($0.feature) (first at \($0.path))" }
        }
        return lines
    }
}
