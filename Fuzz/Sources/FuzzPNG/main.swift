import ImageCodecs
import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

// SwiftPM's entry point is this file's top-level code: hand over to libFuzzer's driver.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzPNG(data ?? UnsafePointer(bitPattern: 1)!, size) })

/// One fuzz input (also exported as LLVMFuzzerTestOneInput, which libFuzzer's runtime needs): any byte string is decoded; an error is a fine outcome, a trap,
/// crash, leak or hang is not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? PNGCodec.decode(buffer: UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
