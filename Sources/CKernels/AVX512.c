// AVX-512 versions of the AVX2 pixel loops in CKernels.c (see include/CKernels.h): the same
// 16- and 32-bit lane operations on sixteen pixels at a time; `unpack`/`pack` work within
// 128-bit quarters and undo each other, keeping pixel order. The last pixels of a run go through
// masked loads and stores, which touch no memory in their masked-off lanes.
#include "CKernels.h"

#pragma STDC FP_CONTRACT OFF   // the projective loop's multiplies and adds stay apart, as in Swift

#if defined(__x86_64__)
#include <immintrin.h>
#include "Blend8.h"

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

/// `citrine_source_over_solid_avx512` of a run of sixteen pixels or more, sixteen at a time (four
/// blocks at a time, as the AVX2 loop unrolls them, took 1 % longer on S6, S8 and S3 with the loop
/// inlined in the sweep).
static inline AVX512 __attribute__((always_inline)) void sourceOverSolid16(uint32_t *dst, intptr_t count, uint32_t src) {
    const __m512i source = _mm512_set1_epi32((int)src);
    const __m512i factor = _mm512_set1_epi16((short)(255 - (src >> 24)));
    // The last sixteen first, from the destination as it was, stored last (as the Swift loop).
    __m512i last = solid16(dst + count - 16, source, factor);
    intptr_t i = 0;
    for (; i + 16 <= count; i += 16) _mm512_storeu_si512((void *)(dst + i), solid16(dst + i, source, factor));
    _mm512_storeu_si512((void *)(dst + count - 16), last);
}

/// `citrine_source_over_solid_avx512`: runs under sixteen pixels by the AVX2 loop.
static inline AVX512 __attribute__((always_inline)) void sourceOverSolidRun(uint32_t *dst, intptr_t count, uint32_t src) {
    if (count < 16) citrine_source_over_solid_avx2(dst, count, src);
    else sourceOverSolid16(dst, count, src);
}

AVX512 void citrine_source_over_solid_avx512(uint32_t *dst, intptr_t count, uint32_t src) {
    sourceOverSolidRun(dst, count, src);
}

/// `citrine_fill_avx512` (sixteen words or more).
static inline AVX512 __attribute__((always_inline)) void fill16(uint32_t *dst, intptr_t count, uint32_t word) {
    const __m512i w = _mm512_set1_epi32((int)word);
    intptr_t i = 0;
    for (; i + 128 <= count; i += 128) {
        for (int k = 0; k < 128; k += 16) _mm512_storeu_si512((void *)(dst + i + k), w);
    }
    for (; i + 16 <= count; i += 16) _mm512_storeu_si512((void *)(dst + i), w);
    _mm512_storeu_si512((void *)(dst + count - 16), w);
}

AVX512 void citrine_fill_avx512(uint32_t *dst, intptr_t count, uint32_t word) { fill16(dst, count, word); }

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

/// Sixteen pixels of `citrine_source_over_span_avx512`: as `sourceOverSpan8` in CKernels.c.
static inline AVX512 __m512i sourceOverSpan16(__m512i d, __m512i s, __m512i f, uint32_t factor) {
    __m512i src = factor == 255 ? s : scale16(s, f);
    __m512i inverse = _mm512_sub_epi32(_mm512_set1_epi32(255), _mm512_srli_epi32(src, 24));
    return _mm512_add_epi32(src, scale16(d, _mm512_or_si512(inverse, _mm512_slli_epi32(inverse, 16))));
}

AVX512 void citrine_source_over_span_avx512(uint32_t *dst, const uint32_t *src, intptr_t count, uint32_t factor) {
    if (factor == 0) return;    // s·0/255 = 0 and dst·255/255 = dst: nothing changes
    const __m512i f = _mm512_set1_epi16((short)factor), opaque = _mm512_set1_epi32((int)0xFF000000);
    intptr_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m512i s = _mm512_loadu_si512((const void *)(src + i));
        if (!_mm512_test_epi32_mask(s, s)) continue;    // a transparent source leaves the destination
        if (factor == 255 && _mm512_cmplt_epu32_mask(s, opaque) == 0) { _mm512_storeu_si512((void *)(dst + i), s); continue; }
        __m512i d = _mm512_loadu_si512((const void *)(dst + i));
        _mm512_storeu_si512((void *)(dst + i), sourceOverSpan16(d, s, f, factor));
    }
    if (i < count) {
        __mmask16 mask = (__mmask16)((1u << (count - i)) - 1);
        __m512i s = _mm512_maskz_loadu_epi32(mask, src + i);
        __m512i d = _mm512_maskz_loadu_epi32(mask, dst + i);
        _mm512_mask_storeu_epi32((void *)(dst + i), mask, sourceOverSpan16(d, s, f, factor));
    }
}

