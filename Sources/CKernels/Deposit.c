// The rasterizer's area accumulation (see include/CKernels.h): `Rasterizer.deposit`,
// `depositVertical` and `depositRow` for every held edge of a fill, in C, with each float
// operation the Swift one in the same order (single roundings, no fused multiply-add: the pragma
// below; `smaller`/`larger` as `a < b ? a : b`, which `minss`/`vminps` are), so every cell gets
// the same float. A segment's rows go eight at a time through AVX2 lanes (`depositRows`): S3's
// strokes have 4.5 rows a segment and rows of three kinds (one column, two, more) in no
// predictable order: the scalar loop mispredicted 3.8 branches a segment, the lanes 1.9
// (callgrind's branch simulation), and S3's frame took 25 % less time. What C adds besides is
// the processor's `roundss`/`vroundps` (SSE4.1, part of the AVX2 target) for
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

/// `Rasterizer.blockBits`: the bits of the blocks of 2^`blockShift` columns that columns
/// `first … last` lie in.
INLINE uint64_t blockBits(intptr_t first, intptr_t last, intptr_t blockShift) {
    return (2ull << (last >> blockShift)) - (1ull << (first >> blockShift));
}

/// `Rasterizer.depositVertical`: the segment x = tx from ty down to ey (`dir` ±1). A row
/// strictly between the first and the last covers its whole height: its d = (Float(row + 1) −
/// Float(row))·dir is exactly dir (rows are whole numbers below 2²⁴), so those rows add the same
/// two floats, computed once, and the column bounds of all rows are widened in a loop of their
/// own. S6's rectangle sides are 72 such rows each (S6: 6 % fewer instructions a frame).
INLINE void depositVertical(float tx, float ty, float ey, float dir, intptr_t firstRow, intptr_t lastRow, float *line,
                            intptr_t stride, intptr_t *rowMin, intptr_t *rowMax, uint64_t *blocks,
                            intptr_t blockShift) {
    intptr_t column = floorIndex(tx);
    float mid = tx - (float)column;
    intptr_t ends[2] = { firstRow, lastRow };
    for (int k = 0; k < (lastRow > firstRow ? 2 : 1); k++) {
        float d = (smaller((float)(ends[k] + 1), ey) - larger((float)ends[k], ty)) * dir;
        float *cells = line + (ends[k] - firstRow) * stride;
        cells[column] += d * (1 - mid);
        cells[column + 1] += d * mid;
    }
    float left = dir * (1 - mid), right = dir * mid;
    float *cells = line + stride;
    for (intptr_t row = firstRow + 1; row < lastRow; row++) {
        cells[column] += left;
        cells[column + 1] += right;
        cells += stride;
    }
    for (intptr_t row = firstRow; row <= lastRow; row++) {
        rowMin[row] = column < rowMin[row] ? column : rowMin[row];
        rowMax[row] = column + 1 > rowMax[row] ? column + 1 : rowMax[row];
        if (blocks) blocks[row] |= blockBits(column, column + 1, blockShift);
    }
}

