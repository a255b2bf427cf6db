// Radial gradient runs (see include/CKernels.h): `RadialSolver.quadraticRun` and
// `GradientRamp.color(at:spread:table:)` in double-precision lanes. Every lane performs the
// Swift loop's operations on its own pixel in the same order — multiplies and adds kept apart
// (no fused multiply-add: the pragma below, and the intrinsics are separate roundings), IEEE
// square roots, ordered comparisons (false for NaN, as Swift's) — so the words are the same
// bit for bit; `max(x, 0)` returns 0 for a NaN x, the Swift loop's first entry. Pad runs of
// concentric gradients from a point along device rows (`CAGradientLayer`'s radial type, S4: mode
// 12) are tried in single precision first, a group falling back to the double lanes wherever
// that could change a table index (`radial8Single`, `radial16Single`); where their positions are
// whole multiples of a power of two (drawn at whole, half or quarter pixels: mode 13,
// `floatPositions`) the float lanes compute them exactly themselves. The `over` loops blend each
// group of words onto the destination as they go (full coverage and opacity), instead of writing
// a row for `citrine_source_over_row_*` to read back.
#include "CKernels.h"
#include <math.h>

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

/// The parameter's table index after the spread mode (`GradientRamp.color(at:spread:table:)`),
/// four lanes; `valid` loses the lanes a decal spread leaves transparent.
static inline AVX2 __attribute__((always_inline)) __m128i index4(__m256d t, intptr_t spread, __m256d *valid) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1);
    __m256d u = t;
    if (spread == 1) {
        u = _mm256_sub_pd(u, _mm256_floor_pd(u));
    } else if (spread == 2) {
        u = _mm256_sub_pd(u, _mm256_mul_pd(_mm256_set1_pd(2), _mm256_floor_pd(_mm256_mul_pd(u, _mm256_set1_pd(0.5)))));
        u = _mm256_andnot_pd(_mm256_set1_pd(-0.0), u);
        u = _mm256_blendv_pd(u, _mm256_sub_pd(_mm256_set1_pd(2), u), _mm256_cmp_pd(u, one, _CMP_GT_OQ));
    } else if (spread == 3) {
        __m256d outside = _mm256_or_pd(_mm256_cmp_pd(u, zero, _CMP_LT_OQ), _mm256_cmp_pd(u, one, _CMP_GT_OQ));
        *valid = _mm256_andnot_pd(outside, *valid);
    }
    __m256d scaled = _mm256_add_pd(_mm256_mul_pd(u, _mm256_set1_pd(255)), _mm256_set1_pd(0.5));
    return _mm256_cvttpd_epi32(_mm256_min_pd(_mm256_max_pd(scaled, zero), _mm256_set1_pd(255)));
}

/// A run's constants in every lane, loaded once per run (the loop then holds them in registers).
/// `yc` and `yy` are pdy·cdy and pdy² of a run along x (dy = ±0: `rowMode`).
typedef struct { __m256d sx, sy, dx, dy, cdx, cdy, r0, dr, r0dr, r0Squared, a, invA, rootSign, yc, yy; } Lanes4;

/// A run's loop copy: the spread mode (0 pad, 1 repeat, 2 reflect, 3 decal) plus 4 when the run
/// goes along x (dy = ±0). Then every pixel's pdy = sy + k·dy is the same double, sy + dy (k·dy is
/// a zero of dy's sign for every k ≥ 0: `first` is not negative), and its products with cdy and
/// itself are computed once per run — the same values, so the same words.
///
/// Plus 8 more (modes 8 … 11) when such a run's circles are also concentric and the start circle
/// a point (cd = 0, r0 = 0: `CAGradientLayer`'s radial type, S4), with every position finite:
/// then b = pdx·cdx + pdy·cdy + r0·dr is a zero, b² = +0, b + root = root wherever root is not a
/// zero (and t = ±0 maps to entry 0 by every spread either way), and c − r0² = c, so the loop
/// skips those operations: disc = +0 − a·c and t = root / a, the same doubles. With dr > 0 too, the
/// larger root is always taken: t = √disc·sign(a)·(1/a) is not negative (or NaN, where disc is
/// not ≥ 0 and the pixel lies on no circle anyway), so r0 + t·dr = ±0 + t·dr ≥ 0.
static inline intptr_t rowMode(const citrine_radial_run *r, intptr_t count) {
    if (r->dy != 0 || !(r->first >= 0)) return r->spread;
    double reach = fabs(r->sx) + (r->first + (double)count) * fabs(r->dx);
    int concentric = r->cdx == 0 && r->cdy == 0 && r->r0dr == 0 && r->r0Squared == 0 && r->dr > 0 &&
                     reach < 1e300 && fabs(r->sy) < 1e300;
    return r->spread + (concentric ? 8 : 4);
}

/// `rowMode` with single precision: 12 for a mode-8 run (pad) with dr in [2⁻⁴⁰, 2⁴⁰], whose
/// groups are tried in single precision first (`radial8Single`, `radial16Single`).
static inline intptr_t rowModeTryingSingle(const citrine_radial_run *r, intptr_t count) {
    intptr_t mode = rowMode(r, count);
    return mode == 8 && r->dr >= 0x1p-40 && r->dr <= 0x1p40 ? 12 : mode;
}

