// Gaussian blur taps (see include/CKernels.h): `Pixmap.gaussianBlur`'s inner sum over a kernel
// for many outputs at once. The caller lays its floats out so that one vector holds the
// channels of neighbouring outputs whose taps advance together: two or four pixels of a row
// (tap stride one pixel), or the same row of two or four columns (tap stride one group).
// Four runs are summed side by side so the adds of one do not wait on the previous add of the
// same accumulator. No fused multiply-add: each lane repeats the Swift loop's multiply and add.
// The words of a line go to floats and back (`citrine_blur_unpack_avx2`, `_pack_avx2`) two
// pixels a vector, with `SIMD4<Float>(unpack:)` and `.packed`'s operations.
#include "CKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

AVX2 void citrine_blur_taps_avx2(const float *src, float *dst, intptr_t vectors, intptr_t tapStride, const float *kernel,
                                 intptr_t taps) {
    intptr_t v = 0;
    for (; v + 4 <= vectors; v += 4) {
        const float *p = src + v * 8;
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (intptr_t d = 0; d < taps; d++, p += tapStride) {
            __m256 k = _mm256_set1_ps(kernel[d]);
            a0 = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_loadu_ps(p), k));
            a1 = _mm256_add_ps(a1, _mm256_mul_ps(_mm256_loadu_ps(p + 8), k));
            a2 = _mm256_add_ps(a2, _mm256_mul_ps(_mm256_loadu_ps(p + 16), k));
            a3 = _mm256_add_ps(a3, _mm256_mul_ps(_mm256_loadu_ps(p + 24), k));
        }
        _mm256_storeu_ps(dst + v * 8, a0);
        _mm256_storeu_ps(dst + v * 8 + 8, a1);
        _mm256_storeu_ps(dst + v * 8 + 16, a2);
        _mm256_storeu_ps(dst + v * 8 + 24, a3);
    }
    for (; v < vectors; v++) {
        const float *p = src + v * 8;
        __m256 a = _mm256_setzero_ps();
        for (intptr_t d = 0; d < taps; d++, p += tapStride) a = _mm256_add_ps(a, _mm256_mul_ps(_mm256_loadu_ps(p), _mm256_set1_ps(kernel[d])));
        _mm256_storeu_ps(dst + v * 8, a);
    }
}

AVX512 void citrine_blur_taps_avx512(const float *src, float *dst, intptr_t vectors, intptr_t tapStride, const float *kernel,
                                     intptr_t taps) {
    intptr_t v = 0;
    for (; v + 4 <= vectors; v += 4) {
        const float *p = src + v * 16;
        __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (intptr_t d = 0; d < taps; d++, p += tapStride) {
            __m512 k = _mm512_set1_ps(kernel[d]);
            a0 = _mm512_add_ps(a0, _mm512_mul_ps(_mm512_loadu_ps(p), k));
            a1 = _mm512_add_ps(a1, _mm512_mul_ps(_mm512_loadu_ps(p + 16), k));
            a2 = _mm512_add_ps(a2, _mm512_mul_ps(_mm512_loadu_ps(p + 32), k));
            a3 = _mm512_add_ps(a3, _mm512_mul_ps(_mm512_loadu_ps(p + 48), k));
        }
        _mm512_storeu_ps(dst + v * 16, a0);
        _mm512_storeu_ps(dst + v * 16 + 16, a1);
        _mm512_storeu_ps(dst + v * 16 + 32, a2);
        _mm512_storeu_ps(dst + v * 16 + 48, a3);
    }
    for (; v < vectors; v++) {
        const float *p = src + v * 16;
        __m512 a = _mm512_setzero_ps();
        for (intptr_t d = 0; d < taps; d++, p += tapStride) a = _mm512_add_ps(a, _mm512_mul_ps(_mm512_loadu_ps(p), _mm512_set1_ps(kernel[d])));
        _mm512_storeu_ps(dst + v * 16, a);
    }
}

