import CitrineCommands
import FuzzSupport

/// One fuzz input (exported as LLVMFuzzerTestOneInput too, which libFuzzer's runtime needs):
/// the bytes are a command line — arguments separated by 0 bytes, an argument that starts with
/// byte 1 being the word of `words` its next byte picks (so that options, demos and hostile
/// values are reached at once) — read by citrine as it reads its own arguments, up to the
/// `render` command's complete plan, without drawing or writing anything
/// (`CitrineCommandLine.check`). A trap is a finding, and so is an error message that names
/// neither an option nor a value the user gave: such a message stops the run here.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCLI(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let arguments = commandLine(UnsafeBufferPointer(start: data, count: size))
    guard let (message, status) = CitrineCommandLine.check(arguments), status != 0 else { return 0 }
    if !namesAnOptionOrValue(message, arguments) {
        fatalError("fuzz-cli: the error names no option or value: \(message)\narguments: \(arguments)")
    }
    return 0
}

/// Options, commands and values worth combining: every command and option of `citrine
/// --help` and its commands' help, demo names, and values at and past the limits. (Set before
/// `runFuzzer`, at the end: top-level code runs in order, and the driver never returns.)
let words = [
    "render", "play", "info", "demos", "gallery", "--help", "-h", "--version",
    "-o", "--output", "--format", "-y", "--overwrite", "-q", "--quiet", "--threads", "--fps", "--start", "--duration",
    "--end", "--frames", "--include-end", "--time", "--frame", "--scale", "--width", "--height", "--size", "--background",
    "--loop", "--dither", "--png-compression", "--font-dir", "--tap", "--drag", "--view", "--script", "--examples",
    "--fonts", "ball-loader", "volume-bars", "sticky-bubble", "reflection", "fold-image",
    "out.png", "out.gif", "out.apng", "out.mp4", "out.webm", "out.mov", "frames/%04d.png", "-", "%d/%d.png",
    "/nonexistent/x.png", "png", "png-sequence", "gif", "apng", "mp4",
    "0", "1", "-1", "2", "9", "10", "30", "0.001", "1e-300", "1e308", "-1e308", "nan", "inf", "-inf", "1e19",
    "30000/1001", "0/0", "1/0", "65536", "32768x8192", "0x0", "1x1", "100,120@0.5", "100,120:160,120@0.2+0.5",
    "nan,nan@nan", "1e308,1e308@1e308", "#FF0000", "#12345678", "transparent", "none", "ordered", "diffusion",
]

/// The arguments in `bytes` (see `fuzzCLI`).
func commandLine(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
    bytes.split(separator: 0, omittingEmptySubsequences: false).map { part in
        if part.first == 1, part.count >= 2 { return words[Int(part[part.startIndex + 1]) % words.count] }
        return String(decoding: part, as: UTF8.self)
    }
}

/// Whether `message` names what the user gave: one of the arguments (quoted, or unquoted when
/// longer than one character), an option (`--name`, or `-x` at the start of a word) or an
/// argument's placeholder (`<file>`).
func namesAnOptionOrValue(_ message: String, _ arguments: [String]) -> Bool {
    if arguments.contains(where: { message.contains("'\($0)'") || ($0.count > 1 && message.contains($0)) }) { return true }
    let scalars = Array(message.unicodeScalars)
    for (i, s) in scalars.enumerated() where s == "-" && i + 1 < scalars.count {
        let wordStart = i == 0 || " '\"(".unicodeScalars.contains(scalars[i - 1])
        let next = scalars[i + 1]
        if wordStart, next.properties.isAlphabetic || next == "-" && i + 2 < scalars.count && scalars[i + 2].properties.isAlphabetic {
            return true
        }
    }
    return message.contains("<") && message.contains(">")
}

runFuzzer { data, size in fuzzCLI(data ?? UnsafePointer(bitPattern: 1)!, size) }
