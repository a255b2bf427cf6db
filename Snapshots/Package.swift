// swift-tools-version:6.0
// Image snapshot strategies for Citrine's layers and views, for swift-snapshot-testing
// (pointfreeco), kept in a package of its own so that Citrine's core does not depend on it (as
// ../Benchmarks). Its documentation ("Custom strategies") invites strategies of one's own; its
// `.image` strategies exist for iOS, tvOS and macOS only.
//
//     swift test --package-path Snapshots
import Foundation
import PackageDescription

/// A path dependency's package identity is its folder's name, which depends on the clone.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "CitrineSnapshots",
    products: [
        .library(name: "CitrineSnapshotTesting", targets: ["CitrineSnapshotTesting"]),
    ],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        // `Snapshotting<CALayer, UIImage>` and `Snapshotting<UIView, UIImage>` `.image(at:…)`
        // strategies and `Diffing<UIImage>.image`: PNG references, a perceptual tolerance.
        .target(
            name: "CitrineSnapshotTesting",
            dependencies: [
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                .product(name: "UIKit", package: rootFolder),
                .product(name: "QuartzCore", package: rootFolder),
                .product(name: "Export", package: rootFolder),
                .product(name: "ImageCodecs", package: rootFolder),
                .product(name: "Raster", package: rootFolder),
            ]
        ),
        .testTarget(
            name: "CitrineSnapshotTestingTests",
            dependencies: [
                "CitrineSnapshotTesting",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                .product(name: "UIKit", package: rootFolder),
                .product(name: "QuartzCore", package: rootFolder),
                // Swift Testing's overlays for modules named UIKit and CoreGraphics.
                .product(name: "TestingOverlays", package: rootFolder),
            ],
            exclude: ["__Snapshots__"]
        ),
    ]
)
