// The texture row loops (`citrine_translated_row_avx2`/`_avx512`, `citrine_turned_row_avx2`/
// `_avx512`, and the whole draws' rows around them, `citrine_translated_rows_avx2`/`_avx512`,
// `citrine_turned_rows_avx2`/`_avx512`: include/CKernels.h), written once and compiled by each
// file that includes it for its own target, eight pixels at a time. Before including, define
// TEXTURE_TARGET (the functions' target attribute), TEXTURE_TRANSLATED_FUNCTION,
// TEXTURE_TRANSLATED_ROWS_FUNCTION, TEXTURE_TURNED_FUNCTION and TEXTURE_TURNED_ROWS_FUNCTION (the
// names of the exported functions), TAIL_LOAD8(p, mask) / TAIL_STORE8(p, mask, v), the masked
// moves of a run's last one to seven pixels (`mask`: the lanes to move all ones; no memory
// touched in the others, a masked load's other lanes 0), and TEXTURE_OVERLAPPED_TAILS: 1 when
// those masked moves are slow (AVX2's `vpmaskmovd`), so that a run of more than eight pixels ends
// with its last eight overlapping the others (`over8`) instead; 0 when they are as cheap as plain
// ones (AVX-512's), which saves sampling the overlapped pixels twice. (The row loops repeat their
// eight-pixel loop in the overlapped branch: a version with one loop for both, the last eight held
// across it, and `sourceOver8` as one conditional expression took 1.3 M more instructions a storm
// frame in the turned rows and 1.7 M in the translated ones, callgrind.) The including file turns
// floating-point contraction off (the row starts are Swift's separate multiplies and adds).
// Needs Blend8.h, Texture8.h and SweepSolid.h (its `solidRun`, the flat middles' blend). No
// include guard: each file includes it once.

/// Which of eight pixels a step moves (`partial`): all eight; those in its mask (a run's last one
/// to seven: masked moves, no memory touched in the other lanes); or the first four (a run's last
/// four: 128-bit moves, the other lanes read as 0). Runs end in four pixels often: a sampled side
/// is padded to whole quads (`splitAroundMiddle`), and the storm's sides are mostly four or eight
/// pixels wide. AVX2's masked moves (`vpmaskmovd`) take several times a plain move's time on AMD's
/// processors: with the four-pixel moves the storm took about 4 % less time a frame on an AMD EPYC
/// without AVX-512, the words the same (BENCHMARKS.md, "Run ends without AVX2's masked moves").
enum { ALL_LANES = 0, MASKED_LANES = 1, FOUR_LANES = 2 };

/// Eight words from `p`, the lanes `partial` says (the others 0).
static inline TEXTURE_TARGET __m256i load8(const uint32_t *p, __m256i mask, int partial) {
    if (partial == FOUR_LANES) return _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)p));
    return partial == MASKED_LANES ? TAIL_LOAD8(p, mask) : _mm256_loadu_si256((const __m256i *)p);
}

/// Stores the lanes of `v` that `partial` says at `p`.
static inline TEXTURE_TARGET void store8(uint32_t *p, __m256i mask, int partial, __m256i v) {
    if (partial == FOUR_LANES) _mm_storeu_si128((__m128i *)p, _mm256_castsi256_si128(v));
    else if (partial == MASKED_LANES) TAIL_STORE8(p, mask, v);
    else _mm256_storeu_si256((__m256i *)p, v);
}

/// Samples `s` scaled by `factor`/255 (unless `unscaled`) source-over destination words `d`.
static inline TEXTURE_TARGET __attribute__((always_inline)) __m256i blend8(__m256i d, __m256i s, uint32_t factor, int unscaled) {
    if (!unscaled) s = scale(s, _mm256_set1_epi16((short)factor));
    __m256i inverse = _mm256_sub_epi32(_mm256_set1_epi32(255), _mm256_srli_epi32(s, 24));
    return _mm256_add_epi32(s, scale(d, _mm256_or_si256(inverse, _mm256_slli_epi32(inverse, 16))));
}

