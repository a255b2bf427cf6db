// AVX-512 versions of the AVX2 pixel loops in CKernels.c (see include/CKernels.h): the same
// 16- and 32-bit lane operations on sixteen pixels at a time; `unpack`/`pack` work within
// 128-bit quarters and undo each other, keeping pixel order. The last pixels of a run go through
// masked loads and stores, which touch no memory in their masked-off lanes.
#include "CKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

/// `PaintBlitter.scale4`: every channel times `f` (16-bit lanes) / 255, rounded.
static inline AVX512 __m512i scale16(__m512i c, __m512i f) {
    const __m512i low = _mm512_set1_epi16(0x00FF), high = _mm512_set1_epi16((short)0xFF00), half = _mm512_set1_epi16(0x80);
    __m512i even = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(c, low), f), half);
    even = _mm512_and_si512(_mm512_srli_epi16(_mm512_add_epi16(even, _mm512_srli_epi16(even, 8)), 8), low);
    __m512i odd = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_srli_epi16(c, 8), f), half);
    odd = _mm512_and_si512(_mm512_add_epi16(odd, _mm512_srli_epi16(odd, 8)), high);
    return _mm512_or_si512(even, odd);
}

/// Sixteen pixels of a solid source-over: src + dst·(255 − αs)/255, as `PaintBlitter.scaleBytes`.
static inline AVX512 __m512i solid16(const uint32_t *p, __m512i source, __m512i factor) {
    const __m512i zero = _mm512_setzero_si512(), half = _mm512_set1_epi16(128), m257 = _mm512_set1_epi16(257);
    __m512i d = _mm512_loadu_si512((const void *)p);
    __m512i lo = _mm512_unpacklo_epi8(d, zero), hi = _mm512_unpackhi_epi8(d, zero);
    lo = _mm512_mulhi_epu16(_mm512_add_epi16(_mm512_mullo_epi16(lo, factor), half), m257);
    hi = _mm512_mulhi_epu16(_mm512_add_epi16(_mm512_mullo_epi16(hi, factor), half), m257);
    return _mm512_add_epi8(source, _mm512_packus_epi16(lo, hi));
}

AVX512 void citrine_source_over_solid_avx512(uint32_t *dst, intptr_t count, uint32_t src) {
    if (count < 16) {
        citrine_source_over_solid_avx2(dst, count, src);
        return;
    }
    const __m512i source = _mm512_set1_epi32((int)src);
    const __m512i factor = _mm512_set1_epi16((short)(255 - (src >> 24)));
    // The last sixteen first, from the destination as it was, stored last (as the Swift loop).
    __m512i last = solid16(dst + count - 16, source, factor);
    intptr_t i = 0;
    for (; i + 64 <= count; i += 64) {
        __m512i a = solid16(dst + i, source, factor), b = solid16(dst + i + 16, source, factor);
        __m512i c = solid16(dst + i + 32, source, factor), d = solid16(dst + i + 48, source, factor);
        _mm512_storeu_si512((void *)(dst + i), a);
        _mm512_storeu_si512((void *)(dst + i + 16), b);
        _mm512_storeu_si512((void *)(dst + i + 32), c);
        _mm512_storeu_si512((void *)(dst + i + 48), d);
    }
    for (; i + 16 <= count; i += 16) _mm512_storeu_si512((void *)(dst + i), solid16(dst + i, source, factor));
    _mm512_storeu_si512((void *)(dst + count - 16), last);
}

AVX512 void citrine_fill_avx512(uint32_t *dst, intptr_t count, uint32_t word) {
    const __m512i w = _mm512_set1_epi32((int)word);
    intptr_t i = 0;
    for (; i + 128 <= count; i += 128) {
        for (int k = 0; k < 128; k += 16) _mm512_storeu_si512((void *)(dst + i + k), w);
    }
    for (; i + 16 <= count; i += 16) _mm512_storeu_si512((void *)(dst + i), w);
    _mm512_storeu_si512((void *)(dst + count - 16), w);
}

/// Sixteen pixels of `citrine_source_over_row_avx512`: coverage `c` (32-bit lanes), source `s`,
/// destination `d`; the blended words. Where every coverage is 255 at opacity 255 the source is
/// not scaled (s·255/255 = s), and an opaque source is the result (d·0/255 = 0).
static inline AVX512 __m512i sourceOverRow16(__m512i d, __m512i s, __m512i c, uint32_t opacity) {
    const __m512i all = _mm512_set1_epi32(255);
    __m512i src = s;
    if (opacity != 255 || _mm512_cmpneq_epi32_mask(c, all)) {
        if (opacity != 255) {
            __m512i t = _mm512_add_epi32(_mm512_mullo_epi32(c, _mm512_set1_epi32((int)opacity)), _mm512_set1_epi32(128));
            c = _mm512_srli_epi32(_mm512_add_epi32(t, _mm512_srli_epi32(t, 8)), 8);
        }
        src = scale16(s, _mm512_or_si512(c, _mm512_slli_epi32(c, 16)));
    } else if (_mm512_cmplt_epu32_mask(s, _mm512_set1_epi32((int)0xFF000000)) == 0) {
        return s;   // every alpha byte is 255: each word is at least 0xFF000000
    }
    __m512i inverse = _mm512_sub_epi32(all, _mm512_srli_epi32(src, 24));
    return _mm512_add_epi32(src, scale16(d, _mm512_or_si512(inverse, _mm512_slli_epi32(inverse, 16))));
}

AVX512 void citrine_source_over_row_avx512(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, intptr_t count,
                                           uint32_t opacity) {
    intptr_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m512i c = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(coverage + i)));
        __m512i s = _mm512_loadu_si512((const void *)(src + i));
        // Nothing covered or a transparent source leaves the destination as it is.
        if (!_mm512_test_epi32_mask(c, c) || !_mm512_test_epi32_mask(s, s)) continue;
        __m512i d = _mm512_loadu_si512((const void *)(dst + i));
        _mm512_storeu_si512((void *)(dst + i), sourceOverRow16(d, s, c, opacity));
    }
    if (i < count) {
        __mmask16 mask = (__mmask16)((1u << (count - i)) - 1);
        __m512i c = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(mask, coverage + i));
        __m512i s = _mm512_maskz_loadu_epi32(mask, src + i);
        __m512i d = _mm512_maskz_loadu_epi32(mask, dst + i);
        _mm512_mask_storeu_epi32((void *)(dst + i), mask, sourceOverRow16(d, s, c, opacity));
    }
}

#else

void citrine_source_over_solid_avx512(uint32_t *dst, intptr_t count, uint32_t src) { (void)dst; (void)count; (void)src; }
void citrine_fill_avx512(uint32_t *dst, intptr_t count, uint32_t word) { (void)dst; (void)count; (void)word; }
void citrine_source_over_row_avx512(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, intptr_t count,
                                    uint32_t opacity) {
    (void)dst; (void)src; (void)coverage; (void)count; (void)opacity;
}

#endif