/// Whether a mode-12 run's positions pdx = sx + k·dx (k = first … first + count + 15: the lanes
/// of its last group too) are floats that float arithmetic computes exactly, as the double lanes
/// do (mode 13): sx and dx whole multiples of 2⁻ᵐ for some m in 0 … 8, k below 2²⁴, and
/// |sx| + k·|dx| below 2²⁴ of those steps. Every k, product k·dx, sum sx + k·dx and step of a
/// group (eight or sixteen pixels) is then such a multiple within that bound, so exactly a float:
/// the float the double lanes round sx + k·dx to. A gradient drawn at whole or half pixels along
/// device rows (`CAGradientLayer` at a scale of 1 or 2) passes.
static inline int floatPositions(const citrine_radial_run *r, intptr_t count) {
    const double last = r->first + (double)count + 16, reach = fabs(r->sx) + last * fabs(r->dx);
    if (!(reach < 0x1p24 && last < 0x1p24)) return 0;
    // sx and dx in steps of 2⁻⁸ (below 2³² of them: whole exactly when the casts give them back),
    // then the coarsest step 2⁻ᵐ both are multiples of: m = 8 − their trailing zero bits (≤ 8).
    const double a = r->sx * 256, b = r->dx * 256;
    const int64_t wholeA = (int64_t)a, wholeB = (int64_t)b;
    if (a != (double)wholeA || b != (double)wholeB) return 0;
    const int m = 8 - __builtin_ctzll((uint64_t)(wholeA | wholeB) | 256);
    return reach * (double)(1 << m) < 0x1p24;
}

/// `rowModeTryingSingle`, and 13 for a mode-12 run of sixteen pixels or more whose positions are
/// floats (`floatPositions`; a shorter one, an edge's few pixels, saves less than the test costs).
static inline intptr_t rowModeWithFloatPositions(const citrine_radial_run *r, intptr_t count) {
    intptr_t mode = rowModeTryingSingle(r, count);
    return mode == 12 && count >= 16 && floatPositions(r, count) ? 13 : mode;
}

static inline AVX2 __attribute__((always_inline)) Lanes4 lanes4(const citrine_radial_run *r) {
    double pdy = r->sy + r->dy;
    return (Lanes4){ _mm256_set1_pd(r->sx), _mm256_set1_pd(r->sy), _mm256_set1_pd(r->dx), _mm256_set1_pd(r->dy),
                     _mm256_set1_pd(r->cdx), _mm256_set1_pd(r->cdy), _mm256_set1_pd(r->r0), _mm256_set1_pd(r->dr),
                     _mm256_set1_pd(r->r0dr), _mm256_set1_pd(r->r0Squared), _mm256_set1_pd(r->a), _mm256_set1_pd(r->invA),
                     _mm256_set1_pd(r->rootSign), _mm256_set1_pd(pdy * r->cdy), _mm256_set1_pd(pdy * pdy) };
}

/// The table indices of parameters `t` (`index4`), and in `valid32` the lanes of `valid` (64-bit
/// masks) that remain after the spread, as 32-bit masks.
static inline AVX2 __attribute__((always_inline)) __m128i index4ValidLanes(__m256d t, intptr_t mode, __m256d valid,
                                                                           __m128i *valid32) {
    __m128i index = index4(t, mode & 3, &valid);
    // The low halves of the 64-bit masks, in order.
    __m256 v = _mm256_castpd_ps(valid);
    *valid32 = _mm_castps_si128(_mm_shuffle_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1), _MM_SHUFFLE(2, 0, 2, 0)));
    return index;
}

/// The x offsets from the start circle's centre of pixels k (four lanes): sx + k·dx.
static inline AVX2 __attribute__((always_inline)) __m256d pdx4(const Lanes4 *r, __m256d k) {
    return _mm256_add_pd(r->sx, _mm256_mul_pd(k, r->dx));
}

/// Pixels k (four lanes) of the run: their table indices, and in `valid32` (32-bit lanes) the
/// pixels that lie on a circle. `mode` is the loop copy's `rowMode`.
static inline AVX2 __attribute__((always_inline)) __m128i radial4(const Lanes4 *r, __m256d k, intptr_t mode, __m128i *valid32) {
    const __m256d zero = _mm256_setzero_pd();
    __m256d pdx = pdx4(r, k);
    __m256d yc = r->yc, yy = r->yy;
    if (mode < 4) {
        __m256d pdy = _mm256_add_pd(r->sy, _mm256_mul_pd(k, r->dy));
        yc = _mm256_mul_pd(pdy, r->cdy);
        yy = _mm256_mul_pd(pdy, pdy);
    }
    __m256d b, disc;
    if (mode >= 8) {
        b = zero;
        disc = _mm256_sub_pd(zero, _mm256_mul_pd(r->a, _mm256_add_pd(_mm256_mul_pd(pdx, pdx), yy)));
    } else {
        b = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(pdx, r->cdx), yc), r->r0dr);
        __m256d c = _mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(pdx, pdx), yy), r->r0Squared);
        disc = _mm256_sub_pd(_mm256_mul_pd(b, b), _mm256_mul_pd(r->a, c));
    }
    __m256d valid = _mm256_cmp_pd(disc, zero, _CMP_GE_OQ);
    __m256d root = _mm256_mul_pd(_mm256_sqrt_pd(disc), r->rootSign);
    __m256d t = _mm256_mul_pd(mode >= 8 ? root : _mm256_add_pd(b, root), r->invA);
    if (mode >= 8) return index4ValidLanes(t, mode, valid, valid32);
    __m256d hiOK = _mm256_cmp_pd(_mm256_add_pd(r->r0, _mm256_mul_pd(t, r->dr)), zero, _CMP_GE_OQ);
    // Where every lane takes the larger root (most runs), the smaller one is not needed.
    if (_mm256_movemask_pd(hiOK) != 0xF) {
        __m256d lo = _mm256_mul_pd(_mm256_sub_pd(b, root), r->invA);
        __m256d loOK = _mm256_cmp_pd(_mm256_add_pd(r->r0, _mm256_mul_pd(lo, r->dr)), zero, _CMP_GE_OQ);
        valid = _mm256_and_pd(valid, _mm256_or_pd(hiOK, loOK));
        t = _mm256_blendv_pd(lo, t, hiOK);
    }
    return index4ValidLanes(t, mode, valid, valid32);
}

