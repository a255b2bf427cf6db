// Gaussian blur taps (see include/CKernels.h): `Pixmap.gaussianBlur`'s inner sum over a kernel
// for many outputs at once. The caller lays its floats out so that one vector holds the
// channels of neighbouring outputs whose taps advance together: two or four pixels of a row
// (tap stride one pixel), or the same row of two or four columns (tap stride one group).
// Four runs are summed side by side so the adds of one do not wait on the previous add of the
// same accumulator. No fused multiply-add: each lane repeats the Swift loop's multiply and add.
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

#else

void citrine_blur_taps_avx2(const float *src, float *dst, intptr_t vectors, intptr_t tapStride, const float *kernel,
                            intptr_t taps) {
    (void)src; (void)dst; (void)vectors; (void)tapStride; (void)kernel; (void)taps;
}
void citrine_blur_taps_avx512(const float *src, float *dst, intptr_t vectors, intptr_t tapStride, const float *kernel,
                              intptr_t taps) {
    (void)src; (void)dst; (void)vectors; (void)tapStride; (void)kernel; (void)taps;
}

#endif
