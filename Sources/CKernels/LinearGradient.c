// Pad linear gradient runs (see include/CKernels.h): `GradientRamp.padPixels` in integer lanes.
// Pixel i's word is table[clamp(⌊(v + i·dv) / 2³²⌋, 0, 255)]: each lane holds its pixel's 32.32
// fixed-point position (64-bit adds, exact), keeps the integer half (the high 32 bits: positions
// stay within ±2⁶² so it fits) and clamps it. A step of at most one entry per pixel keeps eight
// (or sixteen) neighbouring pixels within eight (sixteen) consecutive entries, so instead of
// gathering each word the loop loads those entries once — from the lowest index of the group,
// the first pixel's or the last's by the step's sign — and permutes them into place
// (`vpermd`). The table is padded past its last entry (`GradientRamp.paddedSize`) so that window
// stays inside it. A run whose positions all lie inside the table (most rows of a gradient drawn
// across its own extent) skips the clamp.
#include "CKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

/// Eight words from the positions in `even` (pixels 0, 1, 4, 5 of the group) and `odd`
/// (pixels 2, 3, 6, 7); `lowest` picks the lane with the lowest index (0 or 7 in every lane).
/// `clamp` is 0 where every position of the run lies inside the table (clamping changes nothing).
static inline AVX2 __attribute__((always_inline)) __m256i pad8(const uint32_t *table, __m256i even, __m256i odd, __m256i lowest,
                                                               int clamp) {
    // The high halves of the positions, in pixel order: (0, 1, 2, 3 | 4, 5, 6, 7).
    __m256i index = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(even), _mm256_castsi256_ps(odd),
                                                          _MM_SHUFFLE(3, 1, 3, 1)));
    if (clamp) index = _mm256_min_epi32(_mm256_max_epi32(index, _mm256_setzero_si256()), _mm256_set1_epi32(255));
    __m256i first = _mm256_permutevar8x32_epi32(index, lowest);
    __m256i window = _mm256_loadu_si256((const __m256i *)(table + _mm256_cvtsi256_si32(first)));
    return _mm256_permutevar8x32_epi32(window, _mm256_sub_epi32(index, first));
}

/// Whether every position v + i·dv, i in 0 ..< count rounded up to `group` pixels, lies in the
/// table: 0 ≤ position < 256·2³² (the positions are monotonic, so the two ends decide).
static inline int insideTable(uint64_t u, uint64_t du, intptr_t count, intptr_t group) {
    int64_t first = (int64_t)u, last = (int64_t)(u + (uint64_t)((count + group - 1) / group * group - 1) * du);
    const int64_t end = (int64_t)256 << 32;
    return first >= 0 && first < end && last >= 0 && last < end;
}

static inline AVX2 __attribute__((always_inline)) void padRow8(const uint32_t *table, uint64_t u, uint64_t du, intptr_t count,
                                                               uint32_t *out, __m256i lowest, int clamp) {
    __m256i even = _mm256_setr_epi64x((int64_t)u, (int64_t)(u + du), (int64_t)(u + 4 * du), (int64_t)(u + 5 * du));
    __m256i odd = _mm256_setr_epi64x((int64_t)(u + 2 * du), (int64_t)(u + 3 * du), (int64_t)(u + 6 * du), (int64_t)(u + 7 * du));
    const __m256i step = _mm256_set1_epi64x((int64_t)(8 * du));
    intptr_t i = 0;
    // Two groups a step: one loop test per sixteen pixels.
    for (; i + 16 <= count; i += 16) {
        __m256i a = pad8(table, even, odd, lowest, clamp);
        even = _mm256_add_epi64(even, step);
        odd = _mm256_add_epi64(odd, step);
        __m256i b = pad8(table, even, odd, lowest, clamp);
        even = _mm256_add_epi64(even, step);
        odd = _mm256_add_epi64(odd, step);
        _mm256_storeu_si256((__m256i *)(out + i), a);
        _mm256_storeu_si256((__m256i *)(out + i + 8), b);
    }
    if (i + 8 <= count) {
        _mm256_storeu_si256((__m256i *)(out + i), pad8(table, even, odd, lowest, clamp));
        even = _mm256_add_epi64(even, step);
        odd = _mm256_add_epi64(odd, step);
        i += 8;
    }
    if (i < count) {
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count - i)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        _mm256_maskstore_epi32((int *)(out + i), mask, pad8(table, even, odd, lowest, clamp));
    }
}

