// The solid sweep (`citrine_sweep_solid_avx2`, `citrine_sweep_solid_avx512`: include/CKernels.h),
// written once and compiled by each file that includes it for its own target. Before including,
// define SWEEP_TARGET (the functions' target attribute), SWEEP_FUNCTION (the name of the exported
// function) and the span loops for runs of eight pixels or more, SWEEP_SOLID_SPAN(dst, count,
// src) (source-over of a translucent word) and SWEEP_FILL_SPAN(dst, count, word) (an opaque one),
// and the masked moves of shorter runs, TAIL_LOAD8(p, mask) and TAIL_STORE8(p, mask, v).
// Compiled for AVX-512 the whole row loop gets its registers and masked moves and the spans are
// inlined rather than called: S6 (2 000 translucent rounded rectangles, one call per row) took
// 6 % less time than with the AVX2 sweep calling the AVX-512 span loop (10.05 → 9.44 ms,
// `anchor-bench` of both alternating, eight rounds).
// Needs Blend8.h. No include guard: each file includes it once.

/// `count` pixels at `dst` under a solid source `src` (premultiplied, already scaled by the
/// coverage and opacity): src + dst·(255 − αs)/255, `PaintBlitter.scale`'s rounding; an opaque
/// source is stored. Runs of eight or more go to the span loops `PaintBlitter.sourceOverSolid`
/// takes (SWEEP_SOLID_SPAN; its ⌊(x·f + 128)·257 / 2¹⁶⌋ is `scale`'s rounding) and the fills of
/// `Pixmap.fill(with:)` (SWEEP_FILL_SPAN); shorter ones are blended eight pixels at a time through
/// a masked load and store.
static inline SWEEP_TARGET __attribute__((always_inline)) void solidRun(uint32_t *dst, intptr_t count, uint32_t src) {
    if (src >> 24 == 255) {
        if (count >= 8) { SWEEP_FILL_SPAN(dst, count, src); return; }
        for (intptr_t i = 0; i < count; i++) dst[i] = src;
        return;
    }
    if (count >= 8) { SWEEP_SOLID_SPAN(dst, count, src); return; }
    const __m256i source = _mm256_set1_epi32((int)src);
    const __m256i factor = _mm256_set1_epi16((short)(255 - (src >> 24)));
    __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    __m256i d = TAIL_LOAD8(dst, mask);
    TAIL_STORE8(dst, mask, _mm256_add_epi32(source, scale(d, factor)));
}

/// One row of the sweep: cells `line[lo ..< end]`, pixel x at `dst + x`.
static inline SWEEP_TARGET __attribute__((always_inline)) void sweepRow(float *line, intptr_t lo, intptr_t end,
                                                                        uint32_t *dst, uint32_t color, uint32_t opacity) {
    const __m256i source = _mm256_set1_epi32((int)color), lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    float acc = 0;
    uint32_t level = 0;     // the level of `acc`
    intptr_t x = lo;
    while (x < end) {
        if (line[x] != 0) {
            // Cells with deltas, eight at a time: the running sums added one after the other,
            // the cells cleared; lanes from `end` on are not drawn.
            do {
                float sums[8];
                float a = acc;
                for (int k = 0; k < 8; k++) { a = a + line[x + k]; sums[k] = a; }
                acc = a;
                _mm256_storeu_ps(line + x, _mm256_setzero_ps());
                __m256i levels = nonZeroLevels8(_mm256_loadu_ps(sums));
                level = (uint32_t)_mm256_extract_epi32(levels, 7);
                intptr_t n = end - x < 8 ? end - x : 8;
                if (!_mm256_testz_si256(levels, levels)) {
                    if (n == 8) {
                        __m256i d = _mm256_loadu_si256((const __m256i *)(dst + x));
                        _mm256_storeu_si256((__m256i *)(dst + x), sourceOverRow8(d, source, levels, opacity));
                    } else {
                        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), lanes);
                        __m256i d = TAIL_LOAD8(dst + x, mask);
                        TAIL_STORE8(dst + x, mask, sourceOverRow8(d, source, levels, opacity));
                    }
                }
                x += n;
            } while (x < end && line[x] != 0);
            if (x >= end) break;
        }
        // A run without deltas: constant coverage until the next delta.
        intptr_t next = runEnd8(line, x + 1, end);
        if (level > 0) {
            // `PaintBlitter.solidSpan`: the colour scaled by coverage × opacity / 255.
            uint32_t t = level * opacity + 128;
            solidRun(dst + x, next - x, scaleWord(color, (t + (t >> 8)) >> 8));
        }
        x = next;
    }
}