/// `Pixmap.sourceOver4` on eight pixels: samples `s` scaled by `factor`/255 go source-over onto
/// `dst` (only the pixels `partial` and `mask` say). `unscaled` (a constant at each call: the row
/// loops are compiled once for `factor` = 255 and once for the others) means `factor` is 255, so
/// the samples are not scaled and opaque ones are stored as they are; the translucent layers'
/// loop then tests nothing more per eight pixels than before the opaque case existed.
static inline TEXTURE_TARGET __attribute__((always_inline)) void sourceOver8(uint32_t *dst, __m256i s, uint32_t factor, __m256i mask,
                                                                             int partial, int unscaled) {
    if (_mm256_testz_si256(s, s)) return;   // transparent: the destination stays
    // (With four lanes, the others' samples are 0: only the first four need be opaque.)
    const __m256i opaque = partial == FOUR_LANES ? _mm256_setr_epi32((int)0xFF000000, (int)0xFF000000, (int)0xFF000000,
                                                                     (int)0xFF000000, 0, 0, 0, 0)
                                                 : _mm256_set1_epi32((int)0xFF000000);
    if (unscaled && _mm256_testc_si256(s, opaque)) {
        // Opaque: the destination's weight 255 − 255 scales it to 0 exactly, leaving s.
        store8(dst, mask, partial, s);
        return;
    }
    store8(dst, mask, partial, blend8(load8(dst, mask, partial), s, factor, unscaled));
}

/// `sourceOver8`'s words for eight pixels whose destination was `d`, returned rather than stored:
/// a run's last eight, worked out from the destination as it was before the run's other pixels
/// are stored and stored after them (over the ones they share: the same words, each pixel depending
/// only on its own destination), so that a run of more than eight pixels needs no masked moves.
static inline TEXTURE_TARGET __attribute__((always_inline)) __m256i over8(__m256i d, __m256i s, uint32_t factor, int unscaled) {
    if (unscaled && _mm256_testc_si256(s, _mm256_set1_epi32((int)0xFF000000))) return s;
    return blend8(d, s, factor, unscaled);
}

/// The samples of pixels i … i + 7 of `TEXTURE_TRANSLATED_FUNCTION` (only those `partial` and
/// `mask` say; the others 0).
static inline TEXTURE_TARGET __attribute__((always_inline)) __m256i translatedSamples8(const uint32_t *top, const uint32_t *bottom,
                                                                                       intptr_t i, __m256i l, __m256i r, __m256i u,
                                                                                       __m256i w, __m256i mask, int partial) {
    return weigh8(load8(top + i, mask, partial), load8(top + i + 1, mask, partial),
                  load8(bottom + i, mask, partial), load8(bottom + i + 1, mask, partial), l, r, u, w);
}

/// Pixels i … i + 7 of `TEXTURE_TRANSLATED_FUNCTION` (only those `partial` and `mask` say).
static inline TEXTURE_TARGET __attribute__((always_inline)) void translated8(const uint32_t *top, const uint32_t *bottom, uint32_t *dst,
                                                                             intptr_t i, __m256i l, __m256i r, __m256i u, __m256i w,
                                                                             uint32_t factor, __m256i mask, int partial, int unscaled) {
    sourceOver8(dst + i, translatedSamples8(top, bottom, i, l, r, u, w, mask, partial), factor, mask, partial, unscaled);
}

/// `TEXTURE_TRANSLATED_FUNCTION`'s loop, compiled for a constant `unscaled` (`factor` = 255).
static inline TEXTURE_TARGET __attribute__((always_inline)) void translatedRow(const uint32_t *top, const uint32_t *bottom, intptr_t count,
                                                                               __m256i l, __m256i r, __m256i u, __m256i w,
                                                                               uint32_t factor, uint32_t *dst, int unscaled) {
    const __m256i all = _mm256_set1_epi32(-1);
    intptr_t i = 0;
    if (TEXTURE_OVERLAPPED_TAILS && count > 8 && count % 8 != 0) {
        // The last eight from the destination as it was (`over8`), stored after the others.
        const intptr_t k = count - 8;
        __m256i last = over8(_mm256_loadu_si256((const __m256i *)(dst + k)),
                             translatedSamples8(top, bottom, k, l, r, u, w, all, ALL_LANES), factor, unscaled);
        for (; i + 8 <= count; i += 8) translated8(top, bottom, dst, i, l, r, u, w, factor, all, ALL_LANES, unscaled);
        _mm256_storeu_si256((__m256i *)(dst + k), last);
        return;
    }
    for (; i + 8 <= count; i += 8) translated8(top, bottom, dst, i, l, r, u, w, factor, all, ALL_LANES, unscaled);
    if (count - i == 4) {
        // The last four: texels up to top[count], as the masked loads read.
        translated8(top, bottom, dst, i, l, r, u, w, factor, all, FOUR_LANES, unscaled);
    } else if (i < count) {
        // The last one to seven pixels: masked loads (no texel past top[count] is read) and store.
        __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count - i)), lanes);
        translated8(top, bottom, dst, i, l, r, u, w, factor, mask, MASKED_LANES, unscaled);
    }
}

