import Export
import Foundation
import ImageCodecs
import QuartzCore

/// Outputs a user can ask for that once cost without bound or left files behind: the largest
/// PNG a frame can be, and hidden temporary files of writers that are gone.
extension BadInputCase {
    static let outputCases: [BadInputCase] = [
        BadInputCase("png-32768-by-8192-exported", area: "cost", expected: "wrote 32768×8192 within the frame and a strip of cells", seconds: 300) {
            try exportedLargePNG()
        },
        BadInputCase("stale-temporary-of-a-reused-pid-removed", area: "files",
                     expected: "removed the leftover older than its PID's process, kept the running writer's") {
            try reusedPIDLeftover()
        },
    ]

    /// A 16 384 × 4 096-point gradient with circles on it, exported at scale 2 to a PNG (the
    /// largest frame, 32 768 pixels wide, 1 GiB of pixels); checks the file's header and that
    /// the peak resident size grew by at most the frame, one strip of the scan-conversion cells
    /// of the gradient's fill (`Rasterizer.defaultMaxCells`, 64 MiB) and 256 MiB while it was
    /// drawn and encoded. Before, the renderer drew into a frame of its own that was copied
    /// into the export's frame buffer (+3 244 MiB), then the gradient's cells covered the whole
    /// frame, 4 bytes a pixel (+2 219 MiB).
    static func exportedLargePNG() throws -> String {
        let size = CGSize(width: 16_384, height: 4_096)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-large-png-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let exporter = CAAnimationExporter(size: size, scale: 2) {
            let gradient = CAGradientLayer()
            gradient.frame = CGRect(origin: .zero, size: size)
            gradient.colors = [CGColor(red: 0.1, green: 0.3, blue: 0.8, alpha: 1), CGColor(red: 0.9, green: 0.6, blue: 0.2, alpha: 1)]
            gradient.startPoint = CGPoint(x: 0, y: 0)
            gradient.endPoint = CGPoint(x: 1, y: 1)
            for i in 0..<16 {
                let circle = CAShapeLayer()
                circle.path = CGPath(ellipseIn: CGRect(x: CGFloat(i) * 1_000 + 100, y: 1_000, width: 800, height: 800), transform: nil)
                circle.fillColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)
                gradient.addSublayer(circle)
            }
            return gradient
        }
        let start = peakResidentKiB()
        let path = folder + "/large.png"
        try exporter.export(to: .file(path), timeline: .still(at: 0))
        let grown = (peakResidentKiB() - start) / 1_024
        let header = try Array(Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped).prefix(24))
        let width = header.count == 24 ? Int(header[16]) << 24 | Int(header[17]) << 16 | Int(header[18]) << 8 | Int(header[19]) : 0
        let height = header.count == 24 ? Int(header[20]) << 24 | Int(header[21]) << 16 | Int(header[22]) << 8 | Int(header[23]) : 0
        let frameMiB = 32_768 * 8_192 * 4 / 1_048_576
        let figures = "peak +\(grown) MiB for a \(frameMiB) MiB frame"
        return grown <= frameMiB + 64 + 256 ? "wrote \(width)×\(height) within the frame and a strip of cells (\(figures))"
                                           : "wrote \(width)×\(height), \(figures)"
    }

    /// The process's peak resident size so far, in KiB.
    static func peakResidentKiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }

    /// A folder holding two temporaries named for PID 1, which runs for as long as the machine
    /// (or container) does: one last changed in 1970, before that process started — so a writer
    /// with that PID, gone since, left it and the PID was reused — and one changed now, as a
    /// running writer's would be. A PNG written into the folder must remove the first only.
    static func reusedPIDLeftover() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-reused-pid-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let old = ".old.png.citrine-1.AbCdEf", running = ".running.png.citrine-1.AbCdEf"
        for name in [old, running] { try Data([1]).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: folder + "/" + old)
        try OutputFile.write([1, 2, 3], to: folder + "/new.png")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        return left == [running, "new.png"] ? "removed the leftover older than its PID's process, kept the running writer's"
                                            : "left \(left)"
    }
}
