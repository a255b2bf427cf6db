import ImageCodecs
import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

// SwiftPM's entry point is this file's top-level code: hand over to libFuzzer's driver.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzJPEG(data ?? UnsafePointer(bitPattern: 1)!, size) })

/// One fuzz input (also exported as LLVMFuzzerTestOneInput, which libFuzzer's runtime needs): any byte string is decoded strictly and leniently; an error is a
/// fine outcome, a trap, crash, leak or hang is not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    _ = try? JPEGCodec.decode(buffer: bytes)
    _ = try? JPEGCodec.decode(buffer: bytes, lenient: true)
    return 0
}