TEXTURE_TARGET void TEXTURE_TRANSLATED_FUNCTION(const uint32_t *top, const uint32_t *bottom, intptr_t count,
                                                uint16_t left, uint16_t right, uint16_t upper, uint16_t lower,
                                                uint32_t factor, uint32_t *dst) {
    const __m256i l = _mm256_set1_epi16((short)left), r = _mm256_set1_epi16((short)right);
    const __m256i u = _mm256_set1_epi16((short)upper), w = _mm256_set1_epi16((short)lower);
    if (factor == 255) translatedRow(top, bottom, count, l, r, u, w, 255, dst, 1);
    else translatedRow(top, bottom, count, l, r, u, w, factor, dst, 0);
}

/// `Pixmap.prefetch`: the lines of words `start` … `start + count − 1`, one every sixteen words
/// and the last.
static inline void prefetchWords(const uint32_t *start, intptr_t count) {
    for (intptr_t k = 0; k < count; k += 16) __builtin_prefetch(start + k);
    if (count > 0) __builtin_prefetch(start + count - 1);
}

/// `Range.clamped(to:)`: [*lo, *hi) clamped to [limitLo, limitHi).
static inline void clampRange(intptr_t *lo, intptr_t *hi, intptr_t limitLo, intptr_t limitHi) {
    intptr_t l = *lo, h = *hi;
    *lo = limitLo > l ? limitLo : (limitHi < l ? limitHi : l);
    *hi = limitHi < h ? limitHi : (limitLo > h ? limitLo : h);
}

/// `Pixmap.split`: pixels [lo, hi) around their flat middle [*middleLo, *middleHi), narrowed so
/// that each sampled side holds whole quads of pixels when the middle has them to give; an empty
/// middle goes to hi (all sampled).
static inline void splitAroundMiddle(intptr_t lo, intptr_t hi, intptr_t *middleLo, intptr_t *middleHi) {
    if (*middleLo >= *middleHi) {
        *middleLo = *middleHi = hi;
        return;
    }
    intptr_t leftPad = (4 - (*middleLo - lo) % 4) % 4, rightPad = (4 - (hi - *middleHi) % 4) % 4;
    if (*middleHi - *middleLo >= leftPad + rightPad) {
        *middleLo += leftPad;
        *middleHi -= rightPad;
    }
}

/// `Pixmap.sourceOverUniform`: `count` pixels at `dst` under `color` scaled by `factor`/255
/// (`solidRun`: filled where the scaled colour is opaque, else `PaintBlitter.sourceOverSolid`'s
/// blend).
static inline TEXTURE_TARGET __attribute__((always_inline)) void uniformRun(uint32_t *dst, intptr_t count, uint32_t color,
                                                                            uint32_t factor) {
    solidRun(dst, count, factor == 255 ? color : scaleWord(color, factor));
}

/// Texel column `a` of row `j` in the strips, when one of the row's strips holds columns a … b;
/// else NULL.
static inline const uint32_t *stripAt(const citrine_translated_rows *d, intptr_t j, intptr_t a, intptr_t b) {
    const citrine_strip_row *s = d->stripRows + j;
    if (a >= s->leftStart && b < s->leftEnd) return d->strips + s->leftOffset + (a - s->leftStart);
    if (a >= s->rightStart && b < s->rightEnd) return d->strips + s->rightOffset + (a - s->rightStart);
    return NULL;
}

/// Texel column `a` of rows `top` and `bottom` for a run that reads columns a … b of both: in
/// the strips when they hold them for both rows, else in the image.
static inline void runTexels(const citrine_translated_rows *d, intptr_t top, intptr_t bottom, intptr_t a, intptr_t b,
                             const uint32_t **topTexels, const uint32_t **bottomTexels) {
    const uint32_t *t = d->strips ? stripAt(d, top, a, b) : NULL, *u = t ? stripAt(d, bottom, a, b) : NULL;
    if (u) {
        *topTexels = t;
        *bottomTexels = u;
    } else {
        *topTexels = d->texels + top * d->texelWidth + a;
        *bottomTexels = d->texels + bottom * d->texelWidth + a;
    }
}

