import AnchorScenes
import Compositor
import Demos
import Foundation
import Raster
import Testing
import UIKit

/// A frame drawn in bands on several threads (`CARenderer._renderThreads`) has the same bytes
/// as the frame drawn on one thread: the expected value is the one-thread frame, which draws
/// the tree in one pass over the whole frame.
@Suite(.serialized) struct BandTests {
    /// The frame of `layer` at `t` from a fresh renderer drawing on `threads` threads, and the
    /// number of bands it was drawn in.
    static func frame(_ layer: CALayer, size: CGSize, at t: CFTimeInterval, scale: CGFloat = 1,
                      threads: Int) throws -> (bytes: [UInt8], bands: Int) {
        let r = try CARenderer(width: Int(size.width.rounded()), height: Int(size.height.rounded()), scale: scale)
        r.layer = layer
        r.backgroundColor = Gallery.background
        r._renderThreads = threads
        r.beginFrame(atTime: t)
        r.render()
        r.endFrame()
        return (Self.bytes(r), r._lastFrameBands)
    }

    static func bytes(_ r: CARenderer) -> [UInt8] {
        Array(UnsafeBufferPointer(start: r.pixmap.pixels, count: r.pixmap.width * r.pixmap.height * 4))
    }

    /// Rows whose bytes differ between two frames of `width` pixels a row (for the failure message).
    static func differingRows(_ a: [UInt8], _ b: [UInt8], width: Int) -> String {
        let rows = Set(zip(a, b).enumerated().compactMap { $0.element.0 != $0.element.1 ? $0.offset / (width * 4) : nil })
        return rows.isEmpty ? "none" : "\(rows.count) rows, \(rows.min()!)…\(rows.max()!)"
    }

    /// Compares `layer` at `t` drawn on 2, 3 and 4 threads with one thread; returns the most
    /// bands any frame was drawn in.
    @discardableResult
    static func expectSameBytes(_ label: String, _ layer: CALayer, size: CGSize, at t: CFTimeInterval,
                                scale: CGFloat = 1) throws -> Int {
        let serial = try frame(layer, size: size, at: t, scale: scale, threads: 1)
        #expect(serial.bands == 1)
        var most = 1
        for threads in 2...4 {
            let banded = try frame(layer, size: size, at: t, scale: scale, threads: threads)
            most = max(most, banded.bands)
            let same = banded.bytes == serial.bytes
            #expect(same, "\(label) at t = \(t), \(threads) threads: \(differingRows(serial.bytes, banded.bytes, width: Int((size.width * scale).rounded())))")
        }
        return most
    }

    /// Every seed demo at three of its frames (10 fps: the third, the middle, the last), @2x:
    /// fresh renderers at 1…4 threads; and every frame through one renderer kept from frame to
    /// frame, as a window's is (retained bitmaps, damage patches), played once with 1 thread and
    /// once more with 3 (a layer's drawn content is drawn once per `setNeedsDisplay`, so the
    /// two renderers cannot share one play).
    @Test(arguments: SeedDemo.all.map(\.name))
    func seedDemo(_ name: String) throws {
        let demo = try #require(SeedDemo.named(name))
        let frames = Int((demo.span * 10).rounded()) + 1
        let size = demo.size
        func play(threads: Int, _ each: (UIWindow, CFTimeInterval, Int) throws -> Void) throws -> [[UInt8]] {
            let r = try CARenderer(width: Int(size.width.rounded()), height: Int(size.height.rounded()), scale: 2)
            r.backgroundColor = Gallery.background
            r._renderThreads = threads
            var shown: [[UInt8]] = []
            try demo.play(framesPerSecond: 10) { window, t in
                r.layer = window.layer
                r.beginFrame(atTime: t)
                r.render()
                r.endFrame()
                shown.append(Self.bytes(r))
                try each(window, t, shown.count - 1)
            }
            return shown
        }
        let serial = try play(threads: 1) { window, t, index in
            guard [2, frames / 2, frames - 1].contains(index) else { return }
            try Self.expectSameBytes("\(name) frame \(index)", window.layer, size: size, at: t, scale: 2)
        }
        let banded = try play(threads: 3) { _, _, _ in }
        #expect(serial.count == frames && banded.count == frames)
        for (index, (a, b)) in zip(serial, banded).enumerated() {
            let same = a == b
            #expect(same, "\(name) frame \(index), kept renderers: \(Self.differingRows(a, b, width: Int(size.width.rounded()) * 2))")
        }
    }

