// See include/CKernels.h. Every operation below is the 16- or 32-bit lane operation of the Swift
// loop it mirrors (wrapping adds and multiplies, logical shifts), so the results are identical
// bit for bit; `unpack`/`pack` work within 128-bit halves and undo each other, keeping pixel order.
#include "CKernels.h"

#pragma STDC FP_CONTRACT OFF   // the projective loop's multiplies and adds stay apart, as in Swift

#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

int citrine_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

int citrine_has_avx512(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") ? 1 : 0;
}

int citrine_avx2_enabled = 0;
int citrine_avx512_enabled = 0;
void (*citrine_source_over_solid_kernel)(uint32_t *dst, intptr_t count, uint32_t src) = citrine_source_over_solid_avx2;

void citrine_avx512_set_enabled(int enabled) {
    citrine_avx512_enabled = enabled;
    citrine_source_over_solid_kernel = enabled ? citrine_source_over_solid_avx512 : citrine_source_over_solid_avx2;
}

/// Run when the program is loaded, before any Swift code.
__attribute__((constructor)) static void citrine_detect_avx2(void) {
    citrine_avx2_enabled = citrine_has_avx2();
    citrine_avx512_set_enabled(citrine_has_avx512());
}

#include "Blend8.h"

// The masked moves of a run's last one to seven pixels in SweepSolid.h and TextureRows.h:
// AVX2's here (AVX512.c defines AVX-512's).
#define TAIL_LOAD8(p, mask) _mm256_maskload_epi32((const int *)(p), (mask))
#define TAIL_STORE8(p, mask, v) _mm256_maskstore_epi32((int *)(p), (mask), (v))

AVX2 void citrine_source_over_solid_avx2(uint32_t *dst, intptr_t count, uint32_t src) {
    const __m256i source = _mm256_set1_epi32((int)src);
    const __m256i factor = _mm256_set1_epi16((short)(255 - (src >> 24)));
    // The last eight first, from the destination as it was, stored last (as the Swift loop).
    __m256i last = solid8(dst + count - 8, source, factor);
    intptr_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i a = solid8(dst + i, source, factor), b = solid8(dst + i + 8, source, factor);
        __m256i c = solid8(dst + i + 16, source, factor), d = solid8(dst + i + 24, source, factor);
        _mm256_storeu_si256((__m256i *)(dst + i), a);
        _mm256_storeu_si256((__m256i *)(dst + i + 8), b);
        _mm256_storeu_si256((__m256i *)(dst + i + 16), c);
        _mm256_storeu_si256((__m256i *)(dst + i + 24), d);
    }
    for (; i + 8 <= count; i += 8) _mm256_storeu_si256((__m256i *)(dst + i), solid8(dst + i, source, factor));
    _mm256_storeu_si256((__m256i *)(dst + count - 8), last);
}

AVX2 void citrine_fill_avx2(uint32_t *dst, intptr_t count, uint32_t word) {
    const __m256i w = _mm256_set1_epi32((int)word);
    intptr_t i = 0;
    for (; i + 64 <= count; i += 64) {
        for (int k = 0; k < 64; k += 8) _mm256_storeu_si256((__m256i *)(dst + i + k), w);
    }
    for (; i + 8 <= count; i += 8) _mm256_storeu_si256((__m256i *)(dst + i), w);
    _mm256_storeu_si256((__m256i *)(dst + count - 8), w);
}

/// Pixels i … i + 7 of `citrine_source_over_row_avx2`.
static inline AVX2 void sourceOverRowAt(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, intptr_t i, uint32_t opacity) {
    __m256i c = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(coverage + i)));
    __m256i s = _mm256_loadu_si256((const __m256i *)(src + i));
    // Nothing covered or a transparent source leaves the destination as it is (as the
    // arithmetic would: s·0/255 = 0 and dst·255/255 = dst).
    if (_mm256_testz_si256(c, c) || _mm256_testz_si256(s, s)) return;
    __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
    _mm256_storeu_si256((__m256i *)(dst + i), sourceOverRow8(d, s, c, opacity));
}