/// `ImageSampler.weigh4`'s vertical pass: (t·upper + b·lower + 2¹⁵) >> 16, high and low bytes apart.
static inline AVX512 __m512i vertical16(__m512i t, __m512i b, __m512i upper, __m512i lower) {
    const __m512i low = _mm512_set1_epi16(0x00FF), half = _mm512_set1_epi16(128);
    __m512i high = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_srli_epi16(t, 8), upper), _mm512_mullo_epi16(_mm512_srli_epi16(b, 8), lower));
    __m512i lows = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(t, low), upper), _mm512_mullo_epi16(_mm512_and_si512(b, low), lower));
    return _mm512_srli_epi16(_mm512_add_epi16(_mm512_add_epi16(high, half), _mm512_srli_epi16(lows, 8)), 8);
}

/// `ImageSampler.weigh4` on sixteen pixels: texels t00, t10 (top row) and t01, t11 (bottom row),
/// column weights `left`, `right` and row weights `upper`, `lower` in both 16-bit halves.
static inline AVX512 __m512i weigh16(__m512i t00, __m512i t10, __m512i t01, __m512i t11,
                                     __m512i left, __m512i right, __m512i upper, __m512i lower) {
    const __m512i low = _mm512_set1_epi16(0x00FF);
    __m512i te = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(t00, low), left), _mm512_mullo_epi16(_mm512_and_si512(t10, low), right));
    __m512i to = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_srli_epi16(t00, 8), left), _mm512_mullo_epi16(_mm512_srli_epi16(t10, 8), right));
    __m512i be = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(t01, low), left), _mm512_mullo_epi16(_mm512_and_si512(t11, low), right));
    __m512i bo = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_srli_epi16(t01, 8), left), _mm512_mullo_epi16(_mm512_srli_epi16(t11, 8), right));
    return _mm512_or_si512(vertical16(te, be, upper, lower), _mm512_slli_epi16(vertical16(to, bo, upper, lower), 8));
}

/// Pixels i … i + 7 of `citrine_projective_row_avx512` at centres x (eight lanes): as
/// `projective4` in CKernels.c, eight lanes at a time. Returns the lanes whose w > 10⁻¹² and
/// whose position lies within ±10⁹ texels.
static inline AVX512 __mmask8 projective8(const double *m, __m512d x, __m512d ym1, __m512d ym4, __m512d ym7,
                                          __m256i *x0, __m256i *y0, __m256i *wx, __m256i *wy) {
    const __m512d half = _mm512_set1_pd(0.5), scale = _mm512_set1_pd(256), limit = _mm512_set1_pd(1e9);
    __m512d w = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(m[6]), x), ym7), _mm512_set1_pd(m[8]));
    __m512d u = _mm512_div_pd(_mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(m[0]), x), ym1), _mm512_set1_pd(m[2])), w);
    __m512d v = _mm512_div_pd(_mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(m[3]), x), ym4), _mm512_set1_pd(m[5])), w);
    __mmask8 ok = _mm512_cmp_pd_mask(w, _mm512_set1_pd(1e-12), _CMP_GT_OQ)
        & _mm512_cmp_pd_mask(_mm512_abs_pd(u), limit, _CMP_LT_OQ) & _mm512_cmp_pd_mask(_mm512_abs_pd(v), limit, _CMP_LT_OQ);
    __m512d su = _mm512_sub_pd(u, half), sv = _mm512_sub_pd(v, half);
    __m512d fu = _mm512_roundscale_pd(su, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    __m512d fv = _mm512_roundscale_pd(sv, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    *x0 = _mm512_cvttpd_epi32(fu);
    *y0 = _mm512_cvttpd_epi32(fv);
    *wx = _mm512_cvttpd_epi32(_mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(su, fu), scale), half));
    *wy = _mm512_cvttpd_epi32(_mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(sv, fv), scale), half));
    return ok;
}

/// Sixteen 32-bit lanes from two eight-lane halves.
static inline AVX512 __m512i join16(__m256i low, __m256i high) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(low), high, 1);
}

