@testable import Compositor
import QuartzCore
import Raster
import Testing

/// Mid frames move the documented way, and the "from" picture is the whole subtree as presented.
@Suite(.serialized) struct TransitionMotionTests {
    static let green = (0, 153, 0), red = (255, 0, 0)

    /// Device x of the layer's left edge (scale 1) and its width.
    static let x0 = Int(TransitionScene.layerFrame.minX), w = Int(TransitionScene.layerFrame.width)

    @Test func pushFromRightMovesTheOldPictureLeftByPW() throws {
        // Old picture's left edge at −p·w: on row y = 90 (below both squares) the layer shows red
        // on [x0, x0 + (1 − p)·w) and green after; unclipped, the old picture's left part lies
        // left of the layer, from x0 − p·w.
        let scene = try TransitionScene(.push, .fromRight)
        for p in [0.25, 0.5, 0.75] {
            let frame = try scene.render(at: p)
            let oldLeft = Self.x0 - Int(p * Double(Self.w)), edge = Self.x0 + Int((1 - p) * Double(Self.w))
            if oldLeft >= 2 {   // (on the frame)
                #expect(frame.pixel(x: oldLeft + 1, y: 90).near(255, 0, 0), "p \(p)")
                #expect(frame.pixel(x: oldLeft - 2, y: 90).a == 0, "p \(p)")
            }
            #expect(frame.pixel(x: edge - 2, y: 90).near(255, 0, 0), "p \(p)")
            #expect(frame.pixel(x: edge + 1, y: 90).near(0, 153, 0), "p \(p)")
        }
    }

    /// Where the new picture shows at progress p (masksToBounds): the band of the layer on the
    /// subtype's side, p of its width or height deep — the same for moveIn, push and reveal.
    @Test(arguments: ["moveIn", "push", "reveal"]) func theNewPictureComesFromTheSubtypesSide(_ name: String) throws {
        let f = TransitionScene.layerFrame
        for subtype in [nil, CATransitionSubtype.fromLeft, .fromRight, .fromTop, .fromBottom] {
            let scene = try TransitionScene(CATransitionType(rawValue: name), subtype, masksToBounds: true)
            let frame = try scene.render(at: 0.25)
            // A point 10 % into the band, and one 10 % beyond it (both clear of the squares' rows
            // and columns where possible: probe along the layer's middle line).
            let (inside, outside): (CGPoint, CGPoint)
            switch subtype {
            case .fromRight: (inside, outside) = (CGPoint(x: f.maxX - 0.1 * f.width, y: f.minY + 5), CGPoint(x: f.maxX - 0.4 * f.width, y: f.minY + 5))
            case .fromTop: (inside, outside) = (CGPoint(x: f.minX + 5, y: f.minY + 0.1 * f.height), CGPoint(x: f.minX + 5, y: f.minY + 0.4 * f.height))
            case .fromBottom: (inside, outside) = (CGPoint(x: f.minX + 5, y: f.maxY - 0.1 * f.height), CGPoint(x: f.minX + 5, y: f.maxY - 0.4 * f.height))
            default: (inside, outside) = (CGPoint(x: f.minX + 0.1 * f.width, y: f.maxY - 5), CGPoint(x: f.minX + 0.4 * f.width, y: f.maxY - 5))
            }
            let label = "\(name) \(subtype?.rawValue ?? "nil (fromLeft)")"
            #expect(frame.pixel(x: Int(inside.x), y: Int(inside.y)).near(0, 153, 0), "\(label): new inside the band")
            #expect(frame.pixel(x: Int(outside.x), y: Int(outside.y)).near(255, 0, 0), "\(label): old beyond it")
        }
    }

    /// pageCurl starts at the subtype's edge (nil: UIKit's curl up, from the bottom-right
    /// corner; Apple: UIViewAnimationTransitionCurlUp "curls a view up from the bottom"): at 30 %
    /// the new picture shows just inside that edge, the old one at the opposite edge. Layer
    /// points, clear of both squares.
    @Test func pageCurlUncoversTheSubtypesSideFirst() throws {
        let cases: [(CATransitionSubtype?, new: CGPoint, old: CGPoint)] = [
            (nil, CGPoint(x: 117, y: 77), CGPoint(x: 3, y: 3)),
            (.fromBottom, CGPoint(x: 60, y: 77), CGPoint(x: 60, y: 3)),
            (.fromTop, CGPoint(x: 60, y: 3), CGPoint(x: 60, y: 77)),
            (.fromRight, CGPoint(x: 117, y: 40), CGPoint(x: 3, y: 40)),
            (.fromLeft, CGPoint(x: 3, y: 40), CGPoint(x: 117, y: 40)),
        ]
        for (subtype, new, old) in cases {
            let frame = try TransitionScene(.pageCurl, subtype).render(at: 0.3)
            let f = TransitionScene.layerFrame, label = subtype?.rawValue ?? "nil"
            #expect(frame.pixel(x: Int(f.minX + new.x), y: Int(f.minY + new.y)).near(0, 153, 0), "\(label): new")
            #expect(frame.pixel(x: Int(f.minX + old.x), y: Int(f.minY + old.y)).near(255, 0, 0), "\(label): old")
        }
    }