/// The rows `firstRow … lastRow` of a segment that is not vertical (top (tx, ty), bottom (ex, ey),
/// `dxdy` its slope, `dir` ±1), eight rows at a time: `Rasterizer.deposit`'s row loop and
/// `depositRow` with every float operation the Swift one, lane by lane (`vminps`/`vmaxps` are
/// `smaller`/`larger`; a row's top is the lane before's bottom, the segment's top in the first
/// row). All three of `depositRow`'s cases are computed in every lane and the right one blended
/// in, so the row's case costs no branch: each row adds to its cells ia, ia + 1 and ia + 2 (a row
/// within one column adds +0 to ia + 2 — the same bits: a cell starts at +0 and a sum of floats
/// is −0 only when both are, so no cell is ever −0 and x + 0 = x); rows past ia + 2 (14 % of
/// S3's rows) then add the rest of their cells. Eight consecutive rows of one segment write
/// eight different cell rows, so adding lane by lane gives every cell its additions in the Swift
/// order.
INLINE void depositRows(float tx, float ty, float ex, float ey, float dxdy, float dir, intptr_t firstRow,
                        intptr_t lastRow, float *line, intptr_t stride, intptr_t *rowMin, intptr_t *rowMax, uint64_t *blocks,
                        intptr_t blockShift) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i previousLane = _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6);
    const __m256 one = _mm256_set1_ps(1), zero = _mm256_setzero_ps();
    const __m256i oneI = _mm256_set1_epi32(1), twoI = _mm256_set1_epi32(2), threeI = _mm256_set1_epi32(3);
    const __m256 vtx = _mm256_set1_ps(tx), vty = _mm256_set1_ps(ty), vex = _mm256_set1_ps(ex);
    const __m256 vey = _mm256_set1_ps(ey), vdxdy = _mm256_set1_ps(dxdy), vdir = _mm256_set1_ps(dir);
    const __m256i lastI = _mm256_set1_epi32((int)lastRow);
    __m256 xCarry = vtx, yCarry = vty;
    for (intptr_t row0 = firstRow; row0 <= lastRow; row0 += 8) {
        intptr_t count = lastRow - row0 + 1 < 8 ? lastRow - row0 + 1 : 8;
        __m256i rows = _mm256_add_epi32(_mm256_set1_epi32((int)row0), lanes);
        __m256 yBottom = _mm256_min_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(rows, oneI)), vey);
        __m256 xBottom = _mm256_add_ps(vtx, _mm256_mul_ps(_mm256_sub_ps(yBottom, vty), vdxdy));
        xBottom = _mm256_blendv_ps(xBottom, vex, _mm256_castsi256_ps(_mm256_cmpeq_epi32(rows, lastI)));
        __m256 xTop = _mm256_blend_ps(_mm256_permutevar8x32_ps(xBottom, previousLane), xCarry, 1);
        __m256 yTop = _mm256_blend_ps(_mm256_permutevar8x32_ps(yBottom, previousLane), yCarry, 1);
        xCarry = _mm256_permutevar8x32_ps(xBottom, _mm256_set1_epi32(7));
        yCarry = _mm256_permutevar8x32_ps(yBottom, _mm256_set1_epi32(7));
        __m256 d = _mm256_mul_ps(_mm256_sub_ps(yBottom, yTop), vdir);
        __m256 xa = _mm256_min_ps(xTop, xBottom), xb = _mm256_max_ps(xTop, xBottom);

        // `floorIndex(xa)`, `ceilIndex(xb)`.
        __m256i ia = _mm256_cvttps_epi32(_mm256_floor_ps(_mm256_max_ps(xa, zero)));
        __m256 xaFloor = _mm256_cvtepi32_ps(ia);
        __m256i ibFloor = _mm256_cvttps_epi32(_mm256_floor_ps(_mm256_max_ps(xb, zero)));
        __m256i ibCeil = _mm256_sub_epi32(ibFloor,
            _mm256_castps_si256(_mm256_cmp_ps(_mm256_cvtepi32_ps(ibFloor), xb, _CMP_LT_OQ)));

        // Within one column.
        __m256 single = _mm256_cmp_ps(xb, _mm256_add_ps(xaFloor, one), _CMP_LE_OQ);
        __m256 mid = _mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(xa, xb), _mm256_set1_ps(0.5f)), xaFloor);
        // Across columns.
        __m256 withinTwo = _mm256_cmp_ps(xb, _mm256_add_ps(xaFloor, _mm256_set1_ps(2)), _CMP_LE_OQ);
        __m256i iaPlus2 = _mm256_add_epi32(ia, twoI);
        __m256i ib = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(ibCeil),
                                                          _mm256_castsi256_ps(iaPlus2), withinTwo));
        __m256 xbCeil = _mm256_cvtepi32_ps(ib);
        __m256 inv = _mm256_div_ps(one, _mm256_sub_ps(xb, xa));
        __m256 fa = _mm256_sub_ps(xa, xaFloor);
        __m256 halfInv = _mm256_mul_ps(_mm256_set1_ps(0.5f), inv);
        __m256 firstArea = _mm256_mul_ps(_mm256_mul_ps(halfInv, _mm256_sub_ps(one, fa)), _mm256_sub_ps(one, fa));
        __m256 fb = _mm256_add_ps(_mm256_sub_ps(xb, xbCeil), one);
        __m256 lastArea = _mm256_mul_ps(_mm256_mul_ps(halfInv, fb), fb);
        __m256 second = _mm256_mul_ps(inv, _mm256_sub_ps(_mm256_set1_ps(1.5f), fa));
        __m256 before = _mm256_add_ps(second, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_sub_epi32(ib, ia), threeI)), inv));
        __m256 twoCells = _mm256_castsi256_ps(_mm256_cmpeq_epi32(ib, iaPlus2));
        __m256 threeCells = _mm256_castsi256_ps(_mm256_cmpeq_epi32(ib, _mm256_add_epi32(ia, threeI)));
        __m256 middle = _mm256_mul_ps(d, inv);
        __m256 beforeLast = _mm256_mul_ps(d, _mm256_sub_ps(_mm256_sub_ps(one, before), lastArea));
        __m256 last = _mm256_mul_ps(d, lastArea);

        __m256 c0 = _mm256_blendv_ps(_mm256_mul_ps(d, firstArea), _mm256_mul_ps(d, _mm256_sub_ps(one, mid)), single);
        __m256 c1 = _mm256_blendv_ps(
            _mm256_blendv_ps(_mm256_mul_ps(d, _mm256_sub_ps(second, firstArea)),
                             _mm256_mul_ps(d, _mm256_sub_ps(_mm256_sub_ps(one, firstArea), lastArea)), twoCells),
            _mm256_mul_ps(d, mid), single);
        __m256 c2 = _mm256_blendv_ps(_mm256_blendv_ps(_mm256_blendv_ps(middle, beforeLast, threeCells), last, twoCells),
                                     zero, single);
        ib = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(ib),
                                                  _mm256_castsi256_ps(_mm256_add_epi32(ia, oneI)), single));
        int wide = ~_mm256_movemask_ps(_mm256_or_ps(single, twoCells)) & ((1 << count) - 1);

        int32_t iaAt[8], ibAt[8];
        float c0At[8], c1At[8], c2At[8];
        _mm256_storeu_si256((__m256i *)iaAt, ia);
        _mm256_storeu_si256((__m256i *)ibAt, ib);
        _mm256_storeu_ps(c0At, c0);
        _mm256_storeu_ps(c1At, c1);
        _mm256_storeu_ps(c2At, c2);
        float *cellRow = line;
        for (intptr_t k = 0; k < count; k++) {
            intptr_t a = iaAt[k], b = ibAt[k];
            cellRow[a] += c0At[k];
            cellRow[a + 1] += c1At[k];
            cellRow[a + 2] += c2At[k];
            intptr_t row = row0 + k;
            rowMin[row] = a < rowMin[row] ? a : rowMin[row];
            rowMax[row] = b > rowMax[row] ? b : rowMax[row];
            if (blocks) blocks[row] |= blockBits(a, b, blockShift);
            cellRow += stride;
        }
        if (wide) {
            float middleAt[8], beforeLastAt[8], lastAt[8];
            _mm256_storeu_ps(middleAt, middle);
            _mm256_storeu_ps(beforeLastAt, beforeLast);
            _mm256_storeu_ps(lastAt, last);
            do {
                int k = __builtin_ctz(wide);
                wide &= wide - 1;
                float *cells = line + k * stride;
                intptr_t b = ibAt[k];
                for (intptr_t x = iaAt[k] + 3; x < b - 1; x++) cells[x] += middleAt[k];
                if (b - 1 > iaAt[k] + 2) cells[b - 1] += beforeLastAt[k];
                cells[b] += lastAt[k];
            } while (wide);
        }
        line += 8 * stride;
    }
}

