// `Pixmap.applyColorMatrix` eight pixels at a time (include/CKernels.h): the Swift loop's float
// operations, each channel of eight pixels in one vector — the same divisions (by 255, by alpha),
// products and sums in the same order, the same clamps (NaN kept until the word is packed, then
// 0) — so the words are the Swift loop's, bit for bit (AVX2KernelsTests).
#include "CKernels.h"

#pragma STDC FP_CONTRACT OFF   // each product and sum rounded on its own, as in Swift

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/// Channel byte `shift / 8` of eight words in 0…1: Float(byte) / 255, as `SIMD4(unpack:)`.
static inline AVX2 __attribute__((always_inline)) __m256 unpackChannel(__m256i words, int shift) {
    __m256i bytes = _mm256_and_si256(_mm256_srli_epi32(words, shift), _mm256_set1_epi32(0xFF));
    return _mm256_div_ps(_mm256_cvtepi32_ps(bytes), _mm256_set1_ps(255));
}

/// `simd_min(simd_max(x, 0), 1)`: 0 where 0 > x, 1 where 1 < x; a NaN stays NaN.
static inline AVX2 __m256 clampKeepingNaN(__m256 x) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1);
    x = _mm256_blendv_ps(x, zero, _mm256_cmp_ps(zero, x, _CMP_GT_OQ));
    return _mm256_blendv_ps(x, one, _mm256_cmp_ps(one, x, _CMP_LT_OQ));
}

/// `SIMD4<Float>.packed`'s rounding of one channel: NaN and negatives 0, above 1 clamped to 1,
/// then ×255 + ½ truncated.
static inline AVX2 __m256i packChannel(__m256 x) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1);
    x = _mm256_blendv_ps(x, zero, _mm256_cmp_ps(x, zero, _CMP_NGE_UQ));
    x = _mm256_blendv_ps(x, one, _mm256_cmp_ps(one, x, _CMP_LT_OQ));
    return _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(x, _mm256_set1_ps(255)), _mm256_set1_ps(0.5f)));
}

/// One output channel: ((((bias + m0·r) + m1·g) + m2·b) + m3·a), the Swift loop's order.
static inline AVX2 __m256 row(const float *m, __m256 r, __m256 g, __m256 b, __m256 a) {
    __m256 out = _mm256_set1_ps(m[4]);
    out = _mm256_add_ps(out, _mm256_mul_ps(_mm256_set1_ps(m[0]), r));
    out = _mm256_add_ps(out, _mm256_mul_ps(_mm256_set1_ps(m[1]), g));
    out = _mm256_add_ps(out, _mm256_mul_ps(_mm256_set1_ps(m[2]), b));
    return _mm256_add_ps(out, _mm256_mul_ps(_mm256_set1_ps(m[3]), a));
}

/// Eight words mapped by the matrix.
static inline AVX2 __attribute__((always_inline)) __m256i mapped8(__m256i words, const float *m, int transparentStays) {
    const __m256 zero = _mm256_setzero_ps();
    __m256 alpha = unpackChannel(words, 24);
    // Un-premultiplied where alpha > 0; every component 0 elsewhere.
    __m256 shown = _mm256_cmp_ps(alpha, zero, _CMP_GT_OQ);
    __m256 r = _mm256_and_ps(_mm256_div_ps(unpackChannel(words, 0), alpha), shown);
    __m256 g = _mm256_and_ps(_mm256_div_ps(unpackChannel(words, 8), alpha), shown);
    __m256 b = _mm256_and_ps(_mm256_div_ps(unpackChannel(words, 16), alpha), shown);
    // (Alpha itself is 0 where not shown.)
    __m256 outA = clampKeepingNaN(row(m + 15, r, g, b, alpha));
    __m256i ca = packChannel(outA);
    __m256i cr = _mm256_min_epi32(packChannel(_mm256_mul_ps(clampKeepingNaN(row(m, r, g, b, alpha)), outA)), ca);
    __m256i cg = _mm256_min_epi32(packChannel(_mm256_mul_ps(clampKeepingNaN(row(m + 5, r, g, b, alpha)), outA)), ca);
    __m256i cb = _mm256_min_epi32(packChannel(_mm256_mul_ps(clampKeepingNaN(row(m + 10, r, g, b, alpha)), outA)), ca);
    __m256i word = _mm256_or_si256(_mm256_or_si256(cr, _mm256_slli_epi32(cg, 8)),
                                   _mm256_or_si256(_mm256_slli_epi32(cb, 16), _mm256_slli_epi32(ca, 24)));
    if (!transparentStays) return word;
    // A transparent pixel stays transparent when the bias has no alpha (the Swift loop's shortcut,
    // which the arithmetic would give too).
    __m256i transparent = _mm256_cmpeq_epi32(_mm256_srli_epi32(words, 24), _mm256_setzero_si256());
    return _mm256_andnot_si256(transparent, word);
}

AVX2 void citrine_color_matrix_avx2(uint32_t *words, intptr_t count, const float *m, int transparentStays) {
    intptr_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i w = _mm256_loadu_si256((const __m256i *)(words + i));
        _mm256_storeu_si256((__m256i *)(words + i), mapped8(w, m, transparentStays));
    }
    if (i < count) {
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count - i)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        __m256i w = _mm256_maskload_epi32((const int *)(words + i), mask);
        _mm256_maskstore_epi32((int *)(words + i), mask, mapped8(w, m, transparentStays));
    }
}

#else

void citrine_color_matrix_avx2(uint32_t *words, intptr_t count, const float *m, int transparentStays) {
    (void)words; (void)count; (void)m; (void)transparentStays;
}

#endif