/// `TEXTURE_TRANSLATED_ROWS_FUNCTION`'s loop, compiled for a constant `unscaled` (`factor` = 255):
/// `Pixmap.drawTranslatedTexture`'s rows at a fractional offset, step for step.
static inline TEXTURE_TARGET __attribute__((always_inline)) void translatedRows(const citrine_translated_rows *d, int unscaled) {
    const intptr_t w = d->texelWidth, h = d->texelHeight, width = d->pixelWidth, sx = d->shiftX, ahead = d->rowsAhead;
    const __m256i l = _mm256_set1_epi16((short)(256 - d->weightX)), r = _mm256_set1_epi16((short)d->weightX);
    const __m256i upper = _mm256_set1_epi16((short)(256 - d->weightY)), lower = _mm256_set1_epi16((short)d->weightY);
    const __m256i none = _mm256_setzero_si256();
    for (intptr_t py = d->rowStart; py < d->rowEnd; py++) {
        const intptr_t j = py + d->shiftY;
        // The pixels whose quads can hold a non-transparent texel, and the flat ones among them
        // (`TexelExtents.pixels`, `uniformPixels`: pair j + 1 of rows j and j + 1, j = −1 … h − 1).
        intptr_t lo = d->innerStart, hi = d->innerEnd, middleLo = 0, middleHi = 0;
        uint32_t color = 0;
        const citrine_row_pair *pair = d->pairs && j >= -1 && j < h ? d->pairs + (j + 1) : NULL;
        if (d->pairs) {
            if (pair && pair->reachStart < pair->reachEnd) clampRange(&lo, &hi, pair->reachStart - sx, pair->reachEnd - sx);
            else lo = hi = 0;
        }
        if (hi <= lo) continue;
        if (pair && j >= 0 && pair->flatStart < pair->flatEnd) {
            color = pair->color;
            middleLo = lo;
            middleHi = hi;
            clampRange(&middleLo, &middleHi, pair->flatStart - sx, pair->flatEnd - sx);
        }
        splitAroundMiddle(lo, hi, &middleLo, &middleHi);
        uint32_t *row = d->pixels + py * width;
        if (j + 1 + ahead < h && py + ahead < d->pixelHeight) {
            prefetchWords(row + ahead * width + lo, hi - lo);
            if (d->strips) {
                // The strips of texel row j + 1 + ahead (its runs that read the image are rare:
                // a row clipped inside its flat run).
                const citrine_strip_row *s = d->stripRows + (j + 1 + ahead);
                prefetchWords(d->strips + s->leftOffset, s->leftEnd - s->leftStart);
                if (s->rightOffset != s->leftOffset) prefetchWords(d->strips + s->rightOffset, s->rightEnd - s->rightStart);
            } else {
                const uint32_t *texels = d->texels + (j + 1 + ahead) * w + sx;
                prefetchWords(texels + lo, middleLo - lo + 2);
                prefetchWords(texels + middleHi - 1, hi - middleHi + 2);
            }
        }
        // Texel rows j and j + 1 (a row outside the image is read at the nearest one, weighing 0).
        const intptr_t jt = j < 0 ? 0 : j, jb = j + 1 < h ? j + 1 : h - 1;
        const __m256i u = j < 0 ? none : upper, v = j + 1 >= h ? none : lower;
        const uint32_t *top, *bottom;
        if (lo < middleLo) {
            runTexels(d, jt, jb, lo + sx, middleLo + sx, &top, &bottom);
            translatedRow(top, bottom, middleLo - lo, l, r, u, v, d->factor, row + lo, unscaled);
        }
        if (middleLo < middleHi) uniformRun(row + middleLo, middleHi - middleLo, color, d->factor);
        if (middleHi < hi) {
            runTexels(d, jt, jb, middleHi + sx, hi + sx, &top, &bottom);
            translatedRow(top, bottom, hi - middleHi, l, r, u, v, d->factor, row + middleHi, unscaled);
        }
    }
}