// One entry of a blur line is `group` neighbouring words; entry i starts at words + i·step.
// Entries that touch (step == group) make one run of count·group words, else each entry is a
// run of its own: `runs` runs of `length` words, run r at words + r·step and line + 4·r·length.
typedef struct { intptr_t runs, length; } LineRuns;

static inline LineRuns lineRuns(intptr_t step, intptr_t count, intptr_t group) {
    return step == group ? (LineRuns){1, count * group} : (LineRuns){count, group};
}

AVX2 void citrine_blur_unpack_avx2(const uint32_t *words, intptr_t step, intptr_t count, intptr_t group, float *line) {
    const __m256 scale = _mm256_set1_ps(255.0f);
    LineRuns l = lineRuns(step, count, group);
    for (intptr_t r = 0; r < l.runs; r++) {
        const uint32_t *in = words + r * step;
        float *out = line + 4 * r * l.length;
        intptr_t w = 0;
        for (; w + 2 <= l.length; w += 2) {
            __m256 v = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(in + w))));
            _mm256_storeu_ps(out + 4 * w, _mm256_div_ps(v, scale));
        }
        for (; w < l.length; w++) {
            for (int c = 0; c < 4; c++) out[4 * w + c] = (float)((in[w] >> (8 * c)) & 0xFF) / 255.0f;
        }
    }
}

AVX2 void citrine_blur_pack_avx2(const float *sums, intptr_t count, intptr_t group, uint32_t *words, intptr_t step) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f), scale = _mm256_set1_ps(255.0f),
                 half = _mm256_set1_ps(0.5f);
    LineRuns l = lineRuns(step, count, group);
    for (intptr_t r = 0; r < l.runs; r++) {
        const float *in = sums + 4 * r * l.length;
        uint32_t *out = words + r * step;
        intptr_t w = 0;
        for (; w + 2 <= l.length; w += 2) {
            __m256 v = _mm256_loadu_ps(in + 4 * w);
            v = _mm256_add_ps(_mm256_mul_ps(_mm256_min_ps(_mm256_max_ps(v, zero), one), scale), half);
            __m256i c = _mm256_cvttps_epi32(v);
            c = _mm256_min_epu32(c, _mm256_shuffle_epi32(c, 0xFF));   // colour ≤ alpha, pixel by pixel
            __m256i b = _mm256_packus_epi16(_mm256_packus_epi32(c, c), _mm256_setzero_si256());
            out[w] = (uint32_t)_mm256_extract_epi32(b, 0);
            out[w + 1] = (uint32_t)_mm256_extract_epi32(b, 4);
        }
        for (; w < l.length; w++) {
            uint32_t c[4];
            for (int k = 0; k < 4; k++) {
                float x = in[4 * w + k] < 0.0f ? 0.0f : in[4 * w + k];
                x = x > 1.0f ? 1.0f : x;
                x *= 255.0f;   // two statements: never one fused multiply-add
                x += 0.5f;
                c[k] = (uint32_t)x;
            }
            for (int k = 0; k < 3; k++) c[k] = c[k] < c[3] ? c[k] : c[3];
            out[w] = c[0] | c[1] << 8 | c[2] << 16 | c[3] << 24;
        }
    }
}

#else

void citrine_blur_unpack_avx2(const uint32_t *words, intptr_t step, intptr_t count, intptr_t group, float *line) {
    (void)words; (void)step; (void)count; (void)group; (void)line;
}
void citrine_blur_pack_avx2(const float *sums, intptr_t count, intptr_t group, uint32_t *words, intptr_t step) {
    (void)sums; (void)count; (void)group; (void)words; (void)step;
}
void citrine_blur_taps_avx2(const float *src, float *dst, intptr_t vectors, intptr_t tapStride, const float *kernel,
                            intptr_t taps) {
    (void)src; (void)dst; (void)vectors; (void)tapStride; (void)kernel; (void)taps;
}
void citrine_blur_taps_avx512(const float *src, float *dst, intptr_t vectors, intptr_t tapStride, const float *kernel,
                              intptr_t taps) {
    (void)src; (void)dst; (void)vectors; (void)tapStride; (void)kernel; (void)taps;
}

#endif
