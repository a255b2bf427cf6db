import Testing
import CoreGraphics

// Darwin's <math.h> values: `#define HUGE_VALF __builtin_huge_valf()` (+∞),
// `#define MAXFLOAT ((float)3.40282346638528860e+38)` (FLT_MAX) and `#define HUGE MAXFLOAT`.

@Test func darwinMathConstantsHaveDarwinsValuesAndTypes() {
    let huge: Float = HUGE, maxFloat: Float = MAXFLOAT, hugeValF: Float = HUGE_VALF
    #expect(hugeValF == .infinity)
    #expect(maxFloat == 3.40282346638528860e+38)
    #expect(maxFloat == Float.greatestFiniteMagnitude)
    #expect(huge == maxFloat)
    #expect(huge.isFinite)
}