/// The table's words at eight indices (0 … 255), 0 in the lanes `valid` (32-bit masks) clears.
/// Neighbouring pixels mostly read neighbouring entries: where the eight indices lie within
/// eight consecutive entries, those are loaded once and permuted into place (`radial16`'s window:
/// the table is padded past entry 255, `GradientRamp.paddedSize`), which is cheaper than a gather.
static inline AVX2 __attribute__((always_inline)) __m256i lookup8(const uint32_t *table, __m256i index, __m256i valid) {
    int first = _mm256_cvtsi256_si32(index), last = _mm256_extract_epi32(index, 7);
    int lowest = first < last ? first : last;
    __m256i offset = _mm256_sub_epi32(index, _mm256_set1_epi32(lowest));
    // offset > 7 as unsigned numbers (an index below the window is a negative offset).
    const __m256i bias = _mm256_set1_epi32(INT32_MIN);
    __m256i outside = _mm256_cmpgt_epi32(_mm256_xor_si256(offset, bias), _mm256_xor_si256(_mm256_set1_epi32(7), bias));
    if (_mm256_testz_si256(outside, outside)) {
        __m256i window = _mm256_loadu_si256((const __m256i *)(table + lowest));
        return _mm256_and_si256(valid, _mm256_permutevar8x32_epi32(window, offset));
    }
    return _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), (const int *)table, index, valid, 4);
}

/// Eight words of the run from pixel k (four lanes holding k … k + 3).
static inline AVX2 __attribute__((always_inline)) __m256i radial8(const Lanes4 *r, const uint32_t *table, __m256d k,
                                                                  intptr_t mode) {
    __m128i validA, validB;
    __m128i a = radial4(r, k, mode, &validA);
    __m128i b = radial4(r, _mm256_add_pd(k, _mm256_set1_pd(4)), mode, &validB);
    __m256i index = _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
    __m256i valid = _mm256_inserti128_si256(_mm256_castsi128_si256(validA), validB, 1);
    return lookup8(table, index, valid);
}

/// A mode-12 run's single-precision constants: pdy² and 255 / dr in every lane; for mode 13
/// (`floatPositions`) also sx, eight steps of dx, and the first group's k·dx (lane j:
/// (first + j)·dx) as floats.
typedef struct { __m256 yy, scale, sx, step, firstSteps; } Single8;

static inline AVX2 __attribute__((always_inline)) Single8 single8(const citrine_radial_run *r) {
    double pdy = r->sy + r->dy;
    __m256 k = _mm256_add_ps(_mm256_set1_ps((float)r->first), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7));
    return (Single8){ _mm256_set1_ps((float)(pdy * pdy)), _mm256_set1_ps((float)(255 / r->dr)), _mm256_set1_ps((float)r->sx),
                      _mm256_set1_ps((float)(8 * r->dx)), _mm256_mul_ps(k, _mm256_set1_ps((float)r->dx)) };
}

