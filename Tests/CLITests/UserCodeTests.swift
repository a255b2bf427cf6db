import Foundation
import TestSupport
import Testing

/// `citrine render FILE.swift` and `FILE.playground`: the user's own code, compiled against
/// Citrine's modules, run, and its live view exported; compile errors, traps and a page that
/// shows nothing reported as the user's. Every test builds into its own cache folder
/// (`XDG_CACHE_HOME`).
@Suite(.serialized) struct UserCodeTests {
    /// A 12-dot replicator spinner whose dot shrinks 1 → 0.2 → 1 over 1 s, for ever, on white.
    static let spinner = """
        import PlaygroundSupport
        import UIKit

        let view = UIView(frame: CGRect(x: 0, y: 0, width: 120, height: 120))
        view.backgroundColor = .white
        let replicator = CAReplicatorLayer()
        replicator.frame = view.bounds
        replicator.instanceCount = 12
        replicator.instanceTransform = CATransform3DMakeRotation(2 * .pi / 12, 0, 0, 1)
        replicator.instanceDelay = 1.0 / 12
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        dot.position = CGPoint(x: 60, y: 20)
        dot.cornerRadius = 5
        dot.backgroundColor = UIColor.systemBlue.cgColor
        replicator.addSublayer(dot)
        view.layer.addSublayer(replicator)
        let shrink = CAKeyframeAnimation(keyPath: "transform.scale")
        shrink.values = [1, 0.2, 1]
        shrink.duration = 1
        shrink.repeatCount = HUGE
        dot.add(shrink, forKey: "shrink")
        PlaygroundPage.current.liveView = view

        """

    /// A folder holding `files` (name → text), and the environment that caches builds in it.
    static func workspace(_ files: [String: String]) throws -> (URL, [String: String]) {
        let folder = try TemporaryFolder.make()
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return (folder, Citrine.environment(["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]))
    }

    /// Straight RGBA of pixel (x, y).
    static func pixel(_ picture: Picture, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * picture.width + x) * 4
        return Array(picture.rgba[i..<i + 4])
    }

    @Test func aPageIsRenderedFromTheMomentItsCodeRan() throws {
        let (folder, environment) = try Self.workspace(["Spinner.swift": Self.spinner])
        defer { try? FileManager.default.removeItem(at: folder) }
        // Its span: the repeating keyframe animation through one cycle, 1 s (30 frames at 30 fps),
        // every frame different (each dot runs 1/12 s behind the one before).
        let run = try Citrine.run(["render", "Spinner.swift", "-o", "spin.gif", "--scale", "1"], in: folder,
                                  environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let gif = try PillowDecoder.decode(folder.appendingPathComponent("spin.gif").path)
        #expect(gif.frames.count == 30)
        #expect(Set(gif.frames.map(\.rgba)).count == 30)
        // Dot 0 (centred at (60, 20), no delay) has scale 1 at t = 0 and, halfway to 0.2 at
        // t = 0.25 (linear keyframes), 0.6: radius 5 → 3 points. Pixel (63, 21), whose centre is
        // √(3.5² + 1.5²) ≈ 3.81 points from the dot's, is wholly inside the first and wholly
        // outside the second (more than half a pixel's diagonal, 0.71, from both circles).
        for (time, inside) in [("0", true), ("0.25", false)] {
            let still = try Citrine.run(["render", "Spinner.swift", "-o", "t\(time).png", "--scale", "1", "--time", time],
                                        in: folder, environment: environment)
            #expect(still.status == 0, "\(still.stderr)")
            let picture = try Picture.still(folder.appendingPathComponent("t\(time).png"))
            #expect((picture.width, picture.height) == (120, 120))
            #expect(Self.pixel(picture, 60, 20) == [0, 122, 255, 255])           // systemBlue at the centre
            #expect(Self.pixel(picture, 63, 21) == (inside ? [0, 122, 255, 255] : [255, 255, 255, 255]), "t = \(time)")
        }
    }

    @Test func anUnchangedFileIsNotBuiltAgain() throws {
        let (folder, environment) = try Self.workspace(["Spinner.swift": Self.spinner])
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache/citrine/user-code")
        func builds() throws -> [String: Date] {
            var found: [String: Date] = [:]
            for entry in try FileManager.default.contentsOfDirectory(atPath: cache.path) where !entry.hasPrefix(".") {
                let library = cache.appendingPathComponent(entry).appendingPathComponent("libUserCode.so").path
                found[entry] = try FileManager.default.attributesOfItem(atPath: library)[.modificationDate] as? Date
            }
            return found
        }
        let first = try Citrine.run(["render", "Spinner.swift", "-o", "a.png", "--time", "0"], in: folder, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let built = try builds()
        #expect(built.count == 1)
        let second = try Citrine.run(["render", "Spinner.swift", "-o", "b.png", "--time", "0"], in: folder, environment: environment)
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second.stderr)")
        #expect(try builds() == built)
        // A changed file is a new build.
        try (Self.spinner + "dot.cornerRadius = 4\n").write(to: folder.appendingPathComponent("Spinner.swift"),
                                                             atomically: true, encoding: .utf8)
        let third = try Citrine.run(["render", "Spinner.swift", "-o", "c.png", "--time", "0"], in: folder, environment: environment)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(try builds().count == 2)
    }

    @Test func aTopLevelLayerNamedByViewIsShown() throws {
        let page = """
            import QuartzCore
            import UIKit

            let box = CALayer()
            box.frame = CGRect(x: 10, y: 10, width: 50, height: 30)
            box.backgroundColor = UIColor.systemRed.cgColor

            """
        let (folder, environment) = try Self.workspace(["Box.swift": page])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "Box.swift", "--view", "box", "-o", "box.png", "--scale", "1"], in: folder,
                                  environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        // A layer alone is drawn in its frame from the origin: 60 × 40 points.
        let picture = try Picture.still(folder.appendingPathComponent("box.png"))
        #expect((picture.width, picture.height) == (60, 40))
        #expect(Self.pixel(picture, 35, 25) == [255, 59, 48, 255])   // systemRed
        #expect(Self.pixel(picture, 5, 5)[3] == 0)                    // outside the layer: transparent
        // Without --view the page shows nothing, and says how to show something.
        let nothing = try Citrine.run(["render", "Box.swift", "-o", "none.png"], in: folder, environment: environment)
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("shows nothing") && nothing.stderr.contains("--view NAME"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("none.png").path))
    }

    @Test func aPlaygroundFolderBuildsItsSourcesWithItsPage() throws {
        let card = """
            import UIKit

            public final class CardView: UIView {
                public override init(frame: CGRect) {
                    super.init(frame: frame)
                    backgroundColor = .systemOrange
                }

                public required init?(coder: NSCoder) {
                    fatalError("init(coder:) has not been implemented")
                }
            }

            """
        let page = """
            import PlaygroundSupport
            import UIKit

            PlaygroundPage.current.liveView = CardView(frame: CGRect(x: 0, y: 0, width: 80, height: 50))

            """
        let (folder, environment) = try Self.workspace(["Card.playground/Contents.swift": page,
                                                        "Card.playground/Sources/CardView.swift": card])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "Card.playground", "-o", "card.png", "--scale", "1"], in: folder,
                                  environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let picture = try Picture.still(folder.appendingPathComponent("card.png"))
        #expect((picture.width, picture.height) == (80, 50))
        #expect(Self.pixel(picture, 40, 25) == [255, 149, 0, 255])   // systemOrange
    }

