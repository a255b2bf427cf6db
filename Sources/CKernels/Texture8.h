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
/// eight pixels at a time, all in vector lanes: each pixel's position as its whole part (the
/// top-left texel of its 2×2, as `FixedRun.texelIndex` finds it) and its fraction (the low 32
/// bits, which give the bilinear weights), for the rows that sample turned and scaled images.
/// A step adds the eight pixels' move to the fractions and carries into the whole parts: the
/// whole parts are the high words of the 64-bit positions, exactly (for positions inside the
/// image, the only ones read). Worked out a lane at a time, the quads took more instructions
/// than the sampling itself (callgrind, `layer-storm-bench`: 10.1 M of the turned rows' 65.5 M a
/// frame for `(fv >> 32) · width + (fu >> 32)` and the pointers alone).
typedef struct {
    __m256i fractionU, fractionV, stepU, stepV;
    /// The whole parts, and what a step adds to them besides the carry: the step's high word + 1
    /// (the carry is then added as −1 when there is none).
    __m256i wholeU, wholeV, wholeStepU, wholeStepV;
} QuadWalk;

static inline AVX2 __attribute__((always_inline)) QuadWalk quadWalk(int64_t fu, int64_t fv, int64_t dfu, int64_t dfv) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    int32_t u[8], v[8];
    uint64_t pu = (uint64_t)fu, pv = (uint64_t)fv;
    for (int k = 0; k < 8; k++, pu += (uint64_t)dfu, pv += (uint64_t)dfv) {
        u[k] = (int32_t)((int64_t)pu >> 32);
        v[k] = (int32_t)((int64_t)pv >> 32);
    }
    const uint64_t su = 8 * (uint64_t)dfu, sv = 8 * (uint64_t)dfv;
    QuadWalk w = {_mm256_add_epi32(_mm256_set1_epi32((int)(uint32_t)fu), _mm256_mullo_epi32(lanes, _mm256_set1_epi32((int)(uint32_t)dfu))),
                  _mm256_add_epi32(_mm256_set1_epi32((int)(uint32_t)fv), _mm256_mullo_epi32(lanes, _mm256_set1_epi32((int)(uint32_t)dfv))),
                  _mm256_set1_epi32((int)(uint32_t)su), _mm256_set1_epi32((int)(uint32_t)sv),
                  _mm256_loadu_si256((const __m256i *)u), _mm256_loadu_si256((const __m256i *)v),
                  _mm256_set1_epi32((int)(uint32_t)((su >> 32) + 1)), _mm256_set1_epi32((int)(uint32_t)((sv >> 32) + 1))};
    return w;
}

/// The offsets (in words from the image's first texel) of the top-left texels of the walk's next
/// `n` pixels' quads (1…8); lanes past `n` (the last one to seven pixels of a run) hold the first
/// one's again, as they may lie outside the image. The image has at most 2³¹ texels (Pixmap's
/// limit is 2²⁸).
static inline AVX2 __attribute__((always_inline)) __m256i quadOffsets(const QuadWalk *w, intptr_t width, intptr_t n) {
    __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(w->wholeV, _mm256_set1_epi32((int)width)), w->wholeU);
    if (n >= 8) return at;
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(at, _mm256_setzero_si256()), at,
                              _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), lanes));
}

/// The texel quads' top-left texels at `offsets` from `words`, as `bilinear8` takes them.
static inline AVX2 __attribute__((always_inline)) void quadPointers(const uint32_t *words, __m256i offsets, const uint32_t **q) {
    int32_t at[8];
    _mm256_storeu_si256((__m256i *)at, offsets);
    for (int k = 0; k < 8; k++) q[k] = words + at[k];
}

/// The walk moved on eight pixels: the fractions, and the whole parts with their carries (a
/// fraction that wrapped is below where it was; unsigned: `max` of the two is the new one when
/// it did not).
static inline AVX2 __attribute__((always_inline)) void stepWalk(QuadWalk *w) {
    __m256i u = _mm256_add_epi32(w->fractionU, w->stepU), v = _mm256_add_epi32(w->fractionV, w->stepV);
    __m256i keptU = _mm256_cmpeq_epi32(_mm256_max_epu32(u, w->fractionU), u);
    __m256i keptV = _mm256_cmpeq_epi32(_mm256_max_epu32(v, w->fractionV), v);
    w->wholeU = _mm256_add_epi32(_mm256_add_epi32(w->wholeU, w->wholeStepU), keptU);
    w->wholeV = _mm256_add_epi32(_mm256_add_epi32(w->wholeV, w->wholeStepV), keptV);
    w->fractionU = u;
    w->fractionV = v;
}