/// `radial8` of a mode-12 run (pad, concentric from a point, along x: the index is
/// ⌊min(255·t + 0.5, 255)⌋ with t = √(pdx² + pdy²) / dr up to the double lanes' rounding),
/// through single precision where that gives the same indices. From each pixel's pdx as the
/// double lanes compute it, x = √(pdx² + pdy²)·(255 / dr) + 0.5 in floats: every operation
/// rounds once and none cancels (squares and a sum of non-negative numbers, a square root,
/// products), so x is within 6·2⁻²⁴·x of the exact value for the double lanes' pdx and pdy (and
/// the double lanes within 10·2⁻⁵³·x of it), at most 2⁻¹³ below 256. Where every lane's x is more
/// than 2⁻¹² from each whole number below 255.5, both truncate alike (x ≥ 255.5 clamps to 255 in
/// both); otherwise the group takes the double lanes. dr in [2⁻⁴⁰, 2⁴⁰] keeps 255 / dr a normal
/// float, and a square that leaves the float range does so only where both give 0 (√ below 10⁻¹⁹,
/// x − 0.5 below 10⁻⁴) or 255 (√ above 10¹⁹). Of the rows of pixel centres in a circle of
/// radius 400 (S4), 160 of 62 646 groups fall back (counted in a model of these floats in NumPy).
/// Mode 13 (`floatPositions`) takes the positions in float arithmetic from `kdx` (the group's
/// k·dx): the same floats in two vector operations (with the step of `kdx`) instead of seven.
static inline AVX2 __attribute__((always_inline)) __m256i radial8Single(const Lanes4 *r, const Single8 *s,
                                                                        const uint32_t *table, __m256d k, __m256 kdx,
                                                                        intptr_t mode) {
    __m256 pdx;
    if (mode == 13) {
        pdx = _mm256_add_ps(s->sx, kdx);
    } else {
        __m256d pdxA = pdx4(r, k), pdxB = pdx4(r, _mm256_add_pd(k, _mm256_set1_pd(4)));
        pdx = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(pdxA)), _mm256_cvtpd_ps(pdxB), 1);
    }
    __m256 distance = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(pdx, pdx), s->yy));
    __m256 x = _mm256_add_ps(_mm256_mul_ps(distance, s->scale), _mm256_set1_ps(0.5f));
    const __m256 guard = _mm256_set1_ps(0x1p-12f), one = _mm256_set1_ps(1);
    __m256 fraction = _mm256_sub_ps(x, _mm256_floor_ps(x));
    __m256 nearWhole = _mm256_or_ps(_mm256_cmp_ps(fraction, guard, _CMP_LT_OQ),
                                    _mm256_cmp_ps(fraction, _mm256_sub_ps(one, guard), _CMP_GT_OQ));
    nearWhole = _mm256_and_ps(nearWhole, _mm256_cmp_ps(x, _mm256_set1_ps(255.5f), _CMP_LT_OQ));
    if (!_mm256_testz_ps(nearWhole, nearWhole)) return radial8(r, table, k, 12);
    __m256i index = _mm256_cvttps_epi32(_mm256_min_ps(x, _mm256_set1_ps(255)));
    return lookup8(table, index, _mm256_set1_epi32(-1));
}

/// The words of a group of eight: `radial8Single` for modes 12 and 13, else `radial8`.
static inline AVX2 __attribute__((always_inline)) __m256i group8(const Lanes4 *r, const Single8 *s, const uint32_t *table,
                                                                 __m256d k, __m256 kdx, intptr_t mode) {
    return mode >= 12 ? radial8Single(r, s, table, k, kdx, mode) : radial8(r, table, k, mode);
}

static inline AVX2 __attribute__((always_inline)) void radialRow(const citrine_radial_run *run, const uint32_t *table, intptr_t count,
                                                                 uint32_t *out, intptr_t mode) {
    const Lanes4 r = lanes4(run);
    const Single8 s = single8(run);
    // Lane j holds first + i + j: exact (integers below 2⁵³), as the Swift loop's Double(first + i).
    __m256d k = _mm256_add_pd(_mm256_set1_pd(run->first), _mm256_setr_pd(0, 1, 2, 3));
    const __m256d eight = _mm256_set1_pd(8);
    __m256 kdx = s.firstSteps;
    intptr_t i = 0;
    for (; i + 8 <= count; i += 8) {
        _mm256_storeu_si256((__m256i *)(out + i), group8(&r, &s, table, k, kdx, mode));
        k = _mm256_add_pd(k, eight);
        kdx = _mm256_add_ps(kdx, s.step);
    }
    if (i < count) {
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count - i)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        _mm256_maskstore_epi32((int *)(out + i), mask, group8(&r, &s, table, k, kdx, mode));
    }
}
AVX2 void citrine_radial_row_avx2(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *out) {
    // One copy of the loop per spread mode, per direction (along x or not) and for concentric runs.
    switch (rowModeWithFloatPositions(run, count)) {
    case 0: radialRow(run, table, count, out, 0); break;
    case 1: radialRow(run, table, count, out, 1); break;
    case 2: radialRow(run, table, count, out, 2); break;
    case 3: radialRow(run, table, count, out, 3); break;
    case 4: radialRow(run, table, count, out, 4); break;
    case 5: radialRow(run, table, count, out, 5); break;
    case 6: radialRow(run, table, count, out, 6); break;
    case 7: radialRow(run, table, count, out, 7); break;
    case 8: radialRow(run, table, count, out, 8); break;
    case 9: radialRow(run, table, count, out, 9); break;
    case 10: radialRow(run, table, count, out, 10); break;
    case 11: radialRow(run, table, count, out, 11); break;
    case 12: radialRow(run, table, count, out, 12); break;
    default: radialRow(run, table, count, out, 13); break;
    }
}