/// Rows of destination pixels the sweep asks the CPU for ahead of the row it draws, and the
/// narrowest target (pixels a row) for which it does. Narrower targets mostly fit the caches
/// (S2's 512 × 512 canvas, layer bitmaps): there the prefetches cost instructions (S2 +2.8 %,
/// callgrind) and gained no measurable time.
enum { sweepRowsAhead = 3, sweepPrefetchWidth = 1024 };

/// Asks for the cache lines of the pixels `lo ... hi` of the row at `dst` (clamped to the row),
/// one prefetch a 64-byte line.
static inline void prefetchSpan(const uint32_t *dst, intptr_t lo, intptr_t hi, intptr_t width) {
    if (hi >= width) hi = width - 1;
    if (hi < lo) return;
    uintptr_t line = (uintptr_t)(dst + lo) & ~(uintptr_t)63, last = (uintptr_t)(dst + hi);
    for (; line <= last; line += 64) __builtin_prefetch((const void *)line, 1, 3);
}

/// Row `row` of the sweep: drawn and its cells cleared.
static inline SWEEP_TARGET __attribute__((always_inline)) void sweepSolidRow(float *cells, intptr_t stride,
                                                                             intptr_t *rowMin, intptr_t *rowMax,
                                                                             intptr_t row, intptr_t width, uint32_t *dst,
                                                                             intptr_t dstStride, uint32_t color,
                                                                             uint32_t opacity) {
    intptr_t lo = rowMin[row], hi = rowMax[row];
    if (hi < lo) return;
    rowMin[row] = INTPTR_MAX;
    rowMax[row] = -1;
    float *line = cells + row * stride;
    sweepRow(line, lo, hi + 1 < width ? hi + 1 : width, dst + row * dstStride, color, opacity);
    // Clear what lies past the box edge (carries of the last column; hi ≤ width + 1).
    if (hi >= width) { line[width] = 0; line[width + 1] = 0; }
}

SWEEP_TARGET void SWEEP_FUNCTION(float *cells, intptr_t stride, intptr_t *rowMin, intptr_t *rowMax, intptr_t rows,
                                 intptr_t width, uint32_t *dst, intptr_t dstStride, uint32_t color, uint32_t opacity) {
    if (dstStride < sweepPrefetchWidth) {
        for (intptr_t row = 0; row < rows; row++)
            sweepSolidRow(cells, stride, rowMin, rowMax, row, width, dst, dstStride, color, opacity);
        return;
    }
    // The first rows' pixels, then each row's `sweepRowsAhead` below while it is drawn: rows lie
    // a canvas width apart, too far for the processor's own stride prefetch, so each row's first
    // loads missed (S6, perf: half the samples of the span loop on its first load).
    for (intptr_t row = 0; row < sweepRowsAhead && row < rows; row++)
        prefetchSpan(dst + row * dstStride, rowMin[row], rowMax[row], width);
    for (intptr_t row = 0; row < rows; row++) {
        intptr_t next = row + sweepRowsAhead;
        if (next < rows) prefetchSpan(dst + next * dstStride, rowMin[next], rowMax[next], width);
        sweepSolidRow(cells, stride, rowMin, rowMax, row, width, dst, dstStride, color, opacity);
    }
}

