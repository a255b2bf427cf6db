import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

/// Hands the process to libFuzzer's driver with `fuzzOne` as the function under test (each
/// target's `main.swift` calls this first: SwiftPM links the target's own entry point as `main`,
/// so libFuzzer's main never runs). Never returns.
public func runFuzzer(_ fuzzOne: @escaping @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
}