/// Source-over of eight source words `s` onto `d` at full coverage and opacity: per channel
/// s + d·(255 − αs)/255 (`PaintBlitter.sourceOver`: s·255/255 = s), the division rounded as
/// ⌊(d·f + 128)·257 / 2¹⁶⌋, which is `PaintBlitter.scale4`'s ⌊(t + ⌊t / 256⌋) / 256⌋ for
/// t = d·f + 128 < 2¹⁶. The words add as 32-bit integers, as the Swift loop's `&+`.
static inline AVX2 __attribute__((always_inline)) __m256i over8(__m256i d, __m256i s) {
    const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi16(128), m257 = _mm256_set1_epi16(257);
    // 255 − α (the complement of the alpha byte) of each pixel in the four 16-bit lanes of its
    // channels: pixels 0 and 1 of each 128-bit half for the low unpack, 2 and 3 for the high one.
    const __m256i alphaLow = _mm256_setr_epi8(3, -1, 3, -1, 3, -1, 3, -1, 7, -1, 7, -1, 7, -1, 7, -1,
                                              3, -1, 3, -1, 3, -1, 3, -1, 7, -1, 7, -1, 7, -1, 7, -1);
    const __m256i alphaHigh = _mm256_setr_epi8(11, -1, 11, -1, 11, -1, 11, -1, 15, -1, 15, -1, 15, -1, 15, -1,
                                               11, -1, 11, -1, 11, -1, 11, -1, 15, -1, 15, -1, 15, -1, 15, -1);
    __m256i inverse = _mm256_xor_si256(s, _mm256_set1_epi32(-1));
    __m256i lo = _mm256_mullo_epi16(_mm256_unpacklo_epi8(d, zero), _mm256_shuffle_epi8(inverse, alphaLow));
    __m256i hi = _mm256_mullo_epi16(_mm256_unpackhi_epi8(d, zero), _mm256_shuffle_epi8(inverse, alphaHigh));
    lo = _mm256_mulhi_epu16(_mm256_add_epi16(lo, half), m257);
    hi = _mm256_mulhi_epu16(_mm256_add_epi16(hi, half), m257);
    return _mm256_add_epi32(s, _mm256_packus_epi16(lo, hi));
}

static inline AVX2 __attribute__((always_inline)) void radialOverRow(const citrine_radial_run *run, const uint32_t *table,
                                                                     intptr_t count, uint32_t *dst, intptr_t mode) {
    const Lanes4 r = lanes4(run);
    const Single8 s = single8(run);
    __m256d k = _mm256_add_pd(_mm256_set1_pd(run->first), _mm256_setr_pd(0, 1, 2, 3));
    const __m256d eight = _mm256_set1_pd(8);
    __m256 kdx = s.firstSteps;
    intptr_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i words = group8(&r, &s, table, k, kdx, mode);
        _mm256_storeu_si256((__m256i *)(dst + i), over8(_mm256_loadu_si256((const __m256i *)(dst + i)), words));
        k = _mm256_add_pd(k, eight);
        kdx = _mm256_add_ps(kdx, s.step);
    }
    if (i < count) {
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count - i)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        __m256i words = group8(&r, &s, table, k, kdx, mode);
        _mm256_maskstore_epi32((int *)(dst + i), mask, over8(_mm256_maskload_epi32((const int *)(dst + i), mask), words));
    }
}
AVX2 void citrine_radial_over_row_avx2(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *dst) {
    switch (rowModeWithFloatPositions(run, count)) {
    case 0: radialOverRow(run, table, count, dst, 0); break;
    case 1: radialOverRow(run, table, count, dst, 1); break;
    case 2: radialOverRow(run, table, count, dst, 2); break;
    case 3: radialOverRow(run, table, count, dst, 3); break;
    case 4: radialOverRow(run, table, count, dst, 4); break;
    case 5: radialOverRow(run, table, count, dst, 5); break;
    case 6: radialOverRow(run, table, count, dst, 6); break;
    case 7: radialOverRow(run, table, count, dst, 7); break;
    case 8: radialOverRow(run, table, count, dst, 8); break;
    case 9: radialOverRow(run, table, count, dst, 9); break;
    case 10: radialOverRow(run, table, count, dst, 10); break;
    case 11: radialOverRow(run, table, count, dst, 11); break;
    case 12: radialOverRow(run, table, count, dst, 12); break;
    default: radialOverRow(run, table, count, dst, 13); break;
    }
}