AVX512 intptr_t citrine_projective_row_avx512(const double *m, const uint32_t *words, intptr_t width, intptr_t height,
                                              double px, double py, intptr_t count, uint32_t *out) {
    if (width < 2 || height < 2 || width > INT32_MAX || height > INT32_MAX) return 0;
    const __m512d ym1 = _mm512_set1_pd(m[1] * py), ym4 = _mm512_set1_pd(m[4] * py), ym7 = _mm512_set1_pd(m[7] * py);
    const __m512d steps = _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i none = _mm512_set1_epi32(-1), full = _mm512_set1_epi16(256), wide = _mm512_set1_epi64(width);
    const __m512i lastColumn = _mm512_set1_epi32((int)width - 1), lastRow = _mm512_set1_epi32((int)height - 1);
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    for (intptr_t i = 0; i < count; i += 16) {
        intptr_t n = count - i < 16 ? count - i : 16;
        __m256i x0a, y0a, wxa, wya, x0b, y0b, wxb, wyb;
        // px + i + k: half-integers, exact, as the Swift loop's positions.
        __mmask16 ok = projective8(m, _mm512_add_pd(_mm512_set1_pd(px + (double)i), steps), ym1, ym4, ym7, &x0a, &y0a, &wxa, &wya);
        ok |= (__mmask16)(projective8(m, _mm512_add_pd(_mm512_set1_pd(px + (double)(i + 8)), steps), ym1, ym4, ym7,
                                      &x0b, &y0b, &wxb, &wyb) << 8);
        __m512i x0 = join16(x0a, x0b), y0 = join16(y0a, y0b);
        // The quad lies inside the image: 0 ≤ x0 < width − 1, 0 ≤ y0 < height − 1.
        __mmask16 inside = _mm512_cmpgt_epi32_mask(x0, none) & _mm512_cmpgt_epi32_mask(lastColumn, x0)
            & _mm512_cmpgt_epi32_mask(y0, none) & _mm512_cmpgt_epi32_mask(lastRow, y0);
        __mmask16 wanted = (__mmask16)((1u << n) - 1);
        if ((ok & inside & wanted) != wanted) return i;
        // Each pixel's two texel pairs, read as 8-byte words at y0·width + x0 and a row below.
        __m512i indexA = _mm512_add_epi64(_mm512_mul_epi32(_mm512_cvtepi32_epi64(y0a), wide), _mm512_cvtepi32_epi64(x0a));
        __m512i indexB = _mm512_add_epi64(_mm512_mul_epi32(_mm512_cvtepi32_epi64(y0b), wide), _mm512_cvtepi32_epi64(x0b));
        __mmask8 maskA = (__mmask8)wanted, maskB = (__mmask8)(wanted >> 8);
        const __m512i zero = _mm512_setzero_si512();
        __m512i topA = _mm512_mask_i64gather_epi64(zero, maskA, indexA, (const void *)words, 4);
        __m512i topB = _mm512_mask_i64gather_epi64(zero, maskB, indexB, (const void *)words, 4);
        __m512i bottomA = _mm512_mask_i64gather_epi64(zero, maskA, _mm512_add_epi64(indexA, wide), (const void *)words, 4);
        __m512i bottomB = _mm512_mask_i64gather_epi64(zero, maskB, _mm512_add_epi64(indexB, wide), (const void *)words, 4);
        __m512i t00 = _mm512_permutex2var_epi32(topA, even, topB), t10 = _mm512_permutex2var_epi32(topA, odd, topB);
        __m512i t01 = _mm512_permutex2var_epi32(bottomA, even, bottomB), t11 = _mm512_permutex2var_epi32(bottomA, odd, bottomB);
        __m512i wx = join16(wxa, wxb), wy = join16(wya, wyb);
        __m512i right = _mm512_or_si512(wx, _mm512_slli_epi32(wx, 16)), lower = _mm512_or_si512(wy, _mm512_slli_epi32(wy, 16));
        __m512i s = weigh16(t00, t10, t01, t11, _mm512_sub_epi16(full, right), right, _mm512_sub_epi16(full, lower), lower);
        _mm512_mask_storeu_epi32((void *)(out + i), wanted, s);
    }
    return count;
}

