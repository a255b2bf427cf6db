#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The few libm functions the engine needs, under names that do not clash with Foundation's
// when a client imports both.
@inline(__always) func sine(_ x: Double) -> Double { sin(x) }
@inline(__always) func cosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func arccosine(_ x: Double) -> Double { acos(x) }
@inline(__always) func arctangent(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func exponential(_ x: Double) -> Double { exp(x) }
@inline(__always) func logarithm2(_ x: Double) -> Double { log2(x) }