TEXTURE_TARGET void TEXTURE_TRANSLATED_ROWS_FUNCTION(const citrine_translated_rows *draw) {
    if (draw->factor == 255) translatedRows(draw, 1);
    else translatedRows(draw, 0);
}

/// Pixels i … i + 7 of `TEXTURE_TURNED_FUNCTION` at quads `q` with weights from the fractions
/// (only the pixels `partial` and `mask` say).
static inline TEXTURE_TARGET __attribute__((always_inline)) void turned8(const uint32_t *const q[8], intptr_t width, __m256i fractionU,
                                                                         __m256i fractionV, uint32_t factor, uint32_t *dst, __m256i mask,
                                                                         int partial, int unscaled) {
    __m256i s = bilinear8(q, width, weights(fractionU), weights(fractionV));
    sourceOver8(dst, s, factor, mask, partial, unscaled);
}

/// `TEXTURE_TURNED_FUNCTION`'s loop, compiled for a constant `unscaled` (`factor` = 255).
static inline TEXTURE_TARGET __attribute__((always_inline)) void turnedRow(const uint32_t *words, intptr_t width, int64_t fu, int64_t fv,
                                                                           int64_t dfu, int64_t dfv, intptr_t count, uint32_t factor,
                                                                           uint32_t *dst, int unscaled) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), all = _mm256_set1_epi32(-1);
    QuadWalk w = quadWalk(fu, fv, dfu, dfv);
    const uint32_t *q[8];
    intptr_t i = 0;
    if (TEXTURE_OVERLAPPED_TAILS && count > 8 && count % 8 != 0) {
        // The last eight from the destination as it was (`over8`), stored after the others: their
        // walk starts at pixel count − 8 (the same positions, wrapping alike).
        const intptr_t k = count - 8;
        QuadWalk tail = quadWalk((int64_t)((uint64_t)fu + (uint64_t)k * (uint64_t)dfu), (int64_t)((uint64_t)fv + (uint64_t)k * (uint64_t)dfv),
                                 dfu, dfv);
        nextQuads(&tail, words, width, 8, q);
        __m256i last = over8(_mm256_loadu_si256((const __m256i *)(dst + k)),
                             bilinear8(q, width, weights(tail.fractionU), weights(tail.fractionV)), factor, unscaled);
        for (; i + 8 <= count; i += 8) {
            nextQuads(&w, words, width, 8, q);
            turned8(q, width, w.fractionU, w.fractionV, factor, dst + i, all, ALL_LANES, unscaled);
            stepFractions(&w);
        }
        _mm256_storeu_si256((__m256i *)(dst + k), last);
        return;
    }
    for (; i + 8 <= count; i += 8) {
        nextQuads(&w, words, width, 8, q);
        turned8(q, width, w.fractionU, w.fractionV, factor, dst + i, all, ALL_LANES, unscaled);
        stepFractions(&w);
    }
    if (i < count) {
        // The last one to seven pixels (lanes past them sample the first quad again).
        intptr_t n = count - i;
        nextQuads(&w, words, width, n, q);
        if (n == 4) {
            turned8(q, width, w.fractionU, w.fractionV, factor, dst + i, all, FOUR_LANES, unscaled);
        } else {
            turned8(q, width, w.fractionU, w.fractionV, factor, dst + i, _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), lanes),
                    MASKED_LANES, unscaled);
        }
    }
}

TEXTURE_TARGET void TEXTURE_TURNED_FUNCTION(const uint32_t *words, intptr_t width, int64_t fu, int64_t fv,
                                            int64_t dfu, int64_t dfv, intptr_t count, uint32_t factor, uint32_t *dst) {
    if (factor == 255) turnedRow(words, width, fu, fv, dfu, dfv, count, 255, dst, 1);
    else turnedRow(words, width, fu, fv, dfu, dfv, count, factor, dst, 0);
}

/// Reals between two bounds (`QuadStretches.Stretch`).
typedef struct { double lo, hi; } Reals;

/// `QuadStretches.interval`: the reals x with b0 ≤ f + x·d ≤ b1 (r = 1/d); all or none for d = 0.
static inline Reals stepsWithin(int64_t f, int64_t d, double r, int64_t b0, int64_t b1) {
    if (d == 0) return b0 <= f && f < b1 ? (Reals){ -__builtin_inf(), __builtin_inf() } : (Reals){ __builtin_inf(), -__builtin_inf() };
    double a = (double)(int64_t)((uint64_t)b0 - (uint64_t)f) * r, b = (double)(int64_t)((uint64_t)b1 - (uint64_t)f) * r;
    return (Reals){ b < a ? b : a, b >= a ? b : a };   // Swift.min, Swift.max
}