    /// The layer-only demos at the start, a third and two thirds of their span. Those with a
    /// replicator layer are drawn on one thread (`LayerRenderer+Bands`), the others in bands.
    @Test(arguments: LayerDemo.all.map(\.name))
    func layerDemo(_ name: String) throws {
        let demo = try #require(LayerDemo.all.first { $0.name == name })
        let root = LayerDemo.start(demo)
        var most = 1
        for t in [0, demo.span / 3, 2 * demo.span / 3] {
            CAMediaClock.setManualTime(t)
            most = max(most, try Self.expectSameBytes(name, root, size: demo.size, at: t, scale: 2))
        }
        let replicated: Set = ["volume-bars", "activity-indicator", "reflection"]
        #expect(replicated.contains(name) ? most == 1 : most > 1, "\(name): drawn in \(most) bands at most")
    }

    /// Emitter layers are drawn in bands (their particles computed once, before the bands draw,
    /// `LayerRenderer+Bands`): the fire and confetti demos at the middle of their span, @2x, in
    /// as many bands as threads, with the one-thread frame's bytes (`expectSameBytes`).
    @Test(arguments: ["fire", "confetti"])
    func emittersAreDrawnInBands(_ name: String) throws {
        let demo = try #require(SeedDemo.named(name))
        let middle = Int((demo.span * 5).rounded())
        var bands = 0, index = 0
        try demo.play(framesPerSecond: 10) { window, t in
            if index == middle { bands = try Self.expectSameBytes("\(name) frame \(index)", window.layer, size: demo.size, at: t, scale: 2) }
            index += 1
        }
        #expect(bands == 4, "\(name): drawn in \(bands) bands at most")
    }

    /// Scene S8 (1000 rounded, bordered, rotated, translucent layers, a fifth with an image and
    /// masksToBounds) as a layer tree at 1920×1080, as `layer-storm-bench` builds it.
    @MainActor @Test func layerStorm() throws {
        let root = S8LayerStorm.layerTree(animated: false)
        let bands = try Self.expectSameBytes("S8", root, size: root.bounds.size, at: 0)
        #expect(bands == 4)
    }

