import ImageCodecs
import FuzzSupport

runFuzzer { data, size in fuzzJPEG(data ?? UnsafePointer(bitPattern: 1)!, size) }

/// One fuzz input (exported as LLVMFuzzerTestOneInput too, which libFuzzer's runtime needs):
/// any byte string is decoded strictly and leniently; an error is a
/// fine outcome, a trap, crash, leak or hang is not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    _ = try? JPEGCodec.decode(buffer: bytes)
    _ = try? JPEGCodec.decode(buffer: bytes, lenient: true)
    return 0
}