/// The `n` bytes (0 … 7) at `p` in the low bytes of a word, the others 0, read with at most three
/// loads of four, two and one bytes, nothing past them. (A loop of byte copies into a zeroed
/// array became a call to `memcpy`, sixteen instructions in it alone, for each of the about
/// 26 000 runs a frame of S8 that end in one to seven pixels: callgrind.)
static inline uint64_t tailBytes(const uint8_t *p, intptr_t n) {
    uint64_t bits = 0;
    int shift = 0;
    if (n & 4) { uint32_t v; memcpy(&v, p, 4); bits = v; p += 4; shift = 32; }
    if (n & 2) { uint16_t v; memcpy(&v, p, 2); bits |= (uint64_t)v << shift; p += 2; shift += 16; }
    if (n & 1) bits |= (uint64_t)*p << shift;
    return bits;
}

AVX2 void citrine_source_over_row_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, intptr_t count,
                                       uint32_t opacity) {
    intptr_t i = 0;
    if (count > 8 && count % 8 != 0) {
        // The last eight from the destination as it was, stored after the others, over the
        // pixels they share (the same words: each pixel depends only on its own destination),
        // instead of AVX2's masked moves, slow on AMD's processors (TextureRows.h's `over8`).
        const intptr_t k = count - 8;
        __m256i last = sourceOverRow8(_mm256_loadu_si256((const __m256i *)(dst + k)), _mm256_loadu_si256((const __m256i *)(src + k)),
                                      _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(coverage + k))), opacity);
        for (; i + 8 <= count; i += 8) sourceOverRowAt(dst, src, coverage, i, opacity);
        _mm256_storeu_si256((__m256i *)(dst + k), last);
        return;
    }
    for (; i + 8 <= count; i += 8) sourceOverRowAt(dst, src, coverage, i, opacity);
    if (count - i == 4) {
        // The last four (common: runs padded to whole quads, `Pixmap.split`): 128-bit moves rather
        // than AVX2's masked ones, slow on AMD's processors (TextureRows.h's FOUR_LANES).
        uint32_t four;
        memcpy(&four, coverage + i, 4);
        __m256i c = _mm256_cvtepu8_epi32(_mm_cvtsi32_si128((int)four));
        __m256i s = _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)(src + i)));
        if (_mm256_testz_si256(c, c) || _mm256_testz_si256(s, s)) return;
        __m256i d = _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)(dst + i)));
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_castsi256_si128(sourceOverRow8(d, s, c, opacity)));
        return;
    }
    if (i < count) {
        // The last one to seven pixels: nothing read or written past `count`.
        intptr_t n = count - i;
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        __m256i c = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)tailBytes(coverage + i, n)));
        __m256i s = _mm256_maskload_epi32((const int *)(src + i), mask);
        __m256i d = _mm256_maskload_epi32((const int *)(dst + i), mask);
        _mm256_maskstore_epi32((int *)(dst + i), mask, sourceOverRow8(d, s, c, opacity));
    }
}

/// Eight pixels of `citrine_source_over_span_avx2`: source `s` scaled by `f` (the same factor in
/// every 16-bit lane; 255 leaves it as it is), then source-over onto `d`.
static inline AVX2 __m256i sourceOverSpan8(__m256i d, __m256i s, __m256i f, uint32_t factor) {
    __m256i src = factor == 255 ? s : scale(s, f);
    __m256i inverse = _mm256_sub_epi32(_mm256_set1_epi32(255), _mm256_srli_epi32(src, 24));
    return _mm256_add_epi32(src, scale(d, _mm256_or_si256(inverse, _mm256_slli_epi32(inverse, 16))));
}

/// Pixels i … i + 7 of `citrine_source_over_span_avx2`, or i … i + 3 when `four` (a constant at
/// each call): a run's last four (common: runs padded to whole quads, `Pixmap.split`), moved with
/// 128-bit loads and stores rather than AVX2's masked ones, as `citrine_source_over_row_avx2`
/// does. The other lanes then read as 0, and a zero source lane is transparent, so only the four
/// lanes decide the skips.
static inline AVX2 __attribute__((always_inline)) void sourceOverSpanAt(uint32_t *dst, const uint32_t *src, intptr_t i, __m256i f,
                                                                        uint32_t factor, int four) {
    __m256i s = four ? _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)(src + i)))
                     : _mm256_loadu_si256((const __m256i *)(src + i));
    if (_mm256_testz_si256(s, s)) return;     // a transparent source leaves the destination
    const __m256i opaque = four ? _mm256_setr_epi32((int)0xFF000000, (int)0xFF000000, (int)0xFF000000, (int)0xFF000000, 0, 0, 0, 0)
                                : _mm256_set1_epi32((int)0xFF000000);
    if (factor != 255 || !_mm256_testc_si256(s, opaque)) {
        __m256i d = four ? _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)(dst + i)))
                         : _mm256_loadu_si256((const __m256i *)(dst + i));
        s = sourceOverSpan8(d, s, f, factor);
    }
    if (four) _mm_storeu_si128((__m128i *)(dst + i), _mm256_castsi256_si128(s));
    else _mm256_storeu_si256((__m256i *)(dst + i), s);
}

