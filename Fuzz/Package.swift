// swift-tools-version:6.0
// Citrine's fuzz targets, a package of their own like Benchmarks, so the main build
// and its tests never see the sanitizers. Each target is a libFuzzer entry point over one public
// API; `../scripts/fuzz TARGET SECONDS` builds them with -sanitize=fuzzer,address and runs one
// on its seed corpus (Corpus/TARGET). Crash inputs found are kept as regression cases in the
// main suite (Tests/BadInputCases), not here.
import Foundation
import PackageDescription

/// A path dependency's package identity is its folder's name, which depends on the clone.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "CitrineFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // libFuzzer's LLVMFuzzerRunDriver, declared for Swift.
        .target(name: "CFuzzerDriver", path: "Sources/CFuzzerDriver"),
        // runFuzzer: a target's main hands the process to that driver.
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"], path: "Sources/FuzzSupport"),
        // PNG bytes → PNGCodec.decode.
        .executableTarget(name: "fuzz-png", dependencies: [.product(name: "ImageCodecs", package: rootFolder), "FuzzSupport"],
                          path: "Sources/FuzzPNG"),
        // JPEG bytes → JPEGCodec.decode, strict and lenient.
        .executableTarget(name: "fuzz-jpeg", dependencies: [.product(name: "ImageCodecs", package: rootFolder), "FuzzSupport"],
                          path: "Sources/FuzzJPEG"),
        // Bytes → a CGPath (finite and non-finite coordinates) filled, stroked and dashed.
        .executableTarget(name: "fuzz-path", dependencies: [.product(name: "CoreGraphics", package: rootFolder), "FuzzSupport"],
                          path: "Sources/FuzzPath"),
        // Bytes → a layer tree (seven layer classes, properties, masks, animations, transactions)
        // drawn by a CARenderer at a few times.
        .executableTarget(name: "fuzz-layers", dependencies: [.product(name: "Compositor", package: rootFolder),
                                                              .product(name: "QuartzCore", package: rootFolder),
                                                              .product(name: "Raster", package: rootFolder), "FuzzSupport"],
                          path: "Sources/FuzzLayers"),
        // Bytes → a citrine command line, read up to the render command's plan (nothing drawn).
        .executableTarget(name: "fuzz-cli", dependencies: [.product(name: "CitrineCommands", package: rootFolder), "FuzzSupport"],
                          path: "Sources/FuzzCLI"),
        // Bytes → a Bodymovin file imported onto layers (Lottie) and drawn at two frames.
        .executableTarget(name: "fuzz-lottie", dependencies: [.product(name: "Lottie", package: rootFolder),
                                                              .product(name: "Compositor", package: rootFolder),
                                                              .product(name: "QuartzCore", package: rootFolder), "FuzzSupport"],
                          path: "Sources/FuzzLottie"),
    ]
)
