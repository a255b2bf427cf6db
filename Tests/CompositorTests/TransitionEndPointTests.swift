@testable import Compositor
import QuartzCore
import Raster
import Testing

/// Every type the compositor draws, with every subtype: progress 0 is the "before" rendering and
/// progress 1 the "after" rendering, within 1/255 per channel (the pictures are copied pixel for
/// pixel where they lie in place); startProgress / endProgress move both end points.
@Suite(.serialized) struct TransitionEndPointTests {
    static let types = ["fade", "moveIn", "push", "reveal", "cube", "oglFlip", "pageCurl", "pageUnCurl", "rippleEffect",
                        "suckEffect", "cameraIris", "cameraIrisHollowOpen", "cameraIrisHollowClose"]
    static let subtypes: [CATransitionSubtype?] = [nil, .fromLeft, .fromRight, .fromTop, .fromBottom]
    static let slides: Set<String> = ["moveIn", "push", "reveal"]

    @Test(arguments: types) func progressZeroIsBeforeAndOneIsAfter(_ name: String) throws {
        for subtype in Self.subtypes {
            for masks in [true, false] {
                let scene = try TransitionScene(CATransitionType(rawValue: name), subtype, masksToBounds: masks)
                // Unclipped slides put the other picture just outside the layer: compare inside it.
                let region = Self.slides.contains(name) && !masks ? TransitionScene.layerFrame : nil
                let first = try scene.render(at: 0)
                let last = try scene.render(at: 1)
                let after = try scene.renderAfter()
                let label = "\(name) \(subtype?.rawValue ?? "nil") masks \(masks)"
                #expect(maxDifference(first, scene.beforeImage, in: region) <= 1, "\(label): progress 0")
                #expect(maxDifference(last, after, in: region) <= 1, "\(label): progress 1")
            }
        }
    }

    @Test func atScaleTwoTheEndPointsAreExactToo() throws {
        for name in ["cube", "pageCurl", "fade", "push"] {
            let scene = try TransitionScene(CATransitionType(rawValue: name), .fromRight, masksToBounds: true, scale: 2)
            #expect(maxDifference(try scene.render(at: 0, scale: 2), scene.beforeImage) <= 1, "\(name)")
            let last = try scene.render(at: 1, scale: 2)
            #expect(maxDifference(last, try scene.renderAfter(scale: 2)) <= 1, "\(name)")
        }
    }

    @Test(arguments: types) func startAndEndProgressMoveTheEndPoints(_ name: String) throws {
        // Trimmed to 0.25…0.75 (Apple: "startProgress … the start point of the transition as a
        // fraction of the entire transition"): the first frame is the untrimmed frame at 0.25,
        // the last the untrimmed frame at 0.75 (linear timing: time fraction = progress).
        let type = CATransitionType(rawValue: name)
        let trimmed = try TransitionScene(type, .fromRight, masksToBounds: true, start: 0.25, end: 0.75)
        let first = try trimmed.render(at: 0), last = try trimmed.render(at: 1)
        let plain = try TransitionScene(type, .fromRight, masksToBounds: true)
        #expect(maxDifference(first, try plain.render(at: 0.25)) <= 1, "\(name) start")
        #expect(maxDifference(last, try plain.render(at: 0.75)) <= 1, "\(name) end")
        #expect(maxDifference(first, plain.beforeImage) > 8, "\(name): the trimmed start is not the before picture")
    }

    @Test func theStartProgressMayExceedTheEndProgress() throws {
        // Apple allows a reversed range; progress then runs backwards (start 1 → end 0).
        let reversed = try TransitionScene(.cube, .fromLeft, start: 1, end: 0)
        let plain = try TransitionScene(.cube, .fromLeft)
        #expect(maxDifference(try reversed.render(at: 0.3), try plain.render(at: 0.7)) <= 1)
    }
}