AVX2 void citrine_source_over_span_avx2(uint32_t *dst, const uint32_t *src, intptr_t count, uint32_t factor) {
    if (factor == 0) return;    // s·0/255 = 0 and dst·255/255 = dst: nothing changes
    const __m256i f = _mm256_set1_epi16((short)factor);
    intptr_t i = 0;
    if (count > 8 && count % 8 != 0) {
        // The last eight from the destination as it was, stored after the others, instead of
        // AVX2's masked moves (TextureRows.h's `over8`). The skips below leave the words the
        // arithmetic gives (a transparent source keeps dst, an opaque one at full factor is s).
        const intptr_t k = count - 8;
        __m256i last = sourceOverSpan8(_mm256_loadu_si256((const __m256i *)(dst + k)),
                                       _mm256_loadu_si256((const __m256i *)(src + k)), f, factor);
        for (; i + 8 <= count; i += 8) sourceOverSpanAt(dst, src, i, f, factor, 0);
        _mm256_storeu_si256((__m256i *)(dst + k), last);
        return;
    }
    for (; i + 8 <= count; i += 8) sourceOverSpanAt(dst, src, i, f, factor, 0);
    if (i < count) {
        if (count - i == 4) {
            sourceOverSpanAt(dst, src, i, f, factor, 1);
            return;
        }
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count - i)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        __m256i s = _mm256_maskload_epi32((const int *)(src + i), mask);
        __m256i d = _mm256_maskload_epi32((const int *)(dst + i), mask);
        _mm256_maskstore_epi32((int *)(dst + i), mask, sourceOverSpan8(d, s, f, factor));
    }
}

// The solid sweep, compiled here for AVX2 (AVX512.c compiles it again with AVX-512's).
#define SWEEP_TARGET AVX2
#define SWEEP_FUNCTION citrine_sweep_solid_avx2
#define SWEEP_SOLID_SPAN(dst, count, src) citrine_source_over_solid_avx2(dst, count, src)
#define SWEEP_FILL_SPAN(dst, count, word) citrine_fill_avx2(dst, count, word)
#include "SweepSolid.h"

#include "Texture8.h"

// The texture rows (their flat middles through the sweep's `solidRun`), compiled here for AVX2
// (AVX512.c compiles them again with AVX-512's masked moves for the last pixels of a row).
#define TEXTURE_TARGET AVX2
#define TEXTURE_TRANSLATED_FUNCTION citrine_translated_row_avx2
#define TEXTURE_TRANSLATED_ROWS_FUNCTION citrine_translated_rows_avx2
#define TEXTURE_TURNED_FUNCTION citrine_turned_row_avx2
#define TEXTURE_TURNED_ROWS_FUNCTION citrine_turned_rows_avx2
#define TEXTURE_OVERLAPPED_TAILS 1
#include "TextureRows.h"

AVX2 void citrine_bilinear_row_avx2(const uint32_t *words, intptr_t width, int64_t fu, int64_t fv,
                                    int64_t dfu, int64_t dfv, intptr_t count, uint32_t *out) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    QuadWalk w = quadWalk(fu, fv, dfu, dfv);
    const uint32_t *q[8];
    intptr_t i = 0;
    for (; i + 8 <= count; i += 8) {
        nextQuads(&w, words, width, 8, q);
        _mm256_storeu_si256((__m256i *)(out + i), bilinear8(q, width, weights(w.fractionU), weights(w.fractionV)));
        stepFractions(&w);
    }
    if (i < count) {
        intptr_t n = count - i;
        nextQuads(&w, words, width, n, q);
        _mm256_maskstore_epi32((int *)(out + i), _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), lanes),
                               bilinear8(q, width, weights(w.fractionU), weights(w.fractionV)));
    }
}