    /// The types iOS draws without a direction (community lists: "不支持过渡方向", no direction,
    /// for fade, rippleEffect, suckEffect and the camera irises) draw the same whatever the subtype.
    @Test(arguments: ["fade", "rippleEffect", "suckEffect", "cameraIris", "cameraIrisHollowOpen", "cameraIrisHollowClose"])
    func undirectedTypesIgnoreTheSubtype(_ name: String) throws {
        let reference = try TransitionScene(CATransitionType(rawValue: name)).render(at: 0.4)
        for subtype in [CATransitionSubtype.fromLeft, .fromRight, .fromTop, .fromBottom] {
            let frame = try TransitionScene(CATransitionType(rawValue: name), subtype).render(at: 0.4)
            #expect(maxDifference(frame, reference) == 0, "\(name) \(subtype.rawValue)")
        }
    }

    @Test func theAlignedAndPlainFlipAndCubeNamesDrawAsOglFlipAndCube() throws {
        // IBAnimatable pull request 152: on iOS, alignedFlip, alignedCube and oglFlip look the
        // same as flip and cube.
        for (alias, type) in [("flip", "oglFlip"), ("alignedFlip", "oglFlip"), ("alignedCube", "cube")] {
            let a = try TransitionScene(CATransitionType(rawValue: alias), .fromTop).render(at: 0.3)
            let b = try TransitionScene(CATransitionType(rawValue: type), .fromTop).render(at: 0.3)
            #expect(maxDifference(a, b) == 0, "\(alias)")
        }
    }

    @Test func aSublayerRemovedByTheTransactionShowsInTheEarlyFrames() throws {
        // The blue square (removed in the transition's transaction) is in the old picture.
        let scene = try TransitionScene(.fade)
        let square = (x: 40 + 30, y: 20 + 25)
        #expect(try scene.render(at: 0).pixel(x: square.x, y: square.y).near(0, 0, 255))
        let early = try scene.render(at: 0.1).pixel(x: square.x, y: square.y)
        // ≈ 0.9·blue + 0.1·green.
        #expect(early.near(0, 15, 230, tolerance: 3), "\(early)")
        // The yellow square (added by it) is only in the new picture.
        let added = (x: 40 + 90, y: 20 + 55)
        #expect(try scene.render(at: 0).pixel(x: added.x, y: added.y).near(255, 0, 0))
    }

    @Test func theOldPictureIsDrawnOnceAndBothBitmapsAreReused() throws {
        CAMediaClock.setManualTime(0)
        let scene = try TransitionScene(.cube, .fromRight)
        let renderer = try CARenderer(width: 200, height: 120)
        renderer.layer = scene.root
        var bitmaps: [(ObjectIdentifier, ObjectIdentifier)] = []
        for t in [0.2, 0.4, 0.6] {
            CAMediaClock.setManualTime(t)
            renderer.beginFrame(atTime: t); renderer.render(); renderer.endFrame()
            let state = try #require(scene.running?._renderState as? TransitionRenderState)
            let from = try #require(state.from), to = try #require(state.to)
            bitmaps.append((ObjectIdentifier(from.pixmap), ObjectIdentifier(to.pixmap)))
        }
        #expect(bitmaps.allSatisfy { $0 == bitmaps[0] })
    }

    @Test func anUnknownTypeIsAFadeAndIsReportedOnce() throws {
        final class Box: @unchecked Sendable { var messages: [String] = [] }
        let box = Box()
        let saved = CATransition._diagnostics
        CATransition._diagnostics = { box.messages.append($0) }
        defer { CATransition._diagnostics = saved }
        let unknown = try TransitionScene(CATransitionType(rawValue: "twirlOfTheTestSuite"))
        let again = try TransitionScene(CATransitionType(rawValue: "twirlOfTheTestSuite"))
        let fade = try TransitionScene(.fade)
        #expect(maxDifference(try unknown.render(at: 0.5), try fade.render(at: 0.5)) == 0)
        #expect(maxDifference(try again.render(at: 0.3), try fade.render(at: 0.3)) == 0)
        #expect(box.messages.count == 1)
        #expect(box.messages.first?.contains("twirlOfTheTestSuite") == true)
        #expect(CATransition().type == .fade && CATransition().subtype == nil)
    }

    @Test func theSubtreeIsSnapshottedWithItsSublayers() throws {
        // The source recorded by add(_:forKey:) holds the sublayer then present.
        let scene = try TransitionScene(.fade)
        let source = try #require(scene.running?._sourceLayer)
        #expect(source.sublayers?.count == 1)
        #expect(source.sublayers?.first?.backgroundColor == CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        #expect(source.backgroundColor == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    }
}
