import Export
import Foundation
import QuartzCore
import Raster
import SnapshotTesting
import UIKit

extension Snapshotting where Value == CALayer, Format == UIImage {
    /// A snapshot strategy for comparing layers based on pixel equality, at the moment the
    /// layer's animations begin.
    public static var image: Snapshotting { .image() }

    /// A snapshot strategy for comparing a layer tree as presented `time` seconds after its
    /// animations begin, stored as PNG. The parameters are those of swift-snapshot-testing's
    /// `.image` strategies for iOS, plus the time.
    ///
    ///     assertSnapshot(of: layer, as: .image(at: 0.5, scale: 2, precision: 0.99, perceptualPrecision: 0.98))
    ///
    /// **Time.** The tree's pending transaction is committed, which gives the animations just
    /// added their begin time (as on iOS), and the tree is presented at the earliest begin time
    /// of its animations plus `time`, through `CAAnimationExporter` (delegate callbacks run,
    /// finished animations are removed, as a display shows it). Counting from the commit rather
    /// than from when the animations were added (the exporter's `defaultStart`) makes the picture
    /// the same on every run: a test never sets a clock, as iOS code never does. Animations are
    /// found by `animationKeys()`; a tree with none (or only keyless ones) counts from
    /// `defaultStart`. For a tree built and committed at manual time 0
    /// (`CAMediaClock.setManualTime(0)`), `time` is the media time itself.
    ///
    /// **Picture.** The layer is the root of the picture, drawn at its `position` over a
    /// transparent background (iOS's strategy draws the layer in its own space instead; here an
    /// animated position shows). Each call renders once: snapshot a fresh tree per assertion when
    /// the time matters, since presenting it moves its animations along.
    ///
    /// - Parameters:
    ///   - time: Seconds after the tree's animations begin.
    ///   - scale: Pixels per point (nil: the main screen's scale, 2 by default, as iOS's strategy
    ///     takes the display scale). A reference is rendered and read back at this scale.
    ///   - precision: The share of pixels that must match (see `Diffing<UIImage>.image`).
    ///   - perceptualPrecision: How closely a pixel must match to count as matching: 1 is equal
    ///     bytes, 0.98 allows a colour difference of ΔE 2 (see `PerceptualDifference`).
    ///   - size: The picture's size in points (nil: as far as the layer's frame reaches from the
    ///     origin, as `makeScene(for:size:)` takes it).
    public static func image(at time: CFTimeInterval = 0, scale: CGFloat? = nil, precision: Float = 1,
                             perceptualPrecision: Float = 1, size: CGSize? = nil) -> Snapshotting {
        stillStrategy(at: time, scale: scale, precision: precision, perceptualPrecision: perceptualPrecision) { layer in
            (makeScene(for: layer, size: size), {})
        }
    }
}

extension Snapshotting where Value == UIView, Format == UIImage {
    /// A snapshot strategy for comparing views based on pixel equality, at the moment the view's
    /// animations begin.
    public static var image: Snapshotting { .image() }

    /// A snapshot strategy for comparing a view as shown `time` seconds after its animations
    /// begin, stored as PNG: the view is placed at the origin of a new white key window of
    /// `size` (nil: the view's size), as iOS's strategy places it, and the window's run loop
    /// turns (layout, display links, `UIView.animate` completions, the commit) up to that time
    /// through the Scene module, as an export would (`makeScene(for:size:)`,
    /// `CAAnimationExporter`). Afterwards the window is hidden and the view goes back to its
    /// former superview and frame, if it had one. See the `CALayer` strategy for time, scale and
    /// the precisions.
    public static func image(at time: CFTimeInterval = 0, scale: CGFloat? = nil, precision: Float = 1,
                             perceptualPrecision: Float = 1, size: CGSize? = nil) -> Snapshotting {
        stillStrategy(at: time, scale: scale, precision: precision, perceptualPrecision: perceptualPrecision) { view in
            let formerSuperview = view.superview
            let formerIndex = formerSuperview?.subviews.firstIndex { $0 === view }
            let formerFrame = view.frame
            let scene = makeScene(for: view, size: size)
            return (scene, {
                (scene as? WindowScene)?.window.isHidden = true
                view.removeFromSuperview()
                if let formerSuperview, let formerIndex {
                    formerSuperview.insertSubview(view, at: formerIndex)
                    view.frame = formerFrame
                }
            })
        }
    }
}

/// The strategy shared by layers and views: `hosting` gives the scene that shows a value and what
/// to undo once it is drawn; the scene is drawn `time` seconds after its animations begin.
private func stillStrategy<Value>(at time: CFTimeInterval, scale: CGFloat?, precision: Float, perceptualPrecision: Float,
                                  hosting: @escaping (Value) -> ((any HostedScene)?, () -> Void))
    -> Snapshotting<Value, UIImage> {
    let scale = scale.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? UIScreen.main.scale
    return SimplySnapshotting.image(precision: precision, perceptualPrecision: perceptualPrecision, scale: scale)
        .pullback { value in
            let (scene, undo) = hosting(value)
            defer { undo() }
            guard let scene else { return UnavailableImage(reason: "No scene could be made for \(type(of: value)).") }
            return renderStill(scene, at: time, scale: scale)
        }
}

/// One frame of `scene` at `time` seconds after its animations begin (see the `CALayer`
/// strategy), drawn on the calling thread.
private func renderStill(_ scene: any HostedScene, at time: CFTimeInterval, scale: CGFloat) -> UIImage {
    let exporter = CAAnimationExporter(scene: scene, scale: scale)   // commits the tree
    exporter.threads = 1
    let start = earliestBeginTime(in: scene.rootLayer) ?? exporter.defaultStart
    do {
        var still: Pixmap?
        try exporter.forEachFrame(.still(at: start + time)) { frame in
            // The exporter reuses its pixmap after the call: keep a copy.
            let copy = try Pixmap(width: frame.pixmap.width, height: frame.pixmap.height)
            copy.pixels.update(from: frame.pixmap.pixels, count: frame.pixmap.width * frame.pixmap.height * 4)
            still = copy
        }
        guard let still else { return UnavailableImage(reason: "The renderer produced no frame.") }
        return UIImage(cgImage: CGImage(pixmap: still), scale: scale, orientation: .up)
    } catch {
        return UnavailableImage(reason: "The snapshot could not be rendered: \(error)")
    }
}

/// The earliest begin time, as a media time, of the committed animations in `root`'s tree (its
/// sublayers and masks, recursively) that `animationKeys()` lists; nil when there are none.
func earliestBeginTime(in root: CALayer) -> CFTimeInterval? {
    var earliest: CFTimeInterval?
    var pending = [root]
    while let layer = pending.popLast() {
        for key in layer.animationKeys() ?? [] {
            guard let animation = layer.animation(forKey: key) else { continue }
            let begin = layer.convertTime(animation.beginTime, to: nil)
            if begin.isFinite { earliest = min(earliest ?? begin, begin) }
        }
        pending.append(contentsOf: layer.sublayers ?? [])
        if let mask = layer.mask { pending.append(mask) }
    }
    return earliest
}