    /// Scene S8 animated through renderers kept from frame to frame, on one thread and on two:
    /// the two-thread renderer moves its band edge after every frame (`Bands.rebalance`: S8's
    /// halves do not cost the same), and every frame has the one-thread frame's bytes. The
    /// two-thread renderer evaluates S8's 1 000 root sublayers on both threads
    /// (`Bands.prepareConcurrently`: their presentation copies exist once their animations are
    /// added); it draws each frame before the one-thread renderer, so that those evaluations
    /// are the frame's first.
    @MainActor @Test func keptRendererMovesItsBandEdge() throws {
        let root = S8LayerStorm.layerTree(animated: true)
        let size = root.bounds.size
        func renderer(threads: Int) throws -> CARenderer {
            let r = try CARenderer(width: Int(size.width), height: Int(size.height))
            r.layer = root
            r.backgroundColor = Gallery.background
            r._renderThreads = threads
            return r
        }
        let serial = try renderer(threads: 1), banded = try renderer(threads: 2)
        var edges: Set<Int> = []
        for frame in 0..<4 {
            let t = Double(frame) / 60
            CAMediaClock.setManualTime(t)
            var shown: [[UInt8]] = []
            for r in [banded, serial] {
                r.beginFrame(atTime: t)
                r.render()
                r.endFrame()
                shown.append(Self.bytes(r))
            }
            #expect(banded._lastFrameBands == 2)
            #expect(banded._lastConcurrentlyPreparedSublayers == 1000)
            let same = shown[0] == shown[1]
            #expect(same, "S8 frame \(frame): \(Self.differingRows(shown[0], shown[1], width: Int(size.width)))")
            let rows = banded._nextBandRows
            #expect(rows.count == 2 && rows[0].lowerBound == 0 && rows[0].upperBound == rows[1].lowerBound
                    && rows[1].upperBound == Int(size.height))
            edges.insert(rows[1].lowerBound)
        }
        #expect(edges != [Int(size.height) / 2], "the band edge stayed at \(edges)")
    }

    /// A 200×200 tree with one red rounded layer that `style` dresses; drawn at 1…4 threads.
    func dressed(_ label: String, bands expected: Int = 4, _ style: (CALayer, CALayer) -> Void) throws {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let l = CALayer()
        l.frame = CGRect(x: 47.3, y: 41.7, width: 100, height: 110)
        l.backgroundColor = CGColor(red: 0.8, green: 0.1, blue: 0.1, alpha: 1)
        l.cornerRadius = 12
        root.addSublayer(l)
        style(root, l)
        CATransaction.commit()
        let bands = try Self.expectSameBytes(label, root, size: root.bounds.size, at: 0, scale: 1.5)
        #expect(bands == expected, "\(label): drawn in \(bands) bands")
    }

    /// Features whose drawing spans band edges: a blurred shadow, a mask, a group turned,
    /// perspective, a clipped subtree, a gradient, a stroked shape, text.
    @Test func featuresAcrossBandEdges() throws {
        try dressed("shadow") { _, l in
            l.shadowOpacity = 0.8; l.shadowRadius = 9; l.shadowOffset = CGSize(width: 3, height: 5)
        }
        try dressed("mask") { _, l in
            let m = CAShapeLayer()
            m.path = CGPath(ellipseIn: CGRect(x: 5, y: 5, width: 90, height: 100), transform: nil)
            l.mask = m
        }
        try dressed("group turned") { _, l in
            let child = CALayer()
            child.frame = CGRect(x: 20, y: 30, width: 50, height: 40)
            child.backgroundColor = CGColor(red: 0, green: 0.5, blue: 1, alpha: 1)
            l.addSublayer(child)
            l.opacity = 0.5
            l.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        }
        try dressed("perspective") { _, l in
            var m = CATransform3DIdentity
            m.m34 = -1 / 300
            l.transform = CATransform3DRotate(m, 0.7, 0.3, 1, 0)
            l.borderWidth = 3
            l.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        }
        try dressed("clipped") { _, l in
            l.masksToBounds = true
            let child = CAGradientLayer()
            child.frame = CGRect(x: -20, y: 10, width: 150, height: 70)
            child.colors = [CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGColor(red: 1, green: 1, blue: 0, alpha: 0.5)]
            child.transform = CATransform3DMakeRotation(-0.4, 0, 0, 1)
            l.addSublayer(child)
        }
        try dressed("shape") { root, _ in
            let s = CAShapeLayer()
            s.frame = root.bounds
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 10, y: 190))
            path.addCurve(to: CGPoint(x: 190, y: 10), control1: CGPoint(x: 30, y: -40), control2: CGPoint(x: 150, y: 240))
            s.path = path
            s.lineWidth = 7
            s.lineDashPattern = [12, 5]
            s.strokeColor = CGColor(red: 0.1, green: 0.6, blue: 0.2, alpha: 0.8)
            s.fillColor = CGColor(red: 0.9, green: 0.8, blue: 0.1, alpha: 0.4)
            root.addSublayer(s)
        }
        try dressed("text") { root, _ in
            let text = CATextLayer()
            text.frame = CGRect(x: 10, y: 60, width: 180, height: 90)
            text.string = "Bands of one frame"
            text.fontSize = 31
            text.isWrapped = true
            text.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            text.transform = CATransform3DMakeRotation(0.2, 0, 0, 1)
            root.addSublayer(text)
        }
        // A filter keeps state the bands cannot share: drawn on one thread, the same bytes.
        try dressed("blur filter", bands: 1) { _, l in
            let f = CAFilter(type: kCAFilterGaussianBlur)
            f.setValue(7.0, forKey: kCAFilterInputRadius)
            l.filters = [f]
        }
    }
}