    @Test func aCompileErrorNamesTheUsersFileAndLine() throws {
        let page = "import UIKit\nlet v = UIView(frame: .zero)\nv.notAProperty = 3\n"
        let (folder, environment) = try Self.workspace(["Broken.swift": page])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "Broken.swift", "-o", "b.gif"], in: folder, environment: environment)
        #expect(run.status == 1)
        #expect(run.stderr.contains("Broken.swift:3:3: error:"), "\(run.stderr)")
        #expect(run.stderr.contains("citrine: Broken.swift does not compile"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("b.gif").path))
    }

    @Test func topLevelAwaitIsRefusedNotHung() throws {
        let page = "import UIKit\nfunc pause() async {}\nawait pause()\n"
        let (folder, environment) = try Self.workspace(["Await.swift": page])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "Await.swift", "-o", "a.png"], in: folder, environment: environment, timeout: 60)
        #expect(run.status == 1)
        #expect(run.stderr.contains("uses await at its top level"), "\(run.stderr)")
    }

    @Test func aTrapInTheUsersCodeIsReportedAsTheirs() throws {
        let page = "import UIKit\nlet empty: [Int] = []\nprint(empty[3])\n"
        let (folder, environment) = try Self.workspace(["Trap.swift": page])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "Trap.swift", "-o", "t.gif"], in: folder, environment: environment)
        // citrine itself ends normally with status 1, naming the signal its child stopped on.
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr.contains("Fatal error: Index out of range"))
        #expect(run.stderr.contains("citrine: Trap.swift stopped on signal SIGILL"), "\(run.stderr)")
    }
}

extension UserCodeTests {
    /// `needsIndefiniteExecution` keeps a page without a live view running after its top-level
    /// code — its dispatched work runs — until `finishExecution()` ends it (Apple's
    /// PlaygroundPage documentation).
    @Test func aPageThatNeedsIndefiniteExecutionRunsUntilItFinishes() throws {
        let page = """
            import Foundation
            import PlaygroundSupport

            PlaygroundPage.current.needsIndefiniteExecution = true
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) {
                print("later")
                PlaygroundPage.current.finishExecution()
            }
            print("now")

            """
        let (folder, environment) = try Self.workspace(["Later.swift": page])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "Later.swift", "-o", "later.png"], in: folder, environment: environment, timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output == "now\nlater\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("later.png").path))
    }
}
