import FuzzSupport

runFuzzer { data, size in fuzzLayers(data ?? UnsafePointer(bitPattern: 1)!, size) }

/// One fuzz input (exported as LLVMFuzzerTestOneInput too, which libFuzzer's runtime needs):
/// the bytes are a `LayerScript` — a layer tree of the seven layer classes with properties,
/// masks, moves, animations and transactions — drawn at a few times into a 32×32 renderer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard var script = try? LayerScript(FuzzInput(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    script.run()
    return 0
}
