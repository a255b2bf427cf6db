// The rasterizer's area accumulation (see include/CKernels.h): `Rasterizer.deposit`,
// `depositVertical` and `depositRow` for every held edge of a fill, in C. Scalar, as the Swift
// code: each float operation is the Swift one in the same order (single roundings, no fused
// multiply-add: the pragma below; `smaller`/`larger` as `a < b ? a : b`), so every cell gets the
// same float. What C adds is the processor's `roundss` (SSE4.1, part of the AVX2 target) for
// `Rasterizer.floorIndex`, which Swift without a build flag spells as seven instructions of bit
// tricks: ⌊max(v, 0)⌋ is the same integer for the box-local coordinates (0 ≤ v < 2²²) both take.
#include "CKernels.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define INLINE static inline AVX2 __attribute__((always_inline))

INLINE float smaller(float a, float b) { return a < b ? a : b; }
INLINE float larger(float a, float b) { return a > b ? a : b; }

/// `Rasterizer.floorIndex`: ⌊max(v, 0)⌋ (a NaN gives 0).
INLINE intptr_t floorIndex(float v) {
    __m128 w = _mm_set_ss(larger(v, 0));
    return (intptr_t)_mm_cvttss_si32(_mm_floor_ss(w, w));
}

/// `Rasterizer.ceilIndex`.
INLINE intptr_t ceilIndex(float v) {
    intptr_t f = floorIndex(v);
    return (float)f < v ? f + 1 : f;
}

/// `Rasterizer.depositRow`.
INLINE void depositRow(float *line, intptr_t row, float xa, float xb, float d, intptr_t *rowMin, intptr_t *rowMax) {
    intptr_t ia = floorIndex(xa);
    float xaFloor = (float)ia;
    intptr_t ib;
    if (xb <= xaFloor + 1) {
        float mid = (xa + xb) * 0.5f - xaFloor;
        line[ia] += d * (1 - mid);
        line[ia + 1] += d * mid;
        ib = ia + 1;
    } else {
        ib = xb <= xaFloor + 2 ? ia + 2 : ceilIndex(xb);
        float xbCeil = (float)ib;
        float inv = 1 / (xb - xa);
        float fa = xa - xaFloor;
        float firstArea = 0.5f * inv * (1 - fa) * (1 - fa);
        float fb = xb - xbCeil + 1;
        float lastArea = 0.5f * inv * fb * fb;
        line[ia] += d * firstArea;
        if (ib == ia + 2) {
            line[ia + 1] += d * (1 - firstArea - lastArea);
        } else {
            float second = inv * (1.5f - fa);
            line[ia + 1] += d * (second - firstArea);
            for (intptr_t x = ia + 2; x < ib - 1; x++) line[x] += d * inv;
            float before = second + (float)(ib - ia - 3) * inv;
            line[ib - 1] += d * (1 - before - lastArea);
        }
        line[ib] += d * lastArea;
    }
    if (ia < rowMin[row]) rowMin[row] = ia;
    if (ib > rowMax[row]) rowMax[row] = ib;
}

