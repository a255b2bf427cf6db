// Eight-pixel bilinear sampling shared by CKernels.c and AVX512.c (AVX2 target; inlined into
// AVX2 and AVX-512 functions alike): `ImageSampler.weigh4`'s integer lane operations, as
// CKernels.c says, and the fixed-point walk over texel quads. Included only on x86-64.
#pragma once
#include "Blend8.h"

/// `ImageSampler.weigh4`'s vertical pass: (t·upper + b·lower + 2¹⁵) >> 16, high and low bytes apart.
static inline AVX2 __m256i vertical(__m256i t, __m256i b, __m256i upper, __m256i lower) {
    const __m256i low = _mm256_set1_epi16(0x00FF), half = _mm256_set1_epi16(128);
    __m256i high = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_srli_epi16(t, 8), upper), _mm256_mullo_epi16(_mm256_srli_epi16(b, 8), lower));
    __m256i lows = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(t, low), upper), _mm256_mullo_epi16(_mm256_and_si256(b, low), lower));
    return _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(high, half), _mm256_srli_epi16(lows, 8)), 8);
}


/// `ImageSampler.weigh4`: texels t00, t10 (top row) and t01, t11 (bottom row) of eight pixels,
/// weighed per channel with column weights `left`, `right` and row weights `upper`, `lower`.
static inline AVX2 __m256i weigh8(__m256i t00, __m256i t10, __m256i t01, __m256i t11,
                                  __m256i left, __m256i right, __m256i upper, __m256i lower) {
    const __m256i low = _mm256_set1_epi16(0x00FF);
    // Two texel columns blended: R, B (even) and G, A (odd) channels.
    __m256i te = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(t00, low), left), _mm256_mullo_epi16(_mm256_and_si256(t10, low), right));
    __m256i to = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_srli_epi16(t00, 8), left), _mm256_mullo_epi16(_mm256_srli_epi16(t10, 8), right));
    __m256i be = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(t01, low), left), _mm256_mullo_epi16(_mm256_and_si256(t11, low), right));
    __m256i bo = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_srli_epi16(t01, 8), left), _mm256_mullo_epi16(_mm256_srli_epi16(t11, 8), right));
    return _mm256_or_si256(vertical(te, be, upper, lower), _mm256_slli_epi16(vertical(to, bo, upper, lower), 8));
}

/// The eight-byte texel pairs at `p[0]`, `p[1]` (the low half) and `p[2]`, `p[3]` (the high half).
static inline AVX2 __m256i pairs4(const uint32_t *p0, const uint32_t *p1, const uint32_t *p2, const uint32_t *p3) {
    __m128i low = _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)p0)), (const double *)p1));
    __m128i high = _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)p2)), (const double *)p3));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
}

/// `FixedRun.QuadFractions.weights`: ((f >> 23) + 1) >> 1 in both 16-bit halves of each lane.
static inline AVX2 __m256i weights(__m256i f) {
    __m256i w = _mm256_srli_epi32(_mm256_add_epi32(_mm256_srli_epi32(f, 23), _mm256_set1_epi32(1)), 1);
    return _mm256_or_si256(w, _mm256_slli_epi32(w, 16));
}

/// Eight bilinear samples: the texel quads at `q` (top-left texels; the row below `width`
/// words on) weighed by `right` and `lower` (the weights of the right and lower texels, 0…256,
/// in both 16-bit halves of each lane).
static inline AVX2 __attribute__((always_inline)) __m256i bilinear8(const uint32_t *const q[8], intptr_t width,
                                                                    __m256i right, __m256i lower) {
    const __m256i full = _mm256_set1_epi16(256);
    // Pixels 0, 1, 4, 5 and 2, 3, 6, 7: one shuffle then splits first and second texels in order.
    __m256i topA = pairs4(q[0], q[1], q[4], q[5]), topB = pairs4(q[2], q[3], q[6], q[7]);
    __m256i bottomA = pairs4(q[0] + width, q[1] + width, q[4] + width, q[5] + width);
    __m256i bottomB = pairs4(q[2] + width, q[3] + width, q[6] + width, q[7] + width);
    __m256i t00 = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(topA), _mm256_castsi256_ps(topB), _MM_SHUFFLE(2, 0, 2, 0)));
    __m256i t10 = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(topA), _mm256_castsi256_ps(topB), _MM_SHUFFLE(3, 1, 3, 1)));
    __m256i t01 = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(bottomA), _mm256_castsi256_ps(bottomB), _MM_SHUFFLE(2, 0, 2, 0)));
    __m256i t11 = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(bottomA), _mm256_castsi256_ps(bottomB), _MM_SHUFFLE(3, 1, 3, 1)));
    return weigh8(t00, t10, t01, t11, _mm256_sub_epi16(full, right), right, _mm256_sub_epi16(full, lower), lower);
}


/// A run of pixels whose texel positions (fu, fv) step by (dfu, dfv), 32.32 fixed point, walked
/// eight pixels at a time: each step's quads (the top-left texel of each pixel's 2×2, as
/// `FixedRun.texelIndex` finds it) and the fractions of the positions (their low 32 bits, which
/// give the bilinear weights), for the rows that sample turned and scaled images.
typedef struct {
    int64_t fu, fv, dfu, dfv;
    __m256i fractionU, fractionV, stepU, stepV;
} QuadWalk;

static inline AVX2 __attribute__((always_inline)) QuadWalk quadWalk(int64_t fu, int64_t fv, int64_t dfu, int64_t dfv) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    QuadWalk w = {fu, fv, dfu, dfv,
                  _mm256_add_epi32(_mm256_set1_epi32((int)(uint32_t)fu), _mm256_mullo_epi32(lanes, _mm256_set1_epi32((int)(uint32_t)dfu))),
                  _mm256_add_epi32(_mm256_set1_epi32((int)(uint32_t)fv), _mm256_mullo_epi32(lanes, _mm256_set1_epi32((int)(uint32_t)dfv))),
                  _mm256_set1_epi32((int)(uint32_t)(8 * dfu)), _mm256_set1_epi32((int)(uint32_t)(8 * dfv))};
    return w;
}

/// The quads of the walk's next `n` pixels (1…8) into `q`; lanes past `n` (the last one to seven
/// pixels of a run) read the first quad again. The positions move on eight pixels.
static inline AVX2 __attribute__((always_inline)) void nextQuads(QuadWalk *w, const uint32_t *words, intptr_t width, intptr_t n,
                                                                 const uint32_t **q) {
    for (intptr_t k = 0; k < 8; k++) {
        q[k] = k < n ? words + ((w->fv >> 32) * width + (w->fu >> 32)) : q[0];
        w->fu += w->dfu;
        w->fv += w->dfv;
    }
}

/// The fractions of the walk's next eight pixels.
static inline AVX2 __attribute__((always_inline)) void stepFractions(QuadWalk *w) {
    w->fractionU = _mm256_add_epi32(w->fractionU, w->stepU);
    w->fractionV = _mm256_add_epi32(w->fractionV, w->stepV);
}