/// `index4` in eight lanes; `valid` loses the lanes a decal spread leaves transparent.
static inline AVX512 __attribute__((always_inline)) __m256i index8(__m512d t, intptr_t spread, __mmask8 *valid) {
    const __m512d zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1);
    __m512d u = t;
    if (spread == 1) {
        u = _mm512_sub_pd(u, _mm512_roundscale_pd(u, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
    } else if (spread == 2) {
        __m512d half = _mm512_roundscale_pd(_mm512_mul_pd(u, _mm512_set1_pd(0.5)), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        u = _mm512_abs_pd(_mm512_sub_pd(u, _mm512_mul_pd(_mm512_set1_pd(2), half)));
        u = _mm512_mask_sub_pd(u, _mm512_cmp_pd_mask(u, one, _CMP_GT_OQ), _mm512_set1_pd(2), u);
    } else if (spread == 3) {
        *valid &= (__mmask8)~(_mm512_cmp_pd_mask(u, zero, _CMP_LT_OQ) | _mm512_cmp_pd_mask(u, one, _CMP_GT_OQ));
    }
    __m512d scaled = _mm512_add_pd(_mm512_mul_pd(u, _mm512_set1_pd(255)), _mm512_set1_pd(0.5));
    return _mm512_cvttpd_epi32(_mm512_min_pd(_mm512_max_pd(scaled, zero), _mm512_set1_pd(255)));
}

/// A run's constants in every lane, loaded once per run.
typedef struct { __m512d sx, sy, dx, dy, cdx, cdy, r0, dr, r0dr, r0Squared, a, invA, rootSign, yc, yy; } Lanes8;

static inline AVX512 __attribute__((always_inline)) Lanes8 lanes8(const citrine_radial_run *r) {
    double pdy = r->sy + r->dy;
    return (Lanes8){ _mm512_set1_pd(r->sx), _mm512_set1_pd(r->sy), _mm512_set1_pd(r->dx), _mm512_set1_pd(r->dy),
                     _mm512_set1_pd(r->cdx), _mm512_set1_pd(r->cdy), _mm512_set1_pd(r->r0), _mm512_set1_pd(r->dr),
                     _mm512_set1_pd(r->r0dr), _mm512_set1_pd(r->r0Squared), _mm512_set1_pd(r->a), _mm512_set1_pd(r->invA),
                     _mm512_set1_pd(r->rootSign), _mm512_set1_pd(pdy * r->cdy), _mm512_set1_pd(pdy * pdy) };
}

/// Pixels k (eight lanes) of the run: their table indices, and in `valid` the pixels on a circle.
static inline AVX512 __attribute__((always_inline)) __m256i radial8x(const Lanes8 *r, __m512d k, intptr_t mode, __mmask8 *valid) {
    const __m512d zero = _mm512_setzero_pd();
    __m512d pdx = _mm512_add_pd(r->sx, _mm512_mul_pd(k, r->dx));
    __m512d yc = r->yc, yy = r->yy;
    if (mode < 4) {
        __m512d pdy = _mm512_add_pd(r->sy, _mm512_mul_pd(k, r->dy));
        yc = _mm512_mul_pd(pdy, r->cdy);
        yy = _mm512_mul_pd(pdy, pdy);
    }
    __m512d b, disc;
    if (mode >= 8) {
        b = zero;
        disc = _mm512_sub_pd(zero, _mm512_mul_pd(r->a, _mm512_add_pd(_mm512_mul_pd(pdx, pdx), yy)));
    } else {
        b = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(pdx, r->cdx), yc), r->r0dr);
        __m512d c = _mm512_sub_pd(_mm512_add_pd(_mm512_mul_pd(pdx, pdx), yy), r->r0Squared);
        disc = _mm512_sub_pd(_mm512_mul_pd(b, b), _mm512_mul_pd(r->a, c));
    }
    __mmask8 onCircle = _mm512_cmp_pd_mask(disc, zero, _CMP_GE_OQ);
    __m512d root = _mm512_mul_pd(_mm512_sqrt_pd(disc), r->rootSign);
    __m512d t = _mm512_mul_pd(mode >= 8 ? root : _mm512_add_pd(b, root), r->invA);
    *valid = onCircle;
    if (mode >= 8) return index8(t, mode & 3, valid);
    __mmask8 hiOK = _mm512_cmp_pd_mask(_mm512_add_pd(r->r0, _mm512_mul_pd(t, r->dr)), zero, _CMP_GE_OQ);
    if (hiOK != 0xFF) {
        __m512d lo = _mm512_mul_pd(_mm512_sub_pd(b, root), r->invA);
        __mmask8 loOK = _mm512_cmp_pd_mask(_mm512_add_pd(r->r0, _mm512_mul_pd(lo, r->dr)), zero, _CMP_GE_OQ);
        *valid = onCircle & (hiOK | loOK);
        t = _mm512_mask_blend_pd(hiOK, lo, t);
    }
    return index8(t, mode & 3, valid);
}

/// The table's words at sixteen indices (0 … 255), 0 in the lanes `valid` clears. Neighbouring
/// pixels mostly read neighbouring entries: where the sixteen indices lie within a window of 32
/// consecutive entries around the first one (from 15 before it, kept within the table, which is
/// padded past entry 255 to `GradientRamp.paddedSize` = 272), those are loaded as two registers
/// and permuted into place (`vpermt2d`), which is cheaper than a gather; an index outside the
/// window is a negative or too large offset, too large unsigned, and the group is gathered — so
/// that test alone keeps every word right. (The window of sixteen from the smaller of the first
/// and last index, taken before, needed both read out of the vector: S4's radial rows in a C
/// harness 0.369 → 0.352 ms with this one.)
static inline AVX512 __attribute__((always_inline)) __m512i lookup16(const uint32_t *table, __m512i index, __mmask16 valid) {
    int first = _mm_cvtsi128_si32(_mm512_castsi512_si128(index));
    int base = first - 15;
    base = base < 0 ? 0 : base > 240 ? 240 : base;
    __m512i offset = _mm512_sub_epi32(index, _mm512_set1_epi32(base));
    if (!_mm512_cmpgt_epu32_mask(offset, _mm512_set1_epi32(31))) {
        return _mm512_maskz_permutex2var_epi32(valid, _mm512_loadu_si512((const void *)(table + base)), offset,
                                               _mm512_loadu_si512((const void *)(table + base + 16)));
    }
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), valid, index, (const int *)table, 4);
}

/// `Single8` in sixteen lanes: eight lanes twice over, the step doubled (exactly), the first
/// steps' upper eight lanes eight steps on (exact in mode 13, where they are used).
typedef struct { __m512 yy, scale, sx, step, firstSteps; } Single16;