// The last one to seven pixels of a run of SweepSolid.h and TextureRows.h compiled here: through
// AVX-512's masked moves (a mask register from the lanes' sign bits) rather than AVX2's
// `vpmaskmovd`, which the AMD EPYC of BENCHMARKS.md runs slower: with these, S8 as a layer tree
// (`layer-storm-bench`, one thread; its texture rows average 18 pixels) took 4 % less time
// (median ratio of ten alternating runs, 0.96; 8 of 10 faster).
#define TAIL_LOAD8(p, mask) _mm256_maskz_loadu_epi32(_mm256_cmplt_epi32_mask((mask), _mm256_setzero_si256()), (p))
#define TAIL_STORE8(p, mask, v) _mm256_mask_storeu_epi32((p), _mm256_cmplt_epi32_mask((mask), _mm256_setzero_si256()), (v))

// The solid sweep compiled for AVX-512 (SweepSolid.h): runs of sixteen pixels or more inlined.
#define SWEEP_TARGET __attribute__((target("avx2,avx512f,avx512bw,avx512vl")))
#define SWEEP_FUNCTION citrine_sweep_solid_avx512
#define SWEEP_SOLID_SPAN(dst, count, src) sourceOverSolidRun(dst, count, src)
#define SWEEP_FILL_SPAN(dst, count, word) ((count) >= 16 ? fill16(dst, count, word) : citrine_fill_avx2(dst, count, word))
#include "SweepSolid.h"

// The texture rows compiled for AVX-512 (TextureRows.h): the same eight-pixel loops, their solid
// runs the sweep's above.
#include "Texture8.h"
#define TEXTURE_TARGET __attribute__((target("avx2,avx512f,avx512bw,avx512vl")))
#define TEXTURE_TRANSLATED_FUNCTION citrine_translated_row_avx512
#define TEXTURE_TRANSLATED_ROWS_FUNCTION citrine_translated_rows_avx512
#define TEXTURE_TURNED_FUNCTION citrine_turned_row_avx512
#define TEXTURE_TURNED_ROWS_FUNCTION citrine_turned_rows_avx512
#define TEXTURE_OVERLAPPED_TAILS 0
#include "TextureRows.h"

#else

void citrine_source_over_solid_avx512(uint32_t *dst, intptr_t count, uint32_t src) { (void)dst; (void)count; (void)src; }
void citrine_fill_avx512(uint32_t *dst, intptr_t count, uint32_t word) { (void)dst; (void)count; (void)word; }
void citrine_sweep_solid_avx512(float *cells, intptr_t stride, intptr_t *rowMin, intptr_t *rowMax, intptr_t rows,
                                intptr_t width, uint32_t *dst, intptr_t dstStride, uint32_t color, uint32_t opacity) {
    (void)cells; (void)stride; (void)rowMin; (void)rowMax; (void)rows; (void)width; (void)dst; (void)dstStride;
    (void)color; (void)opacity;
}
void citrine_source_over_span_avx512(uint32_t *dst, const uint32_t *src, intptr_t count, uint32_t factor) {
    (void)dst; (void)src; (void)count; (void)factor;
}
void citrine_source_over_row_avx512(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, intptr_t count,
                                    uint32_t opacity) {
    (void)dst; (void)src; (void)coverage; (void)count; (void)opacity;
}
intptr_t citrine_projective_row_avx512(const double *m, const uint32_t *words, intptr_t width, intptr_t height,
                                       double px, double py, intptr_t count, uint32_t *out) {
    (void)m; (void)words; (void)width; (void)height; (void)px; (void)py; (void)count; (void)out;
    return 0;
}
void citrine_translated_row_avx512(const uint32_t *top, const uint32_t *bottom, intptr_t count,
                                   uint16_t left, uint16_t right, uint16_t upper, uint16_t lower,
                                   uint32_t factor, uint32_t *dst) {
    (void)top; (void)bottom; (void)count; (void)left; (void)right; (void)upper; (void)lower; (void)factor; (void)dst;
}
void citrine_turned_row_avx512(const uint32_t *words, intptr_t width, int64_t fu, int64_t fv,
                               int64_t dfu, int64_t dfv, intptr_t count, uint32_t factor, uint32_t *dst) {
    (void)words; (void)width; (void)fu; (void)fv; (void)dfu; (void)dfv; (void)count; (void)factor; (void)dst;
}
void citrine_translated_rows_avx512(const citrine_translated_rows *draw) { (void)draw; }
int32_t citrine_turned_rows_avx512(citrine_turned_rows *draw) { (void)draw; return 0; }

#endif
