// The C math constants that iOS code gets from Darwin's <math.h> (which `import CoreGraphics`,
// `QuartzCore` and `UIKit` re-export on Apple platforms). Glibc's macros for them do not
// import into Swift (they expand to compiler builtins, or are not defined), so CoreGraphics
// provides them with Darwin's values and types.

/// C's `HUGE_VALF`: positive infinity as a `Float` (Darwin's <math.h>:
/// `#define HUGE_VALF __builtin_huge_valf()`). iOS code gives it to `repeatCount` to repeat
/// forever.
public let HUGE_VALF: Float = .infinity

/// C's `MAXFLOAT`: the largest finite `Float`, FLT_MAX = 3.40282347e+38 (Darwin's <math.h>:
/// `#define MAXFLOAT ((float)3.40282346638528860e+38)`), the other common `repeatCount` for
/// "forever".
public let MAXFLOAT: Float = .greatestFiniteMagnitude

/// Darwin's `HUGE`, as common in `animation.repeatCount = HUGE` as `HUGE_VALF`. Darwin's
/// <math.h> defines it as `#define HUGE MAXFLOAT`, so it is the largest finite `Float`
/// (3.40282347e+38), not infinity; as a `repeatCount` both mean "forever" in practice.
public let HUGE: Float = MAXFLOAT