/// `QuadStretches.stretch`: the reals at which a run from (fu, fv) has its quads in `box`.
static inline Reals boxStretch(int64_t fu, int64_t fv, int64_t dfu, int64_t dfv, double ru, double rv, citrine_quad_box box) {
    Reals a = stepsWithin(fu, dfu, ru, box.uStart, box.uEnd), b = stepsWithin(fv, dfv, rv, box.vStart, box.vEnd);
    return (Reals){ b.lo >= a.lo ? b.lo : a.lo, b.hi < a.hi ? b.hi : a.hi };
}

/// `QuadStretches.Stretch.pixels`: the pixels between two reals within 0 … last, as [*lo, *hi).
static inline void stretchPixels(double lo, double hi, double last, intptr_t *start, intptr_t *end) {
    lo = 0 >= lo ? 0 : lo;
    hi = last < hi ? last : hi;
    if (!(lo <= hi)) { *start = *end = 0; return; }
    intptr_t first = (intptr_t)lo, past = (intptr_t)hi + 1;
    *start = (double)first < lo ? first + 1 : first;
    *end = past >= *start ? past : *start;
}

/// `Pixmap.prefetchStep`: the pixels from one point of `prefetchTexelRows` to the next for a run
/// whose texel row moves by `dfv` (32.32 fixed point) a pixel.
static inline intptr_t prefetchStep(int64_t dfv) {
    const uint64_t one = (uint64_t)1 << 32, rows = dfv < 0 ? -(uint64_t)dfv : (uint64_t)dfv;
    if (rows >= one / 2) return 2;
    if (rows <= one / 7) return 8;
    return 1 + (intptr_t)(one / rows);
}

/// `Pixmap.prefetchTexels`: the texel rows under the quads of pixels [start, end) of the run
/// from (fu, fv), at one point every `step` pixels, the point's two rows and the one below. Not
/// inlined: the loop keeps its registers to itself (inlined into the row loop, it spilled and
/// took 31 instructions a point).
static __attribute__((noinline)) void prefetchTexelRows(const uint32_t *texels, intptr_t w, intptr_t h, int64_t fu, int64_t fv,
                                     int64_t dfu, int64_t dfv, intptr_t start, intptr_t end, intptr_t step) {
    if (start >= end) return;
    uint64_t u = (uint64_t)fu + (uint64_t)start * (uint64_t)dfu, v = (uint64_t)fv + (uint64_t)start * (uint64_t)dfv;
    const uint64_t du = (uint64_t)step * (uint64_t)dfu, dv = (uint64_t)step * (uint64_t)dfv;
    const uint64_t maxU = (uint64_t)w << 32, maxV = (uint64_t)(h - 1) << 32;
    for (intptr_t k = start; k < end; k += step, u += du, v += dv) {
        if (u < maxU && v < maxV) {
            const uint32_t *texel = texels + ((intptr_t)(int64_t)(v >> 32) * w + (intptr_t)(int64_t)(u >> 32));
            __builtin_prefetch(texel);
            __builtin_prefetch(texel + w);
            __builtin_prefetch(texel + 2 * w);
        }
    }
}