/// `Rasterizer.deposit` of one box-local segment, setting the rows' `blocks` bits (`blockBits`)
/// unless `blocks` is NULL: each exported loop passes a constant, so each compiles its own copy.
INLINE void deposit(double ax, double ay, double bx, double by, float *cells, intptr_t stride, intptr_t height,
                    intptr_t *rowMin, intptr_t *rowMax, uint64_t *blocks, intptr_t blockShift) {
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
        depositVertical(tx, ty, ey, dir, firstRow, lastRow, line, stride, rowMin, rowMax, blocks, blockShift);
        return;
    }
    depositRows(tx, ty, ex, ey, dxdy, dir, firstRow, lastRow, line, stride, rowMin, rowMax, blocks, blockShift);
}

AVX2 void citrine_deposit_avx2(const double *edges, intptr_t count, double originX, double originY, float *cells,
                               intptr_t stride, intptr_t height, intptr_t *rowMin, intptr_t *rowMax) {
    for (intptr_t i = 0; i < count; i++) {
        const double *e = edges + 4 * i;
        deposit(e[0] - originX, e[1] - originY, e[2] - originX, e[3] - originY, cells, stride, height, rowMin, rowMax,
                NULL, 0);
    }
}

AVX2 void citrine_deposit_marking_avx2(const double *edges, intptr_t count, double originX, double originY, float *cells,
                                       intptr_t stride, intptr_t height, intptr_t *rowMin, intptr_t *rowMax,
                                       uint64_t *blocks, intptr_t blockShift) {
    for (intptr_t i = 0; i < count; i++) {
        const double *e = edges + 4 * i;
        deposit(e[0] - originX, e[1] - originY, e[2] - originX, e[3] - originY, cells, stride, height, rowMin, rowMax,
                blocks, blockShift);
    }
}