/// Eight lanes in both halves of sixteen.
static inline AVX512 __m512 twice(__m256 x) { return _mm512_castpd_ps(_mm512_broadcast_f64x4(_mm256_castps_pd(x))); }

static inline AVX512 __attribute__((always_inline)) Single16 single16(const citrine_radial_run *r) {
    const Single8 e = single8(r);
    __m512 firstSteps = _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castps_pd(twice(e.firstSteps)),
                                                            _mm256_castps_pd(_mm256_add_ps(e.firstSteps, e.step)), 1));
    return (Single16){ twice(e.yy), twice(e.scale), twice(e.sx), twice(_mm256_add_ps(e.step, e.step)), firstSteps };
}

/// Sixteen words of the run from pixel k (eight lanes holding k … k + 7).
static inline AVX512 __attribute__((always_inline)) __m512i radial16(const Lanes8 *r, const uint32_t *table, __m512d k,
                                                                     intptr_t mode) {
    __mmask8 validA, validB;
    __m256i a = radial8x(r, k, mode, &validA);
    __m256i b = radial8x(r, _mm512_add_pd(k, _mm512_set1_pd(8)), mode, &validB);
    __m512i index = _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1);
    return lookup16(table, index, (__mmask16)(validA | ((unsigned)validB << 8)));
}

/// `radial8Single` on sixteen pixels (eight lanes of `k` holding k … k + 7): the same float
/// operations, each correctly rounded in any lane width, so the same indices and the same
/// fallback to the double lanes (`radial16`) for a group with a pixel near an index edge.
/// Double-precision square roots of eight lanes are the slowest step of `radial16` on Intel's
/// processors; these take one single-precision root of sixteen.
/// Mode 13 (`floatPositions`) takes the positions in float arithmetic from `kdx` (the group's
/// k·dx): the same floats in two vector operations (with the step of `kdx`) instead of eight.
static inline AVX512 __attribute__((always_inline)) __m512i radial16Single(const Lanes8 *r, const Single16 *s,
                                                                           const uint32_t *table, __m512d k, __m512 kdx,
                                                                           intptr_t mode) {
    __m512 pdx;
    if (mode == 13) {
        pdx = _mm512_add_ps(s->sx, kdx);
    } else {
        __m512d pdxA = _mm512_add_pd(r->sx, _mm512_mul_pd(k, r->dx));
        __m512d pdxB = _mm512_add_pd(r->sx, _mm512_mul_pd(_mm512_add_pd(k, _mm512_set1_pd(8)), r->dx));
        pdx = _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(_mm512_cvtpd_ps(pdxA))),
                                                  _mm256_castps_pd(_mm512_cvtpd_ps(pdxB)), 1));
    }
    __m512 distance = _mm512_sqrt_ps(_mm512_add_ps(_mm512_mul_ps(pdx, pdx), s->yy));
    __m512 x = _mm512_add_ps(_mm512_mul_ps(distance, s->scale), _mm512_set1_ps(0.5f));
    const __m512 guard = _mm512_set1_ps(0x1p-12f), one = _mm512_set1_ps(1);
    __m512 fraction = _mm512_sub_ps(x, _mm512_roundscale_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
    __mmask16 nearWhole = _mm512_cmp_ps_mask(fraction, guard, _CMP_LT_OQ) |
                          _mm512_cmp_ps_mask(fraction, _mm512_sub_ps(one, guard), _CMP_GT_OQ);
    nearWhole &= _mm512_cmp_ps_mask(x, _mm512_set1_ps(255.5f), _CMP_LT_OQ);
    if (nearWhole) return radial16(r, table, k, 8);
    __m512i index = _mm512_cvttps_epi32(_mm512_min_ps(x, _mm512_set1_ps(255)));
    return lookup16(table, index, 0xFFFF);
}

/// The words of a group of sixteen: `radial16Single` for modes 12 and 13, else `radial16`.
static inline AVX512 __attribute__((always_inline)) __m512i group16(const Lanes8 *r, const Single16 *s, const uint32_t *table,
                                                                    __m512d k, __m512 kdx, intptr_t mode) {
    return mode >= 12 ? radial16Single(r, s, table, k, kdx, mode) : radial16(r, table, k, mode);
}

static inline AVX512 __attribute__((always_inline)) void radialRow16(const citrine_radial_run *run, const uint32_t *table,
                                                                     intptr_t count, uint32_t *out, intptr_t mode) {
    const Lanes8 r = lanes8(run);
    const Single16 s = single16(run);
    __m512d k = _mm512_add_pd(_mm512_set1_pd(run->first), _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7));
    const __m512d sixteen = _mm512_set1_pd(16);
    __m512 kdx = s.firstSteps;
    intptr_t i = 0;
    for (; i + 16 <= count; i += 16) {
        _mm512_storeu_si512((void *)(out + i), group16(&r, &s, table, k, kdx, mode));
        k = _mm512_add_pd(k, sixteen);
        kdx = _mm512_add_ps(kdx, s.step);
    }
    if (i < count) {
        __mmask16 mask = (__mmask16)((1u << (count - i)) - 1);
        _mm512_mask_storeu_epi32((void *)(out + i), mask, group16(&r, &s, table, k, kdx, mode));
    }
}

