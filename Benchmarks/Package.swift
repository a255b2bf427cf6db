// swift-tools-version:6.0
// Citrine's benchmark package, kept out of the main build and CI (see ../DESIGN notes: swift-nio
// style). Renders the anchor scenes (../shared/bench/anchors/scenes.md) with Citrine's Raster
// and prints timings as JSON; `../scripts/bench` runs it interleaved with the anchor engines.
//
//     swift build -c release --package-path Benchmarks
//     Benchmarks/.build/release/anchor-bench --scene S1,S2 --json out.json
import Foundation
import PackageDescription

/// A path dependency's package identity is its folder's name, which depends on the clone.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "CitrineBenchmarks",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "anchor-bench",
            dependencies: [
                .product(name: "AnchorScenes", package: rootFolder),
                .product(name: "Raster", package: rootFolder),
                .product(name: "ImageCodecs", package: rootFolder),
            ],
            path: "Sources/AnchorBench"
        ),
        // Counts heap allocations (replaces glibc's malloc family in the executables linking it).
        .target(name: "MallocCounter", path: "Sources/MallocCounter"),
        // Presentation evaluation of 100 000 layers with two running animations each.
        .executableTarget(
            name: "presentation-bench",
            dependencies: [.product(name: "QuartzCore", package: rootFolder), "MallocCounter"],
            path: "Sources/PresentationBench"
        ),
        // Frame timing shared by the layer benchmarks.
        .target(
            name: "FrameTiming",
            dependencies: [.product(name: "QuartzCore", package: rootFolder), .product(name: "Compositor", package: rootFolder)],
            path: "Sources/FrameTiming"
        ),
        // Scene S8 as a real CALayer tree, rendered by CARenderer over an animated sequence.
        .executableTarget(
            name: "layer-storm-bench",
            dependencies: [
                .product(name: "QuartzCore", package: rootFolder),
                .product(name: "Compositor", package: rootFolder),
                .product(name: "AnchorScenes", package: rootFolder),
                .product(name: "ImageCodecs", package: rootFolder),
                .product(name: "Raster", package: rootFolder),
                "FrameTiming",
            ],
            path: "Sources/LayerStormBench"
        ),
        // One frame on all cores: the same frames timed on 1 and on 2 threads in one run.
        .executableTarget(
            name: "band-bench",
            dependencies: [
                .product(name: "Demos", package: rootFolder),
                .product(name: "UIKit", package: rootFolder),
                .product(name: "QuartzCore", package: rootFolder),
                .product(name: "Compositor", package: rootFolder),
                .product(name: "AnchorScenes", package: rootFolder),
                "FrameTiming",
            ],
            path: "Sources/BandBench"
        ),
        // 200 intersecting planes in one 3D space, depth-sorted and cut every frame.
        .executableTarget(
            name: "planes-bench",
            dependencies: [
                .product(name: "AnchorScenes", package: rootFolder),
                .product(name: "QuartzCore", package: rootFolder),
                .product(name: "Compositor", package: rootFolder),
                .product(name: "ImageCodecs", package: rootFolder),
                "FrameTiming",
            ],
            path: "Sources/PlanesBench"
        ),
        // A CAEmitterLayer of 5 000 live particles at 1920×1080, rendered by CARenderer.
        .executableTarget(
            name: "emitter-bench",
            dependencies: [
                .product(name: "QuartzCore", package: rootFolder),
                .product(name: "Compositor", package: rootFolder),
                .product(name: "ImageCodecs", package: rootFolder),
                .product(name: "Raster", package: rootFolder),
                "FrameTiming",
            ],
            path: "Sources/EmitterBench"
        ),
        // A 1280×720 frame with a CATransition of each type against a plain frame.
        .executableTarget(
            name: "transition-bench",
            dependencies: [
                .product(name: "QuartzCore", package: rootFolder),
                .product(name: "Compositor", package: rootFolder),
                .product(name: "Raster", package: rootFolder),
                "MallocCounter",
            ],
            path: "Sources/TransitionBench"
        ),
        // A 1920×1080 five-second export to every format; the encoders against ffmpeg.
        .executableTarget(
            name: "export-bench",
            dependencies: [
                .product(name: "Demos", package: rootFolder),
                .product(name: "Export", package: rootFolder),
                .product(name: "ImageCodecs", package: rootFolder),
                .product(name: "QuartzCore", package: rootFolder),
                .product(name: "Raster", package: rootFolder),
            ],
            path: "Sources/ExportBench"
        ),
        // Lottie files imported and rendered frame by frame at 512×512 (scripts/bench-lottie runs it
        // beside rlottie and ThorVG).
        .executableTarget(
            name: "lottie-bench",
            dependencies: [
                .product(name: "Lottie", package: rootFolder),
                .product(name: "QuartzCore", package: rootFolder),
                .product(name: "Compositor", package: rootFolder),
                "FrameTiming",
            ],
            path: "Sources/LottieBench"
        ),
        // Every demo live in an X11 window, its scripted input replayed with xdotool.
        .executableTarget(
            name: "window-bench",
            dependencies: [
                .product(name: "Demos", package: rootFolder),
                .product(name: "UIKit", package: rootFolder),
                .product(name: "QuartzCore", package: rootFolder),
                .product(name: "WindowHost", package: rootFolder),
            ],
            path: "Sources/WindowBench"
        ),
    ]
)