AVX2 void citrine_deposit_segment_avx2(double ax, double ay, double bx, double by, float *cells, intptr_t stride,
                                       intptr_t height, intptr_t *rowMin, intptr_t *rowMax) {
    deposit(ax, ay, bx, by, cells, stride, height, rowMin, rowMax, NULL, 0);
}

AVX2 void citrine_deposit_segment_marking_avx2(double ax, double ay, double bx, double by, float *cells, intptr_t stride,
                                               intptr_t height, intptr_t *rowMin, intptr_t *rowMax, uint64_t *blocks,
                                               intptr_t blockShift) {
    deposit(ax, ay, bx, by, cells, stride, height, rowMin, rowMax, blocks, blockShift);
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
void citrine_deposit_marking_avx2(const double *edges, intptr_t count, double originX, double originY, float *cells,
                                  intptr_t stride, intptr_t height, intptr_t *rowMin, intptr_t *rowMax,
                                  uint64_t *blocks, intptr_t blockShift) {
    (void)edges; (void)count; (void)originX; (void)originY; (void)cells; (void)stride; (void)height;
    (void)rowMin; (void)rowMax; (void)blocks; (void)blockShift;
}
void citrine_deposit_segment_avx2(double ax, double ay, double bx, double by, float *cells, intptr_t stride,
                                  intptr_t height, intptr_t *rowMin, intptr_t *rowMax) {
    (void)ax; (void)ay; (void)bx; (void)by; (void)cells; (void)stride; (void)height; (void)rowMin; (void)rowMax;
}
void citrine_deposit_segment_marking_avx2(double ax, double ay, double bx, double by, float *cells, intptr_t stride,
                                          intptr_t height, intptr_t *rowMin, intptr_t *rowMax, uint64_t *blocks,
                                          intptr_t blockShift) {
    (void)ax; (void)ay; (void)bx; (void)by; (void)cells; (void)stride; (void)height; (void)rowMin; (void)rowMax;
    (void)blocks; (void)blockShift;
}
void citrine_edge_bounds_avx2(const double *edges, intptr_t count, double *bounds) {
    (void)edges; (void)count; (void)bounds;
}

#endif
