import ImageCodecs
import FuzzSupport

runFuzzer { data, size in fuzzPNG(data ?? UnsafePointer(bitPattern: 1)!, size) }

/// One fuzz input (exported as LLVMFuzzerTestOneInput too, which libFuzzer's runtime needs):
/// any byte string is decoded; an error is a fine outcome, a trap,
/// crash, leak or hang is not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? PNGCodec.decode(buffer: UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