/// `TEXTURE_TURNED_ROWS_FUNCTION`'s loop, compiled for a constant `unscaled` (`factor` = 255):
/// `Pixmap.drawAffineTexture`'s rows, step for step.
static inline TEXTURE_TARGET __attribute__((always_inline)) int32_t turnedRows(citrine_turned_rows *d, int unscaled) {
    const intptr_t w = d->texelWidth, h = d->texelHeight, width = d->pixelWidth, ahead = d->rowsAhead;
    const int64_t dfu = d->dfu, dfv = d->dfv;
    const double ru = 1 / (double)dfu, rv = 1 / (double)dfv, last = (double)(width - 1), margin = 1.0 / 1048576;
    const intptr_t step = prefetchStep(dfv);
    for (intptr_t y = d->row; y < d->rowEnd; y++) {
        // `ImageSampler.move(_:toRow:)`.
        const double py = (double)y + 0.5;
        const int64_t fu = citrine_rounded_fixed(((d->ux * 0.5 + d->uy * py + d->u0) * d->invW - 0.5) * 4294967296.0);
        const int64_t fv = citrine_rounded_fixed(((d->vx * 0.5 + d->vy * py + d->v0) * d->invW - 0.5) * 4294967296.0);
        uint32_t *row = d->pixels + y * width;
        // Sampled eight at a time: pixels whose quads surely lie inside the image. The others
        // that may reach it are left to the caller.
        Reals inside = boxStretch(fu, fv, dfu, dfv, ru, rv, d->inside);
        intptr_t lo, hi, reachLo, reachHi;
        stretchPixels(inside.lo + margin, inside.hi - margin, last, &lo, &hi);
        if (d->clear) {
            stretchPixels(inside.lo - margin, inside.hi + margin, last, &reachLo, &reachHi);
        } else {
            Reals reach = boxStretch(fu, fv, dfu, dfv, ru, rv, d->reach);
            stretchPixels(reach.lo - margin, reach.hi + margin, last, &reachLo, &reachHi);
        }
        intptr_t *edges = d->edges;
        edges[0] = edges[1] = edges[2] = edges[3] = 0;
        if (lo >= hi) {
            edges[0] = reachLo;
            edges[1] = reachHi;
        } else {
            if (reachLo < lo) { edges[0] = reachLo; edges[1] = lo; }
            if (hi < reachHi) { edges[2] = hi; edges[3] = reachHi; }
        }
        if (lo < hi) {
            // Through the flat blocks: their stretches joined when they meet.
            intptr_t middleLo = hi, middleHi = hi;
            for (intptr_t b = 0; b < d->blockCount; b++) {
                Reals block = boxStretch(fu, fv, dfu, dfv, ru, rv, d->blocks[b]);
                intptr_t sLo, sHi;
                stretchPixels(block.lo + margin, block.hi - margin, last, &sLo, &sHi);
                clampRange(&sLo, &sHi, lo, hi);
                if (middleLo == middleHi || sLo == sHi) {
                    if (sHi - sLo > middleHi - middleLo) { middleLo = sLo; middleHi = sHi; }
                } else if (sLo <= middleHi && middleLo <= sHi) {
                    middleLo = sLo < middleLo ? sLo : middleLo;
                    middleHi = sHi > middleHi ? sHi : middleHi;
                } else if (sHi - sLo > middleHi - middleLo) {
                    middleLo = sLo;
                    middleHi = sHi;
                }
            }
            splitAroundMiddle(lo, hi, &middleLo, &middleHi);
            if (y + ahead < d->pixelHeight) {
                prefetchWords(row + ahead * width + lo, hi - lo);
                const int64_t au = (int64_t)((uint64_t)fu + (uint64_t)d->aheadU), av = (int64_t)((uint64_t)fv + (uint64_t)d->aheadV);
                prefetchTexelRows(d->texels, w, h, au, av, dfu, dfv, lo, middleLo + 4, step);
                prefetchTexelRows(d->texels, w, h, au, av, dfu, dfv, middleHi - 4, hi, step);
            }
            if (lo < middleLo) {
                turnedRow(d->texels, w, (int64_t)((uint64_t)fu + (uint64_t)lo * (uint64_t)dfu),
                          (int64_t)((uint64_t)fv + (uint64_t)lo * (uint64_t)dfv), dfu, dfv, middleLo - lo, d->factor, row + lo, unscaled);
            }
            if (middleLo < middleHi) uniformRun(row + middleLo, middleHi - middleLo, d->color, d->factor);
            if (middleHi < hi) {
                turnedRow(d->texels, w, (int64_t)((uint64_t)fu + (uint64_t)middleHi * (uint64_t)dfu),
                          (int64_t)((uint64_t)fv + (uint64_t)middleHi * (uint64_t)dfv), dfu, dfv, hi - middleHi, d->factor,
                          row + middleHi, unscaled);
            }
        }
        if (edges[0] < edges[1] || edges[2] < edges[3]) {
            d->row = y;
            return 1;
        }
    }
    d->row = d->rowEnd;
    return 0;
}

TEXTURE_TARGET int32_t TEXTURE_TURNED_ROWS_FUNCTION(citrine_turned_rows *draw) {
    return draw->factor == 255 ? turnedRows(draw, 1) : turnedRows(draw, 0);
}
