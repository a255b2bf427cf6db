@testable import Compositor
import Foundation
import QuartzCore
import Raster
import TestSupport
import Testing

/// Footprints brought up to date in place (`LayerRenderer.updateFootprints`): a layer whose
/// presentation stamp, place and ancestors are last frame's keeps its footprint without being
/// placed again. Checked against what cannot share its mistakes: at every frame of a random run
/// of changes (moves, hiding, opacity, order, colours, sizes, sublayers added and removed,
/// masks, shadows, clips, animations added and removed, time standing still), the footprints
/// the renderer keeps equal footprints worked out afresh from the tree, and its frame — patched
/// where it could — equals, byte for byte, the frame of a twin that keeps no footprints
/// (`footprintBudget` 0) and draws every frame whole. Every layer sits on whole device pixels
/// at every frame (even sizes, moves by whole points, discrete keyframes, no implicit
/// animations): a retained bitmap keeps the sub-pixel phase it was rasterized at
/// (`CARenderer._reusesBitmapsAcrossFrames`), so two renderers with different histories may
/// differ within antialiasing where layers sit between pixels; on whole pixels they agree exactly.
@Suite(.serialized) struct FootprintUpdateTests {
    static let size = (width: 200, height: 150)

    /// A random tree: a white root, three containers (one nested) and small coloured layers —
    /// plain, shape and gradient — in them and in the root.
    static func tree(_ rng: inout SplitMix64) -> (root: CALayer, layers: [CALayer], containers: [CALayer]) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: size.width, height: size.height)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        var containers = [root]
        for i in 0..<3 {
            let c = CALayer()
            c.frame = CGRect(x: 10 + 30 * i, y: 10 + 15 * i, width: 50, height: 40)
            containers[i == 2 ? 1 : 0].addSublayer(c)
            containers.append(c)
        }
        var layers: [CALayer] = []
        for i in 0..<24 {
            let l: CALayer
            switch i % 3 {
            case 0: l = CALayer()
            case 1:
                let s = CAShapeLayer()
                s.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 12, height: 9), transform: nil)
                s.fillColor = color(&rng)
                l = s
            default:
                let g = CAGradientLayer()
                g.colors = [color(&rng), color(&rng)]
                l = g
            }
            l.frame = CGRect(x: Double(rng.next() % 90), y: Double(rng.next() % 70), width: 6 + 2 * Double(rng.next() % 8),
                             height: 6 + 2 * Double(rng.next() % 8))
            l.backgroundColor = color(&rng)
            containers[Int(rng.next() % UInt64(containers.count))].addSublayer(l)
            layers.append(l)
        }
        return (root, layers, Array(containers.dropFirst()))
    }

    static func color(_ rng: inout SplitMix64) -> CGColor {
        CGColor(red: Double(rng.byte()) / 255, green: Double(rng.byte()) / 255, blue: Double(rng.byte()) / 255,
                alpha: [1, 1, 0.6][Int(rng.next() % 3)])
    }

    /// One random change of the tree.
    static func change(_ rng: inout SplitMix64, _ root: CALayer, _ layers: [CALayer], _ containers: [CALayer]) {
        let l = layers[Int(rng.next() % UInt64(layers.count))]
        let c = containers[Int(rng.next() % UInt64(containers.count))]
        switch rng.next() % 16 {
        case 0: l.position = CGPoint(x: l.position.x + Double(Int(rng.next() % 9) - 4), y: l.position.y + Double(rng.next() % 5) - 2)
        case 1: l.position.x += 1
        case 2: l.isHidden.toggle()
        case 3: l.opacity = [0, 0.5, 1][Int(rng.next() % 3)]
        case 4: l.zPosition = [-1, 0, 1][Int(rng.next() % 3)]
        case 5: l.backgroundColor = color(&rng)
        case 6: l.bounds.size = CGSize(width: 4 + 2 * Double(rng.next() % 10), height: 4 + 2 * Double(rng.next() % 10))
        case 7: l.removeFromSuperlayer()
        case 8: ([root] + containers)[Int(rng.next() % 4)].insertSublayer(l, at: UInt32(rng.next() % 4))
        case 9 where rng.next() % 2 == 0:
            // Whole points only (discrete keyframes): see the suite's note on sub-pixel phases.
            let a = CAKeyframeAnimation(keyPath: "position")
            a.values = [CGPoint(x: 7, y: -3), CGPoint(x: 2, y: 5)].map { CGPoint(x: l.position.x + $0.x, y: l.position.y + $0.y) }
            a.calculationMode = .discrete
            a.duration = 0.2
            l.add(a, forKey: "walk")
        case 9:
            let a = CABasicAnimation(keyPath: "opacity")
            a.byValue = -0.4 as CGFloat
            a.duration = 0.2
            l.add(a, forKey: "fade")
        case 10: l.removeAllAnimations()
        case 11: c.opacity = [1, 0.7][Int(rng.next() % 2)]
        case 12: c.masksToBounds.toggle()
        case 13: l.shadowOpacity = l.shadowOpacity > 0 ? 0 : 0.7
        case 14:
            if c.mask == nil {
                let m = CALayer()
                m.frame = CGRect(x: 5, y: 5, width: 30, height: 20)
                m.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                c.mask = m
            } else {
                c.mask = nil
            }
        default: c.position.y += 1
        }
    }

    /// Whether two footprint tables describe the same pictures (keys compared by their values:
    /// a table worked out afresh allocates new ones).
    static func same(_ a: LayerRenderer.Footprints, _ b: LayerRenderer.Footprints) -> Bool {
        a.count == b.count && a.allSatisfy { id, x in
            guard let y = b[id] else { return false }
            return x.picture.matrix == y.picture.matrix && x.picture.key.values == y.picture.key.values
                && x.picture.opacity == y.picture.opacity && x.picture.blendMode == y.picture.blendMode
                && x.picture.parent == y.picture.parent && x.picture.index == y.picture.index
                && x.reach == y.reach && x.content == y.content
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64]) func keptFootprintsAndPatchedFramesMatchFreshOnes(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        CAMediaClock.setManualTime(0)
        let (root, layers, containers) = Self.tree(&rng)
        CATransaction.flush()
        let patching = try CARenderer(width: Self.size.width, height: Self.size.height)
        let whole = try CARenderer(width: Self.size.width, height: Self.size.height)
        whole.footprintBudget = 0
        patching.layer = root
        whole.layer = root
        patching._renderThreads = 1
        whole._renderThreads = 1
        let frame = CGRect(x: 0, y: 0, width: Self.size.width, height: Self.size.height)
        var t: CFTimeInterval = 0, patched = 0, kept = 0
        for n in 0..<240 {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for _ in 0..<Int(rng.next() % 3) { Self.change(&rng, root, layers, containers) }
            CATransaction.commit()
            if rng.next() % 5 != 0 { t += 1.0 / 60 }
            CAMediaClock.setManualTime(t)
            for r in [patching, whole] {
                r.beginFrame(atTime: t)
                if r === whole { r.addUpdate(frame) }
                r.render()
                r.endFrame()
            }
            let bytes = Self.size.width * Self.size.height * 4
            if memcmp(patching.pixmap.pixels, whole.pixmap.pixels, bytes) != 0 {
                let levels = (0..<bytes).map { abs(Int(patching.pixmap.pixels[$0]) - Int(whole.pixmap.pixels[$0])) }
                let differing = levels.filter { $0 > 0 }.count, most = levels.max() ?? 0
                Issue.record("seed \(seed), frame \(n): \(differing) bytes differ from the frame drawn whole, by up to \(most)")
            }
            let area = patching._lastRedrawnArea
            if area != .zero && area != frame { patched += 1 }
            if let table = patching.footprints {
                let fresh = whole.renderer.footprints(of: root, at: t, reusing: nil)
                #expect(fresh.map { Self.same(table, $0) } == true, "seed \(seed), frame \(n): kept footprints differ from fresh ones")
                kept += 1
            }
        }
        // The run exercised what it checks: frames patched, footprints kept.
        #expect(patched > 40, "seed \(seed): \(patched) patched frames")
        #expect(kept > 100, "seed \(seed): \(kept) frames with footprints")
    }
}
