// Eight-pixel blending and cell steps shared by CKernels.c and AVX512.c (AVX2 target; inlined
// into AVX2 and AVX-512 functions alike): each the Swift loop's lane operations, as CKernels.c
// says. Included only on x86-64.
#pragma once
#include <immintrin.h>
#include <stdint.h>

#define AVX2 __attribute__((target("avx2")))

/// `PaintBlitter.scale4`: every channel times `f` (16-bit lanes) / 255, rounded.
static inline AVX2 __m256i scale(__m256i c, __m256i f) {
    const __m256i low = _mm256_set1_epi16(0x00FF), high = _mm256_set1_epi16((short)0xFF00), half = _mm256_set1_epi16(0x80);
    __m256i even = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(c, low), f), half);
    even = _mm256_and_si256(_mm256_srli_epi16(_mm256_add_epi16(even, _mm256_srli_epi16(even, 8)), 8), low);
    __m256i odd = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_srli_epi16(c, 8), f), half);
    odd = _mm256_and_si256(_mm256_add_epi16(odd, _mm256_srli_epi16(odd, 8)), high);
    return _mm256_or_si256(even, odd);
}

/// Eight pixels of a solid source-over: src + dst·(255 − αs)/255, as `PaintBlitter.scaleBytes`.
static inline AVX2 __m256i solid8(const uint32_t *p, __m256i source, __m256i factor) {
    const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi16(128), m257 = _mm256_set1_epi16(257);
    __m256i d = _mm256_loadu_si256((const __m256i *)p);
    __m256i lo = _mm256_unpacklo_epi8(d, zero), hi = _mm256_unpackhi_epi8(d, zero);
    lo = _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(lo, factor), half), m257);
    hi = _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(hi, factor), half), m257);
    return _mm256_add_epi8(source, _mm256_packus_epi16(lo, hi));
}

/// Eight pixels of `citrine_source_over_row_avx2`: coverage `c` (32-bit lanes), source `s`,
/// destination `d`; the blended words. Where every coverage is 255 at opacity 255 the source is
/// not scaled (s·255/255 = s), and an opaque source is the result (d·0/255 = 0).
static inline AVX2 __m256i sourceOverRow8(__m256i d, __m256i s, __m256i c, uint32_t opacity) {
    const __m256i all = _mm256_set1_epi32(255);
    __m256i src = s;
    if (opacity != 255 || _mm256_movemask_epi8(_mm256_cmpeq_epi32(c, all)) != -1) {
        if (opacity != 255) {
            // `PaintBlitter.div255(coverage · opacity)`: (t + (t >> 8)) >> 8, t = x + 128.
            __m256i t = _mm256_add_epi32(_mm256_mullo_epi32(c, _mm256_set1_epi32((int)opacity)), _mm256_set1_epi32(128));
            c = _mm256_srli_epi32(_mm256_add_epi32(t, _mm256_srli_epi32(t, 8)), 8);
        }
        src = scale(s, _mm256_or_si256(c, _mm256_slli_epi32(c, 16)));
    } else if (_mm256_testc_si256(s, _mm256_set1_epi32((int)0xFF000000))) {
        return s;
    }
    __m256i inverse = _mm256_sub_epi32(all, _mm256_srli_epi32(src, 24));
    return _mm256_add_epi32(src, scale(d, _mm256_or_si256(inverse, _mm256_slli_epi32(inverse, 16))));
}

/// `PaintBlitter.scale`: every channel of `c` times `f`/255 (f in 0…255), rounded to nearest.
static inline uint32_t scaleWord(uint32_t c, uint32_t f) {
    uint32_t rb = (c & 0x00FF00FFu) * f + 0x00800080u;
    rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    uint32_t ag = ((c >> 8) & 0x00FF00FFu) * f + 0x00800080u;
    ag = (ag + ((ag >> 8) & 0x00FF00FFu)) & 0xFF00FF00u;
    return rb | ag;
}

/// `Rasterizer.levels` for the non-zero rule with anti-aliasing: min(|a|, 1)·255 rounded (the
/// low byte of a·255 + 2²³), eight lanes.
static inline AVX2 __m256i nonZeroLevels8(__m256 sums) {
    const __m256 one = _mm256_set1_ps(1);
    __m256 a = _mm256_and_ps(sums, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)));
    a = _mm256_blendv_ps(a, one, _mm256_cmp_ps(a, one, _CMP_GT_OQ));
    __m256 shifted = _mm256_add_ps(_mm256_mul_ps(a, _mm256_set1_ps(255)), _mm256_set1_ps(0x1p23f));
    return _mm256_and_si256(_mm256_castps_si256(shifted), _mm256_set1_epi32(0xFF));
}

/// The first column in from ..< end whose cell's bits are not zero (or `end`), as
/// `Rasterizer.runEnd` finds it (a −0 cell stops it): 32 cells a step while they lie before
/// `end` (the inside of a large filled shape: path-animated.json, callgrind, 548 K → 485 K
/// instructions a frame), then eight at a time, the first non-zero one by its lane. Reads up to
/// seven cells past `end`.
static inline AVX2 __attribute__((always_inline)) intptr_t runEnd8(const float *line, intptr_t x, intptr_t end) {
    for (; x + 32 <= end; x += 32) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(line + x)), b = _mm256_loadu_si256((const __m256i *)(line + x + 8));
        __m256i c = _mm256_loadu_si256((const __m256i *)(line + x + 16)), d = _mm256_loadu_si256((const __m256i *)(line + x + 24));
        __m256i any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
        if (!_mm256_testz_si256(any, any)) break;
    }
    for (; x < end; x += 8) {
        __m256i bits = _mm256_loadu_si256((const __m256i *)(line + x));
        int zero = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(bits, _mm256_setzero_si256())));
        if (zero != 0xFF) {
            intptr_t first = x + __builtin_ctz((unsigned)~zero & 0xFFu);
            return first < end ? first : end;
        }
    }
    return end;
}