AVX2 void citrine_linear_pad_row_avx2(const uint32_t *table, int64_t v, int64_t dv, intptr_t count, uint32_t *out) {
    // Unsigned arithmetic: the positions wrap nowhere, but the compiler may not assume it.
    uint64_t u = (uint64_t)v, du = (uint64_t)dv;
    const __m256i lowest = _mm256_set1_epi32(dv < 0 ? 7 : 0);
    if (insideTable(u, du, count, 8)) {
        padRow8(table, u, du, count, out, lowest, 0);
    } else {
        padRow8(table, u, du, count, out, lowest, 1);
    }
}

/// Sixteen words from the positions in `low` (pixels 0–7 of the group) and `high` (8–15);
/// `lowest` picks the lane with the lowest index (0 or 15 in every lane); `clamp` as in `pad8`.
static inline AVX512 __attribute__((always_inline)) __m512i pad16(const uint32_t *table, __m512i low, __m512i high, __m512i lowest,
                                                                  int clamp) {
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    __m512i index = _mm512_permutex2var_epi32(low, odd, high);
    if (clamp) index = _mm512_min_epi32(_mm512_max_epi32(index, _mm512_setzero_si512()), _mm512_set1_epi32(255));
    __m512i first = _mm512_permutexvar_epi32(lowest, index);
    __m512i window = _mm512_loadu_si512((const void *)(table + _mm512_cvtsi512_si32(first)));
    return _mm512_permutexvar_epi32(_mm512_sub_epi32(index, first), window);
}

static inline AVX512 __attribute__((always_inline)) void padRow16(const uint32_t *table, uint64_t u, uint64_t du, intptr_t count,
                                                                  uint32_t *out, __m512i lowest, int clamp) {
    __m512i low = _mm512_setr_epi64((int64_t)u, (int64_t)(u + du), (int64_t)(u + 2 * du), (int64_t)(u + 3 * du),
                                    (int64_t)(u + 4 * du), (int64_t)(u + 5 * du), (int64_t)(u + 6 * du), (int64_t)(u + 7 * du));
    __m512i high = _mm512_add_epi64(low, _mm512_set1_epi64((int64_t)(8 * du)));
    const __m512i step = _mm512_set1_epi64((int64_t)(16 * du));
    intptr_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m512i a = pad16(table, low, high, lowest, clamp);
        low = _mm512_add_epi64(low, step);
        high = _mm512_add_epi64(high, step);
        __m512i b = pad16(table, low, high, lowest, clamp);
        low = _mm512_add_epi64(low, step);
        high = _mm512_add_epi64(high, step);
        _mm512_storeu_si512((void *)(out + i), a);
        _mm512_storeu_si512((void *)(out + i + 16), b);
    }
    if (i + 16 <= count) {
        _mm512_storeu_si512((void *)(out + i), pad16(table, low, high, lowest, clamp));
        low = _mm512_add_epi64(low, step);
        high = _mm512_add_epi64(high, step);
        i += 16;
    }
    if (i < count) {
        __mmask16 mask = (__mmask16)((1u << (count - i)) - 1);
        _mm512_mask_storeu_epi32((void *)(out + i), mask, pad16(table, low, high, lowest, clamp));
    }
}

AVX512 void citrine_linear_pad_row_avx512(const uint32_t *table, int64_t v, int64_t dv, intptr_t count, uint32_t *out) {
    uint64_t u = (uint64_t)v, du = (uint64_t)dv;
    const __m512i lowest = _mm512_set1_epi32(dv < 0 ? 15 : 0);
    if (insideTable(u, du, count, 16)) {
        padRow16(table, u, du, count, out, lowest, 0);
    } else {
        padRow16(table, u, du, count, out, lowest, 1);
    }
}

#else

void citrine_linear_pad_row_avx2(const uint32_t *table, int64_t v, int64_t dv, intptr_t count, uint32_t *out) {
    (void)table; (void)v; (void)dv; (void)count; (void)out;
}
void citrine_linear_pad_row_avx512(const uint32_t *table, int64_t v, int64_t dv, intptr_t count, uint32_t *out) {
    (void)table; (void)v; (void)dv; (void)count; (void)out;
}

#endif