/// Pixels i … i + 7 of `citrine_projective_row_avx2`, four at a time (`half` 0 or 1): the
/// device pixel centres (px + i + k, py) mapped by `m` with the homogeneous divide, as
/// `ImageSampler.projectiveSample` computes them, multiplies and adds kept apart; the texel
/// columns and rows of the quads (`ImageSampler.sampleBilinear`'s x0, y0) and the weights of
/// their right columns and lower rows. Returns the lanes (bits 0–3) whose w > 10⁻¹² and whose
/// position lies within ±10⁹ texels.
static inline AVX2 __attribute__((always_inline)) int projective4(const double *m, __m256d x, __m256d ym1, __m256d ym4, __m256d ym7,
                                                                  __m128i *x0, __m128i *y0, __m128i *wx, __m128i *wy) {
    const __m256d half = _mm256_set1_pd(0.5), scale = _mm256_set1_pd(256), sign = _mm256_set1_pd(-0.0), limit = _mm256_set1_pd(1e9);
    __m256d w = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(m[6]), x), ym7), _mm256_set1_pd(m[8]));
    __m256d u = _mm256_div_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(m[0]), x), ym1), _mm256_set1_pd(m[2])), w);
    __m256d v = _mm256_div_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(m[3]), x), ym4), _mm256_set1_pd(m[5])), w);
    __m256d ok = _mm256_and_pd(_mm256_cmp_pd(w, _mm256_set1_pd(1e-12), _CMP_GT_OQ),
                               _mm256_and_pd(_mm256_cmp_pd(_mm256_andnot_pd(sign, u), limit, _CMP_LT_OQ),
                                             _mm256_cmp_pd(_mm256_andnot_pd(sign, v), limit, _CMP_LT_OQ)));
    __m256d su = _mm256_sub_pd(u, half), sv = _mm256_sub_pd(v, half);
    __m256d fu = _mm256_floor_pd(su), fv = _mm256_floor_pd(sv);
    *x0 = _mm256_cvttpd_epi32(fu);
    *y0 = _mm256_cvttpd_epi32(fv);
    *wx = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_sub_pd(su, fu), scale), half));
    *wy = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_sub_pd(sv, fv), scale), half));
    return _mm256_movemask_pd(ok);
}

AVX2 intptr_t citrine_projective_row_avx2(const double *m, const uint32_t *words, intptr_t width, intptr_t height,
                                          double px, double py, intptr_t count, uint32_t *out) {
    if (width < 2 || height < 2 || width > INT32_MAX || height > INT32_MAX) return 0;
    const __m256d ym1 = _mm256_set1_pd(m[1] * py), ym4 = _mm256_set1_pd(m[4] * py), ym7 = _mm256_set1_pd(m[7] * py);
    const __m256d steps = _mm256_setr_pd(0, 1, 2, 3);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), none = _mm256_set1_epi32(-1);
    const __m256i lastColumn = _mm256_set1_epi32((int)width - 1), lastRow = _mm256_set1_epi32((int)height - 1);
    const uint32_t *q[8];
    int32_t columns[8], rows[8];
    for (intptr_t i = 0; i < count; i += 8) {
        intptr_t n = count - i < 8 ? count - i : 8;
        __m128i x0a, y0a, wxa, wya, x0b, y0b, wxb, wyb;
        // px + i + k: half-integers, exact, as the Swift loop's positions.
        int ok = projective4(m, _mm256_add_pd(_mm256_set1_pd(px + (double)i), steps), ym1, ym4, ym7, &x0a, &y0a, &wxa, &wya);
        ok |= projective4(m, _mm256_add_pd(_mm256_set1_pd(px + (double)(i + 4)), steps), ym1, ym4, ym7, &x0b, &y0b, &wxb, &wyb) << 4;
        __m256i x0 = _mm256_set_m128i(x0b, x0a), y0 = _mm256_set_m128i(y0b, y0a);
        // The quad lies inside the image: 0 ≤ x0 < width − 1, 0 ≤ y0 < height − 1.
        __m256i inside = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(x0, none), _mm256_cmpgt_epi32(lastColumn, x0)),
                                          _mm256_and_si256(_mm256_cmpgt_epi32(y0, none), _mm256_cmpgt_epi32(lastRow, y0)));
        int wanted = (1 << n) - 1;
        if (((ok & _mm256_movemask_ps(_mm256_castsi256_ps(inside))) & wanted) != wanted) return i;
        _mm256_storeu_si256((__m256i *)columns, x0);
        _mm256_storeu_si256((__m256i *)rows, y0);
        for (int k = 0; k < 8; k++) q[k] = k < n ? words + ((intptr_t)rows[k] * width + columns[k]) : q[0];
        __m256i wx = _mm256_set_m128i(wxb, wxa), wy = _mm256_set_m128i(wyb, wya);
        __m256i s = bilinear8(q, width, _mm256_or_si256(wx, _mm256_slli_epi32(wx, 16)), _mm256_or_si256(wy, _mm256_slli_epi32(wy, 16)));
        if (n == 8) _mm256_storeu_si256((__m256i *)(out + i), s);
        else _mm256_maskstore_epi32((int *)(out + i), _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), lanes), s);
    }
    return count;
}

