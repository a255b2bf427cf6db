// The texture row loops (`citrine_translated_row_avx2`/`_avx512`, `citrine_turned_row_avx2`/
// `_avx512`: include/CKernels.h), written once and compiled by each file that includes it for its
// own target, eight pixels at a time. Before including, define TEXTURE_TARGET (the functions'
// target attribute), TEXTURE_TRANSLATED_FUNCTION and TEXTURE_TURNED_FUNCTION (the names of the
// exported functions), and TAIL_LOAD8(p, mask) / TAIL_STORE8(p, mask, v), the masked moves of a
// run's last one to seven pixels (`mask`: the lanes to move all ones; no memory touched in the
// others, a masked load's other lanes 0).
// Needs Texture8.h. No include guard: each file includes it once.

/// Eight words from `p`; with `partial`, only the lanes set in `mask` are read (the others are 0).
static inline TEXTURE_TARGET __m256i load8(const uint32_t *p, __m256i mask, int partial) {
    return partial ? TAIL_LOAD8(p, mask) : _mm256_loadu_si256((const __m256i *)p);
}

/// `Pixmap.sourceOver4` on eight pixels: samples `s` scaled by `factor`/255 go source-over onto
/// `dst` (only the pixels in `mask` with `partial`). `unscaled` (a constant at each call: the row
/// loops are compiled once for `factor` = 255 and once for the others) means `factor` is 255, so
/// the samples are not scaled and opaque ones are stored as they are; the translucent layers'
/// loop then tests nothing more per eight pixels than before the opaque case existed.
static inline TEXTURE_TARGET __attribute__((always_inline)) void sourceOver8(uint32_t *dst, __m256i s, uint32_t factor, __m256i mask,
                                                                             int partial, int unscaled) {
    if (_mm256_testz_si256(s, s)) return;   // transparent: the destination stays
    if (unscaled && _mm256_testc_si256(s, _mm256_set1_epi32((int)0xFF000000))) {
        // Opaque: the destination's weight 255 − 255 scales it to 0 exactly, leaving s.
        if (partial) TAIL_STORE8(dst, mask, s);
        else _mm256_storeu_si256((__m256i *)dst, s);
        return;
    }
    if (!unscaled) s = scale(s, _mm256_set1_epi16((short)factor));
    __m256i inverse = _mm256_sub_epi32(_mm256_set1_epi32(255), _mm256_srli_epi32(s, 24));
    __m256i d = load8(dst, mask, partial);
    d = _mm256_add_epi32(s, scale(d, _mm256_or_si256(inverse, _mm256_slli_epi32(inverse, 16))));
    if (partial) TAIL_STORE8(dst, mask, d);
    else _mm256_storeu_si256((__m256i *)dst, d);
}

/// Pixels i … i + 7 of `TEXTURE_TRANSLATED_FUNCTION` (only those in `mask` with `partial`).
static inline TEXTURE_TARGET __attribute__((always_inline)) void translated8(const uint32_t *top, const uint32_t *bottom, uint32_t *dst,
                                                                             intptr_t i, __m256i l, __m256i r, __m256i u, __m256i w,
                                                                             uint32_t factor, __m256i mask, int partial, int unscaled) {
    __m256i s = weigh8(load8(top + i, mask, partial), load8(top + i + 1, mask, partial),
                       load8(bottom + i, mask, partial), load8(bottom + i + 1, mask, partial), l, r, u, w);
    sourceOver8(dst + i, s, factor, mask, partial, unscaled);
}

/// `TEXTURE_TRANSLATED_FUNCTION`'s loop, compiled for a constant `unscaled` (`factor` = 255).
static inline TEXTURE_TARGET __attribute__((always_inline)) void translatedRow(const uint32_t *top, const uint32_t *bottom, intptr_t count,
                                                                               __m256i l, __m256i r, __m256i u, __m256i w,
                                                                               uint32_t factor, uint32_t *dst, int unscaled) {
    const __m256i all = _mm256_set1_epi32(-1);
    intptr_t i = 0;
    for (; i + 8 <= count; i += 8) translated8(top, bottom, dst, i, l, r, u, w, factor, all, 0, unscaled);
    if (i < count) {
        // The last one to seven pixels: masked loads (no texel past top[count] is read) and store.
        __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count - i)), lanes);
        translated8(top, bottom, dst, i, l, r, u, w, factor, mask, 1, unscaled);
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

/// Pixels i … i + 7 of `TEXTURE_TURNED_FUNCTION` at quads `q` with weights from the fractions
/// (only the pixels in `mask` with `partial`).
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
    for (; i + 8 <= count; i += 8) {
        nextQuads(&w, words, width, 8, q);
        turned8(q, width, w.fractionU, w.fractionV, factor, dst + i, all, 0, unscaled);
        stepFractions(&w);
    }
    if (i < count) {
        intptr_t n = count - i;
        nextQuads(&w, words, width, n, q);
        turned8(q, width, w.fractionU, w.fractionV, factor, dst + i, _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), lanes), 1, unscaled);
    }
}

TEXTURE_TARGET void TEXTURE_TURNED_FUNCTION(const uint32_t *words, intptr_t width, int64_t fu, int64_t fv,
                                            int64_t dfu, int64_t dfv, intptr_t count, uint32_t factor, uint32_t *dst) {
    if (factor == 255) turnedRow(words, width, fu, fv, dfu, dfv, count, 255, dst, 1);
    else turnedRow(words, width, fu, fv, dfu, dfv, count, factor, dst, 0);
}