AVX512 void citrine_radial_row_avx512(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *out) {
    switch (rowModeWithFloatPositions(run, count)) {
    case 0: radialRow16(run, table, count, out, 0); break;
    case 1: radialRow16(run, table, count, out, 1); break;
    case 2: radialRow16(run, table, count, out, 2); break;
    case 3: radialRow16(run, table, count, out, 3); break;
    case 4: radialRow16(run, table, count, out, 4); break;
    case 5: radialRow16(run, table, count, out, 5); break;
    case 6: radialRow16(run, table, count, out, 6); break;
    case 7: radialRow16(run, table, count, out, 7); break;
    case 8: radialRow16(run, table, count, out, 8); break;
    case 9: radialRow16(run, table, count, out, 9); break;
    case 10: radialRow16(run, table, count, out, 10); break;
    case 11: radialRow16(run, table, count, out, 11); break;
    case 12: radialRow16(run, table, count, out, 12); break;
    default: radialRow16(run, table, count, out, 13); break;
    }
}

/// `over8` on sixteen pixels.
static inline AVX512 __attribute__((always_inline)) __m512i over16(__m512i d, __m512i s) {
    const __m512i zero = _mm512_setzero_si512(), half = _mm512_set1_epi16(128), m257 = _mm512_set1_epi16(257);
    const __m512i alphaLow = _mm512_broadcast_i32x4(_mm_setr_epi8(3, -1, 3, -1, 3, -1, 3, -1, 7, -1, 7, -1, 7, -1, 7, -1));
    const __m512i alphaHigh = _mm512_broadcast_i32x4(_mm_setr_epi8(11, -1, 11, -1, 11, -1, 11, -1, 15, -1, 15, -1, 15, -1, 15, -1));
    __m512i inverse = _mm512_xor_si512(s, _mm512_set1_epi32(-1));
    __m512i lo = _mm512_mullo_epi16(_mm512_unpacklo_epi8(d, zero), _mm512_shuffle_epi8(inverse, alphaLow));
    __m512i hi = _mm512_mullo_epi16(_mm512_unpackhi_epi8(d, zero), _mm512_shuffle_epi8(inverse, alphaHigh));
    lo = _mm512_mulhi_epu16(_mm512_add_epi16(lo, half), m257);
    hi = _mm512_mulhi_epu16(_mm512_add_epi16(hi, half), m257);
    return _mm512_add_epi32(s, _mm512_packus_epi16(lo, hi));
}

static inline AVX512 __attribute__((always_inline)) void radialOverRow16(const citrine_radial_run *run, const uint32_t *table,
                                                                         intptr_t count, uint32_t *dst, intptr_t mode) {
    const Lanes8 r = lanes8(run);
    const Single16 s = single16(run);
    __m512d k = _mm512_add_pd(_mm512_set1_pd(run->first), _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7));
    const __m512d sixteen = _mm512_set1_pd(16);
    __m512 kdx = s.firstSteps;
    intptr_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m512i words = group16(&r, &s, table, k, kdx, mode);
        _mm512_storeu_si512((void *)(dst + i), over16(_mm512_loadu_si512((const void *)(dst + i)), words));
        k = _mm512_add_pd(k, sixteen);
        kdx = _mm512_add_ps(kdx, s.step);
    }
    if (i < count) {
        __mmask16 mask = (__mmask16)((1u << (count - i)) - 1);
        __m512i words = group16(&r, &s, table, k, kdx, mode);
        _mm512_mask_storeu_epi32((void *)(dst + i), mask, over16(_mm512_maskz_loadu_epi32(mask, dst + i), words));
    }
}

AVX512 void citrine_radial_over_row_avx512(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *dst) {
    switch (rowModeWithFloatPositions(run, count)) {
    case 0: radialOverRow16(run, table, count, dst, 0); break;
    case 1: radialOverRow16(run, table, count, dst, 1); break;
    case 2: radialOverRow16(run, table, count, dst, 2); break;
    case 3: radialOverRow16(run, table, count, dst, 3); break;
    case 4: radialOverRow16(run, table, count, dst, 4); break;
    case 5: radialOverRow16(run, table, count, dst, 5); break;
    case 6: radialOverRow16(run, table, count, dst, 6); break;
    case 7: radialOverRow16(run, table, count, dst, 7); break;
    case 8: radialOverRow16(run, table, count, dst, 8); break;
    case 9: radialOverRow16(run, table, count, dst, 9); break;
    case 10: radialOverRow16(run, table, count, dst, 10); break;
    case 11: radialOverRow16(run, table, count, dst, 11); break;
    case 12: radialOverRow16(run, table, count, dst, 12); break;
    default: radialOverRow16(run, table, count, dst, 13); break;
    }
}

#else

void citrine_radial_row_avx2(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *out) {
    (void)run; (void)table; (void)count; (void)out;
}
void citrine_radial_row_avx512(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *out) {
    (void)run; (void)table; (void)count; (void)out;
}
void citrine_radial_over_row_avx2(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *dst) {
    (void)run; (void)table; (void)count; (void)dst;
}
void citrine_radial_over_row_avx512(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *dst) {
    (void)run; (void)table; (void)count; (void)dst;
}

#endif
