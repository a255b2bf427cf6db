import Compositor
import QuartzCore
import Raster
import Testing

/// No stale frames. A renderer keeps pictures between frames (retained leaf
/// bitmaps, drawn content, damage tracking); every property that changes pixels must invalidate
/// them. For every settable property of every layer class, changed once (without animation)
/// after a retained renderer has drawn the scene, the retained renderer's next frame must equal,
/// byte for byte, a fresh renderer's frame of the same tree (the independent reference: a
/// renderer with nothing retained cannot be stale).
@Suite(.serialized) struct NoStaleFramesTests {
    typealias Change = (name: String, apply: (CALayer) -> Void)

    static let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    static let orange = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    static let teal = CGColor(red: 0, green: 0.5, blue: 0.5, alpha: 0.8)

    static let image: CGImage = {
        let pm = try! Pixmap(width: 8, height: 6)
        for y in 0..<6 { for x in 0..<8 {
            pm.setPixel(x: x, y: y, PremultipliedColor(r: UInt8(x * 30), g: UInt8(y * 40), b: 200, a: 255))
        } }
        return CGImage(pixmap: pm)
    }()

    static let otherImage: CGImage = {
        let pm = try! Pixmap(width: 5, height: 5)
        pm.fill(with: PremultipliedColor(r: 0, g: 120, b: 0, a: 255))
        return CGImage(pixmap: pm)
    }()