/// `Rasterizer.deposit` of one box-local segment.
INLINE void deposit(double ax, double ay, double bx, double by, float *cells, intptr_t stride, intptr_t height,
                    intptr_t *rowMin, intptr_t *rowMax) {
    if (ay == by) return;
    float dir = ay < by ? 1 : -1;
    float tx, ty, ex, ey;
    if (ay < by) { tx = (float)ax; ty = (float)ay; ex = (float)bx; ey = (float)by; }
    else { tx = (float)bx; ty = (float)by; ex = (float)ax; ey = (float)ay; }
    float dxdy = (ex - tx) / (ey - ty);
    intptr_t firstRow = floorIndex(ty);
    intptr_t lastRow = ceilIndex(ey) - 1;
    if (height - 1 < lastRow) lastRow = height - 1;
    if (firstRow > lastRow) return;
    float *line = cells + firstRow * stride;
    if (tx == ex) {
        // `Rasterizer.depositVertical`.
        intptr_t column = floorIndex(tx);
        float mid = tx - (float)column;
        for (intptr_t row = firstRow; row <= lastRow; row++) {
            float d = (smaller((float)(row + 1), ey) - larger((float)row, ty)) * dir;
            line[column] += d * (1 - mid);
            line[column + 1] += d * mid;
            if (column < rowMin[row]) rowMin[row] = column;
            if (column + 1 > rowMax[row]) rowMax[row] = column + 1;
            line += stride;
        }
        return;
    }
    float xTop = tx, yTop = ty;
    float rowEdge = (float)(firstRow + 1);
    for (intptr_t row = firstRow; row <= lastRow; row++) {
        float yBottom = smaller(rowEdge, ey);
        float xBottom = row == lastRow ? ex : tx + (yBottom - ty) * dxdy;
        depositRow(line, row, smaller(xTop, xBottom), larger(xTop, xBottom), (yBottom - yTop) * dir, rowMin, rowMax);
        xTop = xBottom;
        yTop = yBottom;
        rowEdge += 1;
        line += stride;
    }
}

AVX2 void citrine_deposit_avx2(const double *edges, intptr_t count, double originX, double originY, float *cells,
                               intptr_t stride, intptr_t height, intptr_t *rowMin, intptr_t *rowMax) {
    for (intptr_t i = 0; i < count; i++) {
        const double *e = edges + 4 * i;
        deposit(e[0] - originX, e[1] - originY, e[2] - originX, e[3] - originY, cells, stride, height, rowMin, rowMax);
    }
}

AVX2 void citrine_deposit_segment_avx2(double ax, double ay, double bx, double by, float *cells, intptr_t stride,
                                       intptr_t height, intptr_t *rowMin, intptr_t *rowMax) {
    deposit(ax, ay, bx, by, cells, stride, height, rowMin, rowMax);
}

AVX2 void citrine_edge_bounds_avx2(const double *edges, intptr_t count, double *bounds) {
    // Lanes (x0, y0, x1, y1) of every edge: `vminpd`/`vmaxpd` are the Swift loop's a < b ? a : b
    // and a > b ? a : b, lane by lane; the two halves are merged at the end.
    __m256d low = _mm256_setr_pd(bounds[0], bounds[1], bounds[0], bounds[1]);
    __m256d high = _mm256_setr_pd(-bounds[2], -bounds[3], -bounds[2], -bounds[3]);
    for (intptr_t i = 0; i < count; i++) {
        __m256d e = _mm256_loadu_pd(edges + 4 * i);
        low = _mm256_min_pd(low, e);
        high = _mm256_max_pd(high, e);
    }
    __m128d lowXY = _mm_min_pd(_mm256_castpd256_pd128(low), _mm256_extractf128_pd(low, 1));
    __m128d highXY = _mm_max_pd(_mm256_castpd256_pd128(high), _mm256_extractf128_pd(high, 1));
    _mm_storeu_pd(bounds, lowXY);
    _mm_storeu_pd(bounds + 2, _mm_xor_pd(highXY, _mm_set1_pd(-0.0)));
}

#else

void citrine_deposit_avx2(const double *edges, intptr_t count, double originX, double originY, float *cells,
                          intptr_t stride, intptr_t height, intptr_t *rowMin, intptr_t *rowMax) {
    (void)edges; (void)count; (void)originX; (void)originY; (void)cells; (void)stride; (void)height;
    (void)rowMin; (void)rowMax;
}
void citrine_deposit_segment_avx2(double ax, double ay, double bx, double by, float *cells, intptr_t stride,
                                  intptr_t height, intptr_t *rowMin, intptr_t *rowMax) {
    (void)ax; (void)ay; (void)bx; (void)by; (void)cells; (void)stride; (void)height; (void)rowMin; (void)rowMax;
}
void citrine_edge_bounds_avx2(const double *edges, intptr_t count, double *bounds) {
    (void)edges; (void)count; (void)bounds;
}

#endif
