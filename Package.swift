// swift-tools-version:6.0
// Citrine — Apple's Core Animation for Linux, in Swift.
// Module map (dependencies point one way; see ../shared/DESIGN.md §2). Apple's module names, so
// iOS code compiles unchanged (`import UIKit`, `import CoreGraphics`, `#if canImport(UIKit)`):
//   Raster ← CoreGraphics ← CoreText ← Compositor ← UIKit ← Scene ← Demos ← citrine
//            CoreGraphics ← QuartzCore ← Compositor, UIKit
//   CoreGraphics: Apple's Core Graphics subset over Raster; no codecs
//   CoreText (`import CoreText`, brings CoreGraphics): Core Text, and the text layout and glyph
//   outlines (FreeType, fontconfig) that Compositor's CATextLayer and UIKit's string drawing share
//   QuartzCore (brings CoreGraphics): layers, animations, timing, transactions
//   Compositor: the presentation tree to pixels (CATextLayer's text through CoreText)
//   UIKit (brings QuartzCore and Compositor): views, touches, gestures, UIView.animate, controls,
//   string drawing through CoreText, UIImage and CGImage(contentsOfFile:) through ImageCodecs
//   Raster ← ImageCodecs (PNG/JPEG over the system's zlib, libpng, libjpeg through CJPEGShim;
//   APNG and GIF out) ← UIKit, Export, citrine
//   UIKit ← Scene (one protocol for a tree that advances in time and takes input, one input
//   script, one driver and its clock rule; adapters for CALayer, UIView, UIViewController, UIWindow)
//   Scene, Compositor, ImageCodecs ← Export (frames over a time range → files, in parallel) ← citrine
//   Scene, Compositor ← WindowHost (an X11 window through Xlib/MIT-SHM: frames out, pointer events in)
//   ← citrine
//   C targets: CPrefetch ← Raster, QuartzCore, Compositor (software prefetch); CAtomicWords ← QuartzCore
//   (atomic words in raw memory); CKernels ← Raster (AVX2 and
//   AVX-512 versions of the hottest pixel loops, chosen at run time); CThreadStack ← QuartzCore (the calling
//   thread's stack bounds); CFreeType, CFontconfig ← CoreText; CZlib, CPNG, CJPEGShim ← ImageCodecs
//   _Testing_UIKit, _Testing_CoreGraphics (product TestingOverlays): Swift Testing's cross-import
//   overlays for modules of these names, for test targets only
//   CClassRuntime ← QuartzCore (instances of classes known at run time, through the Swift runtime)
//   UIKit ← PlaygroundSupport ← citrine (user code's `import PlaygroundSupport`)
//   QuartzCore, UIKit ← Lottie (Bodymovin JSON → layers and keyframe animations) ← citrine
//   "← citrine" above is the library CitrineCommands (the commands), the executable citrine its
//   main.swift (so that the fuzz package can feed the commands arguments)
import PackageDescription

/// The modules whose inner loops touch every pixel (Raster, ImageCodecs, Compositor; and CoreText,
/// whose glyph outlines were Compositor's code until text moved there) are optimized in debug
/// builds too: unoptimized, their SIMD and generic code runs about ten times
/// slower (`swift run citrine`, measured once each: the 18-demo gallery took 311 s of CPU with
/// none of them optimized; the 20-demo one 117 s with Raster alone and 11 s with all three), and
/// the debug build is what `swift run` and the tests use. Checks
/// stay on (`-O`, not `-Ounchecked`); release builds are unchanged.
let pixelLoops: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// Swift Testing's cross-import overlays for the modules named UIKit and CoreGraphics: every test
/// target that can see either module needs them (see the TestingOverlays product).
let testingOverlays: [Target.Dependency] = ["_Testing_UIKit", "_Testing_CoreGraphics"]

