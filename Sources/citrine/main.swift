// citrine — renders the seed tutorials' Core Animation demos to PNG strips.
//
//   citrine [--out DIR] [--frames N] [--scale S]
//
// Each demo is built with the public QuartzCore API, animated on the deterministic media clock
// and rendered by the Compositor at N evenly spaced times, side by side in DIR/<demo>.png.
import Demos
import Foundation
import QuartzCore

struct Options {
    var out = "gallery"
    var frames = 6
    var scale: CGFloat = 2

    static let usage = "usage: citrine [--out DIR] [--frames N (1…60)] [--scale S (1…3)]"

    init(_ args: [String]) throws {
        var it = args.makeIterator()
        while let arg = it.next() {
            switch arg {
            case "--out": out = try Self.value(it.next(), arg)
            case "--frames":
                guard let n = Int(try Self.value(it.next(), arg)), (1...60).contains(n) else { throw Failure("--frames takes 1…60") }
                frames = n
            case "--scale":
                guard let s = Double(try Self.value(it.next(), arg)), (1...3).contains(s) else { throw Failure("--scale takes 1…3") }
                scale = CGFloat(s)
            case "-h", "--help":
                print(Self.usage)
                exit(0)
            default: throw Failure("unknown argument '\(arg)'\n\(Self.usage)")
            }
        }
    }

    static func value(_ v: String?, _ flag: String) throws -> String {
        guard let v else { throw Failure("\(flag) needs a value") }
        return v
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    do {
        try FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
    } catch {
        throw Failure("cannot create the output folder '\(options.out)' (\((error as NSError).localizedDescription))")
    }
    let files = try Gallery.render(into: options.out, frames: options.frames, scale: options.scale)
    for (file, demo) in zip(files, Gallery.demos) { print("\(file)  — \(demo.summary)") }
} catch {
    FileHandle.standardError.write("citrine: \(error)\n".data(using: .utf8)!)
    exit(1)
}