    /// Every settable CALayer property (Apple's CALayer.h), each given a new value.
    static var layerChanges: [Change] { [
        ("bounds", { $0.bounds = CGRect(x: 2, y: 1, width: 50, height: 36) }),
        ("position", { $0.position = CGPoint(x: 44, y: 37) }),
        ("zPosition", { $0.zPosition = 5 }),
        ("anchorPoint", { $0.anchorPoint = CGPoint(x: 0.3, y: 0.6) }),
        ("anchorPointZ", { $0.anchorPointZ = 4 }),
        ("transform", { $0.transform = CATransform3DMakeRotation(0.3, 0, 0, 1) }),
        ("sublayerTransform", { $0.sublayerTransform = CATransform3DMakeTranslation(3, 2, 0) }),
        ("frame", { $0.frame = CGRect(x: 12, y: 9, width: 46, height: 30) }),
        ("isHidden", { $0.isHidden = true }),
        ("opacity", { $0.opacity = 0.6 }),
        ("backgroundColor", { $0.backgroundColor = orange }),
        ("borderWidth", { $0.borderWidth = 5 }),
        ("borderColor", { $0.borderColor = orange }),
        ("cornerRadius", { $0.cornerRadius = 14 }),
        ("maskedCorners", { $0.maskedCorners = [.layerMinXMinYCorner] }),
        ("cornerCurve", { $0.cornerCurve = .continuous }),
        ("masksToBounds", { $0.masksToBounds = true }),
        ("mask", { l in
            let m = CALayer()
            m.frame = CGRect(x: 0, y: 0, width: 20, height: 40)
            m.backgroundColor = black
            l.mask = m
        }),
        ("isDoubleSided", { l in l.isDoubleSided = false; l.transform = CATransform3DMakeRotation(.pi, 0, 1, 0) }),
        ("contents", { $0.contents = otherImage }),
        ("contentsRect", { $0.contentsRect = CGRect(x: 0.25, y: 0, width: 0.5, height: 1) }),
        ("contentsCenter", { $0.contentsCenter = CGRect(x: 0.4, y: 0.4, width: 0.2, height: 0.2) }),
        ("contentsScale", { $0.contentsScale = 2 }),
        ("contentsGravity", { $0.contentsGravity = .topLeft }),
        ("contentsFormat", { $0.contentsFormat = .gray8Uint }),
        ("minificationFilter", { $0.minificationFilter = .nearest }),
        ("magnificationFilter", { $0.magnificationFilter = .nearest }),
        ("minificationFilterBias", { $0.minificationFilterBias = 2 }),
        ("isOpaque", { $0.isOpaque = true }),
        // Citrine antialiases edges by default: turning them off shows on a turned layer.
        ("allowsEdgeAntialiasing", { l in l.allowsEdgeAntialiasing = false; l.transform = CATransform3DMakeRotation(0.2, 0, 0, 1) }),
        ("edgeAntialiasingMask", { l in l.edgeAntialiasingMask = [.layerLeftEdge]; l.transform = CATransform3DMakeRotation(0.2, 0, 0, 1) }),
        ("allowsGroupOpacity", { l in l.allowsGroupOpacity = false; l.opacity = 0.5 }),
        ("isGeometryFlipped", { $0.isGeometryFlipped = true }),
        ("shouldRasterize", { $0.shouldRasterize = true }),
        ("rasterizationScale", { l in l.shouldRasterize = true; l.rasterizationScale = 0.5 }),
        ("needsDisplayOnBoundsChange", { $0.needsDisplayOnBoundsChange = true }),
        ("drawsAsynchronously", { $0.drawsAsynchronously = true }),
        ("shadowOpacity", { $0.shadowOpacity = 0.7 }),
        ("shadowColor", { l in l.shadowOpacity = 0.7; l.shadowColor = orange }),
        ("shadowOffset", { l in l.shadowOpacity = 0.7; l.shadowOffset = CGSize(width: 4, height: 6) }),
        ("shadowRadius", { l in l.shadowOpacity = 0.7; l.shadowRadius = 6 }),
        ("shadowPath", { l in l.shadowOpacity = 0.7; l.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil) }),
        ("name", { $0.name = "renamed" }),
        ("style", { $0.style = ["backgroundColor": orange] }),
        ("beginTime", { $0.beginTime = 0.5 }),
        ("speed", { $0.speed = 2 }),
        ("timeOffset", { $0.timeOffset = 1 }),
        ("duration", { $0.duration = 3 }),
        ("repeatCount", { $0.repeatCount = 2 }),
        ("repeatDuration", { $0.repeatDuration = 2 }),
        ("autoreverses", { $0.autoreverses = true }),
        ("fillMode", { $0.fillMode = .both }),
        ("sublayers", { l in l.addSublayer(cell(CGRect(x: 4, y: 4, width: 12, height: 12), orange)) }),
    ] }

    static func cell(_ frame: CGRect, _ color: CGColor) -> CALayer {
        let l = CALayer()
        l.frame = frame
        l.backgroundColor = color
        return l
    }

    /// The properties each class adds (Apple's headers), each given a new value.
    static func classChanges(_ l: CALayer) -> [Change] {
        func on<L: CALayer>(_: L.Type, _ name: String, _ f: @escaping (L) -> Void) -> Change { (name, { f($0 as! L) }) }
        switch l {
        case is CAShapeLayer:
            return [
                on(CAShapeLayer.self, "path") { $0.path = CGPath(ellipseIn: CGRect(x: 5, y: 5, width: 30, height: 20), transform: nil) },
                on(CAShapeLayer.self, "fillColor") { $0.fillColor = orange },
                on(CAShapeLayer.self, "fillRule") { $0.fillRule = .evenOdd },
                on(CAShapeLayer.self, "strokeColor") { $0.strokeColor = orange },
                on(CAShapeLayer.self, "lineWidth") { $0.lineWidth = 7 },
                on(CAShapeLayer.self, "miterLimit") { $0.miterLimit = 1 },
                on(CAShapeLayer.self, "lineCap") { $0.lineCap = .round },
                on(CAShapeLayer.self, "lineJoin") { $0.lineJoin = .bevel },
                on(CAShapeLayer.self, "lineDashPattern") { $0.lineDashPattern = [4, 3] },
                on(CAShapeLayer.self, "lineDashPhase") { l in l.lineDashPattern = [4, 3]; l.lineDashPhase = 2 },
                on(CAShapeLayer.self, "strokeStart") { $0.strokeStart = 0.3 },
                on(CAShapeLayer.self, "strokeEnd") { $0.strokeEnd = 0.6 },
            ]
        case is CAGradientLayer:
            return [
                on(CAGradientLayer.self, "colors") { $0.colors = [orange, teal, black] },
                on(CAGradientLayer.self, "locations") { $0.locations = [0, 0.8] },
                on(CAGradientLayer.self, "startPoint") { $0.startPoint = CGPoint(x: 0, y: 0.2) },
                on(CAGradientLayer.self, "endPoint") { $0.endPoint = CGPoint(x: 1, y: 0.7) },
                on(CAGradientLayer.self, "type") { $0.type = .radial },
            ]
        case is CATextLayer:
            return [
                on(CATextLayer.self, "string") { $0.string = "Other" },
                on(CATextLayer.self, "font") { $0.font = "Courier" },
                on(CATextLayer.self, "fontSize") { $0.fontSize = 20 },
                on(CATextLayer.self, "foregroundColor") { $0.foregroundColor = orange },
                on(CATextLayer.self, "isWrapped") { $0.isWrapped = true },
                on(CATextLayer.self, "truncationMode") { $0.truncationMode = .end },
                on(CATextLayer.self, "alignmentMode") { $0.alignmentMode = .right },
            ]
        case is CAReplicatorLayer:
            return [
                on(CAReplicatorLayer.self, "instanceCount") { $0.instanceCount = 4 },
                on(CAReplicatorLayer.self, "preservesDepth") { $0.preservesDepth = true },
                on(CAReplicatorLayer.self, "instanceDelay") { $0.instanceDelay = 0.1 },
                on(CAReplicatorLayer.self, "instanceTransform") { $0.instanceTransform = CATransform3DMakeTranslation(6, 3, 0) },
                on(CAReplicatorLayer.self, "instanceColor") { $0.instanceColor = teal },
                on(CAReplicatorLayer.self, "instanceRedOffset") { $0.instanceRedOffset = -0.3 },
                on(CAReplicatorLayer.self, "instanceGreenOffset") { $0.instanceGreenOffset = -0.3 },
                on(CAReplicatorLayer.self, "instanceBlueOffset") { $0.instanceBlueOffset = -0.3 },
                on(CAReplicatorLayer.self, "instanceAlphaOffset") { $0.instanceAlphaOffset = -0.3 },
            ]
        case is CAScrollLayer:
            return [
                on(CAScrollLayer.self, "scrollMode") { $0.scrollMode = .horizontally },
                on(CAScrollLayer.self, "scroll(to:)") { $0.scroll(to: CGPoint(x: 5, y: 3)) },
            ]
        default:
            return []
        }
    }

    /// One layer of `kind`, with something of every part drawn (background, border, rounded
    /// corners, contents, a sublayer for the container classes, the class's own drawing).
    static func subject(_ kind: CALayer.Type) -> CALayer {
        let l = CALayer.make(kind)
        l.frame = CGRect(x: 10, y: 8, width: 60, height: 40)
        l.backgroundColor = teal
        l.borderWidth = 2
        l.borderColor = black
        l.cornerRadius = 6
        l.contents = image
        l.contentsGravity = .center
        if let s = l as? CAShapeLayer {
            s.path = CGPath(rect: CGRect(x: 8, y: 6, width: 40, height: 24), transform: nil)
            s.fillColor = black
            s.strokeColor = teal
            s.lineWidth = 3
        }
        if let g = l as? CAGradientLayer { g.colors = [black, orange] }
        if let t = l as? CATextLayer {
            t.string = "Text"
            t.fontSize = 14
            t.foregroundColor = black
        }
        if l is CAReplicatorLayer || l is CATransformLayer || l is CAScrollLayer {
            l.addSublayer(cell(CGRect(x: 2, y: 2, width: 14, height: 10), orange))
        }
        if let r = l as? CAReplicatorLayer {
            r.instanceCount = 2
            r.instanceTransform = CATransform3DMakeTranslation(18, 0, 0)
        }
        return l
    }

    static let classes: [CALayer.Type] = [CALayer.self, CAShapeLayer.self, CAGradientLayer.self, CATextLayer.self,
                                           CAReplicatorLayer.self, CATransformLayer.self, CAScrollLayer.self]

    static func frame(_ r: CARenderer) -> [UInt8] {
        r.beginFrame(atTime: 0); r.render(); r.endFrame()
        return Array(UnsafeBufferPointer(start: r.pixmap.pixels, count: r.pixmap.width * r.pixmap.height * 4))
    }

    /// Changes that turn the layer: the retained renderer shows a layer that turned since the
    /// last frame from a layer-space bitmap resampled under the new rotation (as while a rotation
    /// animates, `LayerRenderer.cachedLeaf`), the fresh one rasterizes it in device orientation;
    /// their edges differ by resampling (a stale, unturned picture would differ by up to 255).
    static let turning: Set<String> = ["transform", "allowsEdgeAntialiasing", "edgeAntialiasingMask"]

    /// Allowed difference otherwise: 2 levels — where a damaged patch is rasterized at another
    /// origin than the whole frame (coverage rounding), and where a layer changed right after a
    /// frame that showed it is drawn straight into the frame (`LayerRenderer.cachedLeaf`): its
    /// translucent paints (a gradient over a translucent background) then blend with the frame
    /// one after the other instead of first in its bitmap, each with its own 8-bit rounding.
    @Test(arguments: classes.map { String(describing: $0) })
    func retainedFrameEqualsFreshFrame(_ className: String) throws {
        let kind = try #require(Self.classes.first { String(describing: $0) == className })
        var stale: [String] = []
        let changes = Self.layerChanges + Self.classChanges(Self.subject(kind))
        for change in changes {
            CAMediaClock.setManualTime(0)
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 90, height: 60)
            let l = Self.subject(kind)
            root.addSublayer(l)
            let retained = try CARenderer(width: 90, height: 60)
            retained.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            retained.layer = root
            _ = Self.frame(retained)
            _ = Self.frame(retained)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            change.apply(l)
            CATransaction.commit()
            let after = Self.frame(retained)
            let fresh = try CARenderer(width: 90, height: 60)
            fresh.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            fresh.layer = root
            let worst = zip(Self.frame(fresh), after).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
            if worst > (Self.turning.contains(change.name) ? 96 : 2) { stale.append("\(change.name) (max \(worst))") }
        }
        #expect(stale.isEmpty, "\(className): stale after changing \(stale)")
        #expect(changes.count >= Self.layerChanges.count)
    }

    /// Draws a diagonal band (its content shows contentsFormat and flips).
    final class Drawn: CALayer {
        override func draw(in ctx: CGContext) {
            ctx.setFillColor(NoStaleFramesTests.orange)
            ctx.fill(CGRect(x: 0, y: 0, width: bounds.width / 2, height: bounds.height / 3))
        }
    }

    /// The options whose effect shows on drawn content or through a superlayer: set on a drawn
    /// layer or on the container (turned a little, so that its edges show aliasing) of a drawn
    /// layer and a plain one.
    static var containerChanges: [(name: String, apply: (_ container: CALayer, _ drawn: CALayer) -> Void)] { [
        ("contentsFormat", { _, d in d.contentsFormat = .gray8Uint }),
        ("cornerCurve", { c, _ in c.cornerRadius = 12; c.cornerCurve = .continuous }),
        ("isGeometryFlipped", { c, _ in c.isGeometryFlipped = true }),
        ("allowsGroupOpacity", { c, _ in c.opacity = 0.5; c.allowsGroupOpacity = false }),
        ("shouldRasterize", { c, _ in c.shouldRasterize = true }),
        ("rasterizationScale", { c, _ in c.shouldRasterize = true; c.rasterizationScale = 0.5 }),
        ("rasterized sublayer", { c, d in c.shouldRasterize = true; d.backgroundColor = black }),
        ("edgeAntialiasingMask", { c, _ in c.edgeAntialiasingMask = [.layerTopEdge] }),
        ("allowsEdgeAntialiasing", { c, _ in c.allowsEdgeAntialiasing = false }),
    ] }

    @Test(arguments: containerChanges.map(\.name))
    func retainedFrameEqualsFreshFrameForContainerOptions(_ name: String) throws {
        let change = try #require(Self.containerChanges.first { $0.name == name })
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 90, height: 60)
        let container = Self.cell(CGRect(x: 5, y: 5, width: 80, height: 50), Self.teal)
        container.transform = CATransform3DMakeRotation(0.1, 0, 0, 1)
        let drawn = Drawn()
        drawn.frame = CGRect(x: 4, y: 4, width: 40, height: 30)
        drawn.setNeedsDisplay()
        container.addSublayer(drawn)
        container.addSublayer(Self.cell(CGRect(x: 30, y: 20, width: 30, height: 20), Self.orange))
        root.addSublayer(container)
        let retained = try CARenderer(width: 90, height: 60)
        retained.layer = root
        let before = Self.frame(retained)
        _ = Self.frame(retained)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        change.apply(container, drawn)
        CATransaction.commit()
        let after = Self.frame(retained)
        let fresh = try CARenderer(width: 90, height: 60)
        fresh.layer = root
        let reference = Self.frame(fresh)
        let worst = zip(reference, after).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
        // Flipping mirrors the sublayers: like a turn, the retained renderer resamples their
        // layer-space bitmaps (see `turning`).
        #expect(worst <= (name == "isGeometryFlipped" ? 96 : 1), "\(name): stale (max \(worst))")
        let changesPicture = reference != before
        #expect(changesPicture, "\(name) changes the picture")
    }

    /// Changes of the tree alone — a sublayer removed, added, moved in front of its siblings —
    /// with no property written in the same transaction: each changes the picture, and the
    /// retained renderer's next frame shows it (such a frame once passed for an idle one, the
    /// tree's change count not counting sublayer changes).
    @Test(arguments: ["remove", "add", "reorder"])
    func treeChangesAloneAreDrawn(_ name: String) throws {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 90, height: 60)
        let back = Self.cell(CGRect(x: 10, y: 10, width: 40, height: 30), Self.orange)
        let front = Self.cell(CGRect(x: 30, y: 20, width: 40, height: 30), Self.teal)
        let spare = Self.cell(CGRect(x: 50, y: 5, width: 30, height: 20), Self.black)
        root.addSublayer(back)
        root.addSublayer(front)
        let retained = try CARenderer(width: 90, height: 60)
        retained.layer = root
        let before = Self.frame(retained)
        _ = Self.frame(retained)
        switch name {
        case "remove": front.removeFromSuperlayer()
        case "add": root.addSublayer(spare)
        default: root.addSublayer(back)
        }
        let after = Self.frame(retained)
        let fresh = try CARenderer(width: 90, height: 60)
        fresh.layer = root
        let reference = Self.frame(fresh)
        let changed = zip(reference, before).filter { $0 != $1 }.count
        let stale = zip(reference, after).filter { $0 != $1 }.count
        #expect(changed > 0, "\(name) changes the picture")
        #expect(stale == 0, "\(name): the retained renderer's frame is stale")
    }
}