let package = Package(
    name: "Citrine",
    products: [
        .library(name: "QuartzCore", targets: ["QuartzCore"]),
        .library(name: "Compositor", targets: ["Compositor"]),
        .library(name: "CoreText", targets: ["CoreText"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        .library(name: "Export", targets: ["Export"]),
        .library(name: "Demos", targets: ["Demos"]),
        .library(name: "UIKit", targets: ["UIKit"]),
        .library(name: "Scene", targets: ["Scene"]),
        .library(name: "Lottie", targets: ["Lottie"]),
        // Swift Testing declares cross-import overlays for modules named UIKit and CoreGraphics
        // (the toolchain's Testing.swiftcrossimport); a test file importing Testing and UIKit
        // needs them: "no such module '_Testing_UIKit'" otherwise. For test targets only.
        .library(name: "TestingOverlays", targets: ["_Testing_UIKit", "_Testing_CoreGraphics"]),
        .library(name: "WindowHost", targets: ["WindowHost"]),
        // Test support: the anchor benchmark scenes (../shared/bench/anchors/scenes.md) as data.
        .library(name: "AnchorScenes", targets: ["AnchorScenes"]),
        .executable(name: "citrine", targets: ["citrine"]),
        .library(name: "CitrineCommands", targets: ["CitrineCommands"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "Raster", dependencies: ["CPrefetch", "CKernels"], swiftSettings: pixelLoops),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib"),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng"),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg"),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2"),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig"),
        // libjpeg reports errors by longjmp: a tiny C shim owns the setjmp so no Swift frame is
        // ever jumped over.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"], linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "ImageCodecs", dependencies: ["Raster", "CZlib", "CPNG", "CJPEGShim"], swiftSettings: pixelLoops),
        .target(name: "AnchorScenes", dependencies: ["Raster", "CoreGraphics", "QuartzCore"]),
        .target(name: "CoreGraphics", dependencies: ["Raster"]),
        // A header with a software prefetch: Raster's texture compositing, QuartzCore's
        // presentation of many layers.
        .target(name: "CPrefetch"),
        // A header with atomic loads, stores and a compare-exchange on words in raw memory:
        // QuartzCore's memo of a compiled animation program shared between layers.
        .target(name: "CAtomicWords"),
        // AVX2 and AVX-512 versions of Raster's hottest pixel loops (per-function target
        // attributes and a run-time check: no build flags), bit for bit the Swift loops' arithmetic.
        .target(name: "CKernels"),
        // The calling thread's stack bounds (glibc's pthread_getattr_np): how deep drawing and
        // hit testing may recurse on the caller's stack.
        .target(name: "CThreadStack"),
        // Instances of classes known only at run time (presentation copies of an app's layer
        // subclass, a view's `layerClass`) through the Swift runtime: what the Objective-C
        // runtime gives Core Animation on Apple.
        .target(name: "CClassRuntime"),
        .target(name: "QuartzCore", dependencies: ["CoreGraphics", "Raster", "CPrefetch", "CAtomicWords", "CThreadStack", "CClassRuntime"]),
        // `import CoreText`: Core Text's lines and frames, and the text layout and glyph outlines
        // (FreeType, fontconfig) that CATextLayer and UIKit's string drawing share.
        .target(name: "CoreText", dependencies: ["CoreGraphics", "Raster", "CFreeType", "CFontconfig"], swiftSettings: pixelLoops),
        .target(name: "Compositor", dependencies: ["QuartzCore", "CoreText", "Raster", "CPrefetch"], swiftSettings: pixelLoops),
        .target(name: "Demos", dependencies: ["Compositor", "QuartzCore", "Raster", "UIKit", "Scene"]),
        .target(name: "UIKit", dependencies: ["QuartzCore", "Compositor", "CoreText", "ImageCodecs", "Raster"]),
        .target(name: "Scene", dependencies: ["QuartzCore", "UIKit"]),
        // `import Lottie`: Bodymovin JSON imported onto QuartzCore layers and keyframe animations
        // (an importer, not a renderer), with lottie-ios's LottieAnimation / LottieAnimationView API.
        .target(name: "Lottie", dependencies: ["QuartzCore", "UIKit"]),
        .systemLibrary(name: "CX11", pkgConfig: "x11"),
        .target(name: "WindowHost", dependencies: ["Compositor", "QuartzCore", "Raster", "Scene", "CX11"]),
        .target(name: "Export", dependencies: ["Compositor", "CoreText", "QuartzCore", "ImageCodecs", "Raster", "Scene"]),
        // `import PlaygroundSupport` for user code that `citrine play/render FILE.swift` runs.
        .target(name: "PlaygroundSupport", dependencies: ["UIKit"]),
        // Exports its symbols (`--export-dynamic`): user code built into a library binds to the
        // running citrine's own UIKit, QuartzCore … when loaded (Sources/citrine/UserProgram.swift).
        // It depends on every module user code may import, so that all of them are linked in.
        // The commands, a library so that the fuzz package can feed them arguments
        // (`CitrineCommandLine.check`); `citrine` is its one-line main.swift (Sources/CitrineMain).
        .target(name: "CitrineCommands", dependencies: [
            "Demos", "Export", "ImageCodecs", "QuartzCore", "Scene", "WindowHost", "UIKit", "CoreGraphics", "CoreText", "Compositor",
            "PlaygroundSupport", "Lottie", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Sources/citrine"),
        .executableTarget(name: "citrine", dependencies: ["CitrineCommands"], path: "Sources/CitrineMain",
                          linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]),
        // Each is one line, `@_exported import Testing` (see the TestingOverlays product).
        .target(name: "_Testing_UIKit", path: "Sources/TestingOverlays/UIKit"),
        .target(name: "_Testing_CoreGraphics", path: "Sources/TestingOverlays/CoreGraphics"),
        .testTarget(name: "RasterTests", dependencies: ["Raster"]),
        // Test support shared by the test targets (an independent decoder: Pillow in a child process).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "Raster", "TestSupport"]),
        .testTarget(name: "CoreGraphicsTests", dependencies: testingOverlays + ["CoreGraphics", "Raster"]),
        .testTarget(name: "QuartzCoreTests", dependencies: testingOverlays + ["QuartzCore"]),
        .testTarget(name: "CompositorTests", dependencies: testingOverlays + ["Compositor", "QuartzCore", "CoreGraphics", "CoreText", "Raster",
                                                                   "TestSupport"]),
        .testTarget(name: "DemosTests", dependencies: testingOverlays + ["Demos", "ImageCodecs", "Raster", "QuartzCore", "UIKit", "Scene",
                                                              "Compositor", "AnchorScenes"],
                    exclude: ["Goldens"]),
        .testTarget(name: "UIKitTests", dependencies: testingOverlays + ["UIKit", "QuartzCore", "Compositor", "CoreText", "ImageCodecs", "Raster",
                                                              "Scene", "TestSupport"]),
        .testTarget(name: "WindowHostTests", dependencies: testingOverlays + ["WindowHost", "QuartzCore", "Compositor", "Raster", "TestSupport"]),
        .testTarget(name: "SceneTests", dependencies: testingOverlays + ["Scene", "Demos", "Export", "UIKit", "QuartzCore", "ImageCodecs", "Raster", "TestSupport"]),
        .testTarget(name: "ExportTests", dependencies: testingOverlays + ["Export", "ImageCodecs", "Raster", "QuartzCore", "Compositor", "CoreText",
                                                                  "TestSupport"]),
        // Runs the built `citrine` binary (help text, exports decoded back, exit codes).
        .testTarget(name: "CLITests", dependencies: ["citrine", "TestSupport"]),
        // Compiles every ```swift block of the README (ReadmeSnippets.swift, from scripts/readme-snippets).
        .testTarget(name: "ReadmeTests", dependencies: testingOverlays + ["QuartzCore", "Compositor", "ImageCodecs", "Export", "UIKit",
                                                                   "Scene", "WindowHost", "Lottie"]),
        // iOS-style snippets (Apple's documentation, common tutorials) that compile unchanged:
        // Tests/IOSSnippetsTests/Snippets in Swift 6 mode, with runtime tests of what they do, and
        // the same files (symbolic links) in Swift 5 mode.
        .testTarget(name: "IOSSnippetsTests", dependencies: testingOverlays + ["QuartzCore", "Compositor", "CoreText", "UIKit", "Raster",
                                                            "citrine-runloop-probe", "TestSupport"]),
        // The main run loop run by hand on a process's real main thread (a test's is the runner's).
        .executableTarget(name: "citrine-runloop-probe", dependencies: ["QuartzCore"], path: "Tests/RunLoopProbe"),
        .testTarget(name: "IOSSnippetsSwift5Tests", dependencies: testingOverlays + ["QuartzCore", "CoreText", "UIKit"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        // Bad inputs, each run in its own child process (`citrine-bad-input NAME`) so a
        // trap, hang or runaway allocation fails one test instead of the run (RELIABILITY.md).
        .target(name: "BadInputCases", dependencies: ["Compositor", "QuartzCore", "CoreGraphics", "ImageCodecs", "Raster", "UIKit",
                                                     "CoreText", "Export", "WindowHost", "Scene", "TestSupport", "CitrineCommands"],
                path: "Tests/BadInputCases"),
        .executableTarget(name: "citrine-bad-input", dependencies: ["BadInputCases"], path: "Tests/BadInputProbe"),
        .testTarget(name: "ReliabilityTests", dependencies: testingOverlays + ["BadInputCases", "citrine-bad-input", "TestSupport"]),
        // Files: hand-written Bodymovin files for scripts/lottie-compare (Citrine against rlottie and ThorVG).
        .testTarget(name: "LottieTests", dependencies: testingOverlays + ["Lottie", "QuartzCore", "Compositor", "UIKit", "Raster",
                                                                   "ImageCodecs"],
                    exclude: ["Files"]),
        .testTarget(name: "AnchorScenesTests", dependencies: ["AnchorScenes", "Raster", "ImageCodecs"],
                    exclude: ["Fixtures"]),
    ]
)
