import Foundation

/// Why a Bodymovin (Lottie) file could not be imported: what is wrong and where, as a JSON path
/// inside the file (`layers[3].ks.p.k[2].t: expected a number`).
public struct LottieError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The JSON path of the value at fault (`layers[3].shapes[1].ks`); empty for the whole file.
    public let path: String
    /// What is wrong with it.
    public let reason: String

    package init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// The limits an imported file is held to, so that a hostile file is refused with a message
/// instead of taking unbounded memory or time (README: Lottie). Real After Effects exports are
/// far inside them: a 5 MB file has a few thousand keyframes.
package enum LottieLimits {
    /// The largest file read, in bytes (64 MiB).
    static let fileBytes = 64 << 20
    /// The deepest nesting of JSON arrays and objects.
    static let nesting = 128
    /// The largest magnitude of any number (coordinates, frames, percentages).
    static let magnitude = 1e9
    /// Layers made in all, after precomps are expanded (each use of a precomp makes its layers again).
    static let builtLayers = 100_000
    /// Keyframes of one property, and vertices of one path.
    static let elements = 1_000_000
    /// Samples of one property sampled per frame (a time-remapped precomp's, a polystar's …):
    /// past it the samples are spread evenly over the span.
    static let samples = 10_000
    /// Boolean operations merge paths run in one import (`ShapeImporter+MergePaths.swift`).
    static let mergeOperations = 1_000
    /// Precomps nested inside each other, and the length of a parent chain.
    static let depth = 64
}
