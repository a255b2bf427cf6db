import CitrineSnapshotTesting
import Foundation
import QuartzCore
import SnapshotTesting
import Testing
import UIKit

/// A card sliding right and fading in over one second: at t = 0.5 s it is halfway.
/// Built as iOS code builds it: no clock is set.
func slidingCard(color: CGColor = UIColor.systemBlue.cgColor) -> CALayer {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 120, height: 80)
    root.backgroundColor = UIColor(white: 0.95, alpha: 1).cgColor
    let card = CALayer()
    card.frame = CGRect(x: 10, y: 20, width: 40, height: 40)
    card.cornerRadius = 8
    card.backgroundColor = color
    root.addSublayer(card)
    let slide = CABasicAnimation(keyPath: "position.x")
    slide.fromValue = 30
    slide.toValue = 90
    slide.duration = 1
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 0.2
    fade.toValue = 1
    fade.duration = 1
    card.add(slide, forKey: "slide")
    card.add(fade, forKey: "fade")
    return root
}

/// The tests share process-wide state (the media clock, `UIApplication.shared`): one at a time.
@Suite(.serialized)
struct LayerSnapshotTests {
    /// The reference, __Snapshots__/LayerSnapshotTests/cardHalfway.t05.png, was recorded by this
    /// test on its first run and is verified on every run since.
    @Test func cardHalfway() {
        assertSnapshot(of: slidingCard(), as: .image(at: 0.5, scale: 2, precision: 0.99, perceptualPrecision: 0.98),
                       named: "t05")
    }

    /// Recording, then verifying, in one test (in a folder of its own).
    @Test func recordThenVerify() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-snapshots-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let strategy = Snapshotting<CALayer, UIImage>.image(at: 0.5, scale: 2)
        let recorded = verifySnapshot(of: slidingCard(), as: strategy, named: "card", record: .all, snapshotDirectory: folder.path)
        #expect(recorded?.contains("Record mode is on") == true)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1 && files[0].hasSuffix(".png"))
        #expect(verifySnapshot(of: slidingCard(), as: strategy, named: "card", record: .never, snapshotDirectory: folder.path) == nil)
    }

    /// A deliberately changed layer, and the same layer at another time, fail against the
    /// committed reference; a change below the perceptual tolerance does not.
    @Test func changesAreCaught() {
        let strategy = Snapshotting<CALayer, UIImage>.image(at: 0.5, scale: 2, precision: 0.99, perceptualPrecision: 0.98)
        func verify(_ layer: CALayer, as strategy: Snapshotting<CALayer, UIImage>) -> String? {
            verifySnapshot(of: layer, as: strategy, named: "t05", record: .never,
                           snapshotDirectory: Self.referenceFolder, testName: "cardHalfway()")
        }
        // Red instead of blue.
        let red = verify(slidingCard(color: UIColor.systemRed.cgColor), as: strategy)
        #expect(red?.contains("The percentage of pixels that match") == true, "\(red ?? "matched")")
        #expect(red?.contains("perceptual color precision") == true)
        // The same card 0.1 s later: moved 6 points and more opaque.
        let later = verify(slidingCard(), as: .image(at: 0.6, scale: 2, precision: 0.99, perceptualPrecision: 0.98))
        #expect(later != nil)
        // One unit of one channel off everywhere in the card: ΔE well under 2.
        let nearlyBlue = UIColor.systemBlue.cgColor.components!
        let shifted = CGColor(red: nearlyBlue[0], green: nearlyBlue[1], blue: nearlyBlue[2] - 1 / 255, alpha: 1)
        #expect(verify(slidingCard(color: shifted), as: strategy) == nil)
        // … which exact matching does catch.
        #expect(verify(slidingCard(color: shifted), as: .image(at: 0.5, scale: 2)) != nil)
        // A different scale is a different size.
        let size = verify(slidingCard(), as: .image(at: 0.5, scale: 1))
        #expect(size?.contains("does not match reference") == true)
    }

    /// A view with a `UIView.animate` block, halfway through.
    @Test func viewHalfway() {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 120, height: 80))
        view.backgroundColor = .white
        let badge = UIView(frame: CGRect(x: 10, y: 10, width: 30, height: 30))
        badge.backgroundColor = .systemGreen
        badge.layer.cornerRadius = 15
        view.addSubview(badge)
        // Layers created in the current transaction do not animate (as on iOS): commit them first,
        // as a run-loop turn would between building a view and animating it.
        CATransaction.flush()
        UIView.animate(withDuration: 1) {
            badge.center = CGPoint(x: 95, y: 55)
            badge.alpha = 0.5
        }
        assertSnapshot(of: view, as: .image(at: 0.5, scale: 2, precision: 0.99, perceptualPrecision: 0.98),
                       named: "t05")
    }

    /// __Snapshots__/LayerSnapshotTests beside this file.
    static var referenceFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__/LayerSnapshotTests").path
    }
}