#else

int citrine_has_avx2(void) { return 0; }
int citrine_has_avx512(void) { return 0; }
int citrine_avx2_enabled = 0;
int citrine_avx512_enabled = 0;
void (*citrine_source_over_solid_kernel)(uint32_t *dst, intptr_t count, uint32_t src) = citrine_source_over_solid_avx2;
void citrine_avx512_set_enabled(int enabled) { citrine_avx512_enabled = enabled; }
void citrine_source_over_row_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, intptr_t count,
                                  uint32_t opacity) {
    (void)dst; (void)src; (void)coverage; (void)count; (void)opacity;
}
void citrine_fill_avx2(uint32_t *dst, intptr_t count, uint32_t word) { (void)dst; (void)count; (void)word; }
void citrine_source_over_span_avx2(uint32_t *dst, const uint32_t *src, intptr_t count, uint32_t factor) {
    (void)dst; (void)src; (void)count; (void)factor;
}
void citrine_source_over_solid_avx2(uint32_t *dst, intptr_t count, uint32_t src) { (void)dst; (void)count; (void)src; }
void citrine_translated_row_avx2(const uint32_t *top, const uint32_t *bottom, intptr_t count,
                                 uint16_t left, uint16_t right, uint16_t upper, uint16_t lower,
                                 uint32_t factor, uint32_t *dst) {
    (void)top; (void)bottom; (void)count; (void)left; (void)right; (void)upper; (void)lower; (void)factor; (void)dst;
}
void citrine_turned_row_avx2(const uint32_t *words, intptr_t width, int64_t fu, int64_t fv,
                             int64_t dfu, int64_t dfv, intptr_t count, uint32_t factor, uint32_t *dst) {
    (void)words; (void)width; (void)fu; (void)fv; (void)dfu; (void)dfv; (void)count; (void)factor; (void)dst;
}
void citrine_translated_rows_avx2(const citrine_translated_rows *draw) { (void)draw; }
int32_t citrine_turned_rows_avx2(citrine_turned_rows *draw) { (void)draw; return 0; }
void citrine_bilinear_row_avx2(const uint32_t *words, intptr_t width, int64_t fu, int64_t fv,
                               int64_t dfu, int64_t dfv, intptr_t count, uint32_t *out) {
    (void)words; (void)width; (void)fu; (void)fv; (void)dfu; (void)dfv; (void)count; (void)out;
}
intptr_t citrine_projective_row_avx2(const double *m, const uint32_t *words, intptr_t width, intptr_t height,
                                     double px, double py, intptr_t count, uint32_t *out) {
    (void)m; (void)words; (void)width; (void)height; (void)px; (void)py; (void)count; (void)out;
    return 0;
}
void citrine_sweep_solid_avx2(float *cells, intptr_t stride, intptr_t *rowMin, intptr_t *rowMax, intptr_t rows,
                              intptr_t width, uint32_t *dst, intptr_t dstStride, uint32_t color, uint32_t opacity) {
    (void)cells; (void)stride; (void)rowMin; (void)rowMax; (void)rows; (void)width; (void)dst; (void)dstStride;
    (void)color; (void)opacity;
}

#endif
