// AVX2 and AVX-512 versions of Raster's hottest pixel loops, for x86-64 processors that have
// them, chosen at run time (`citrine_avx2_enabled`, `citrine_avx512_enabled`, set when the
// program loads). Swift has no per-function target features: widening
// the Swift loops takes a build flag for the whole package (an unsafe flag, which no package
// that depends on Citrine may use) and would leave the program unable to run on processors
// without AVX2. Each function repeats, sixteen 16-bit lanes at a time, the exact integer
// arithmetic of the Swift loop it stands for (named below), so either gives the same pixels;
// the Swift loops stay the reference and the path everywhere else.
#pragma once
#include <stdint.h>

/// Whether Raster takes the AVX2 loops: 1 from program start when the processor runs AVX2
/// (x86-64 only), else 0; settable (`AVX2Kernels.isEnabled`). A C global behind inline
/// accessors, so that reading it costs Swift code one load (a Swift global would be
/// initialized lazily, and checked at each read).
extern int citrine_avx2_enabled;
static inline int citrine_avx2_is_enabled(void) { return citrine_avx2_enabled; }
static inline void citrine_avx2_set_enabled(int enabled) { citrine_avx2_enabled = enabled; }

/// 1 when the processor runs AVX2 (x86-64 only), else 0.
int citrine_has_avx2(void);

/// Whether Raster takes the AVX-512 loops (where it has them): 1 from program start when the
/// processor runs AVX-512 F, BW and VL and the system saves its registers (x86-64 only), else 0;
/// settable (`AVX512Kernels.isEnabled`). Taken before the AVX2 loops, whatever their switch.
extern int citrine_avx512_enabled;
static inline int citrine_avx512_is_enabled(void) { return citrine_avx512_enabled; }
void citrine_avx512_set_enabled(int enabled);

/// 1 when the processor runs AVX-512 F, BW and VL (x86-64 only), else 0.
int citrine_has_avx512(void);

/// To nearest, halves away from zero (Swift's `rounded()`), as a 64-bit integer, for |x| < 2⁶³:
/// the truncation, then the remainder (exact) decides. `FixedRun`'s fixed-point positions, in
/// Swift and in the turned rows. Inline and unchecked: Swift's `Int64(x)` tests the range and
/// traps, four instructions more at each of the four conversions that start every image run;
/// the callers bound x first.
static inline int64_t citrine_rounded_fixed(double x) {
    int64_t t = (int64_t)x;
    double r = x - (double)t;
    return r >= 0.5 ? t + 1 : r <= -0.5 ? t - 1 : t;
}

/// `PaintBlitter.sourceOverSolid` for count ≥ 8 and a colour that is not opaque:
/// dst = src + dst·(255 − αs)/255 per channel, ⌊(x·f + 128)·257 / 2¹⁶⌋ rounding.
void citrine_source_over_solid_avx2(uint32_t *dst, intptr_t count, uint32_t src);

/// `citrine_source_over_solid_avx2` sixteen pixels at a time (runs under sixteen go to it).
void citrine_source_over_solid_avx512(uint32_t *dst, intptr_t count, uint32_t src);

/// The solid source-over loop for count ≥ 8 and a colour that is not opaque: the AVX-512 one
/// while `citrine_avx512_enabled`, else the AVX2 one (switched with it). Through a pointer so
/// that the Swift caller tests one switch per run, as before the AVX-512 loop existed.
extern void (*citrine_source_over_solid_kernel)(uint32_t *dst, intptr_t count, uint32_t src);
static inline void citrine_source_over_solid(uint32_t *dst, intptr_t count, uint32_t src) {
    citrine_source_over_solid_kernel(dst, count, src);
}

/// `Pixmap.fill(with:)`: `count` (≥ 16) copies of `word` from `dst`, 32-byte (AVX2) or 64-byte
/// (AVX-512) stores, eight per step; the last store overlaps the ones before it.
void citrine_fill_avx2(uint32_t *dst, intptr_t count, uint32_t word);
void citrine_fill_avx512(uint32_t *dst, intptr_t count, uint32_t word);

/// `PaintBlitter.sourceOver(_:source:color:coverage:count:opacity:)` with a source row: per
/// pixel the factor f = coverage (× opacity / 255 rounded, when opacity < 255), then
/// dst = s·f/255 + dst·(255 − αs·f/255)/255, `PaintBlitter.scale4`'s rounding. Eight pixels at a
/// time (AVX2) or sixteen (AVX-512), the last few through masked loads and stores.
void citrine_source_over_row_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, intptr_t count,
                                  uint32_t opacity);
void citrine_source_over_row_avx512(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, intptr_t count,
                                    uint32_t opacity);

/// `citrine_source_over_row_avx2`/`_avx512` for a run whose pixels all have the same coverage:
/// `factor` is that coverage × opacity / 255 rounded (`PaintBlitter.div255`), the same for every
/// pixel, so no coverage row is read; per pixel dst = s·f/255 + dst·(255 − αs·f/255)/255,
/// `PaintBlitter.scale4`'s rounding. Eight (AVX2) or sixteen (AVX-512) pixels at a time; AVX2 ends
/// a run of more than eight with its last eight overlapped, a run of exactly four with 128-bit
/// moves, others through masked loads and stores (AVX-512: masked). Group surfaces composited at
/// their place (`PaintBlitter`) and images drawn at whole-pixel offsets (`Pixmap.sourceOverRow`).
void citrine_source_over_span_avx2(uint32_t *dst, const uint32_t *src, intptr_t count, uint32_t factor);
void citrine_source_over_span_avx512(uint32_t *dst, const uint32_t *src, intptr_t count, uint32_t factor);

/// One run of a two-circle radial gradient (`RadialSolver.quadraticRun`, a ≠ 0), in gradient
/// space: pixel i of the run lies at (sx + k·dx, sy + k·dy) from the start circle's centre, for
/// k = first + i (the pixel's column: (sx, sy) is the row's pixel 0, so a pixel's word does not
/// depend on where its run starts).
typedef struct citrine_radial_run {
    double sx, sy, dx, dy;
    /// The run's first k: a whole number below 2⁵³ in magnitude, a device column (for a negative
    /// one the loops work out every pixel's y as well: `rowMode`).
    double first;
    /// The end circle's centre minus the start circle's; start radius; end minus start radius.
    double cdx, cdy, r0, dr;
    /// r0·dr, r0², a = |cd|² − dr², 1 / a, and the sign of a (±1).
    double r0dr, r0Squared, a, invA, rootSign;
    /// The spread mode: 0 pad, 1 repeat, 2 reflect, 3 decal.
    intptr_t spread;
} citrine_radial_run;

/// `count` words of a radial gradient run from `table` (256 premultiplied entries), as the
/// Swift loop computes them pixel by pixel (`RadialSolver.quadraticRun` and
/// `GradientRamp.color(at:spread:table:)`; 0 where a pixel lies on no circle): the same
/// double-precision operations in four (AVX2) or eight (AVX-512) lanes, eight or sixteen pixels
/// at a time, the last few through a masked store.
void citrine_radial_row_avx2(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *out);
void citrine_radial_row_avx512(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *out);

/// `citrine_radial_row_avx2`/`_avx512`'s words blended source-over onto `dst` at full coverage
/// and opacity, group by group: per channel s + d·(255 − αs)/255 with
/// `PaintBlitter.sourceOver`'s rounding, the words of the radial row then the row blend.
void citrine_radial_over_row_avx2(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *dst);
void citrine_radial_over_row_avx512(const citrine_radial_run *run, const uint32_t *table, intptr_t count, uint32_t *dst);

/// `GradientRamp.padPixels` (a linear gradient with the pad spread along a run): word i is
/// table[clamp(⌊(v + i·dv) / 2³²⌋, 0, 255)] for the 32.32 fixed-point positions v + i·dv, eight
/// (AVX2) or sixteen (AVX-512) pixels at a time, each group permuted from one window of the table
/// (the last few through a masked store). Needs |dv| ≤ 2³² (at most one entry per pixel), |v| and
/// |v + count·dv| below 10⁹ entries (their integer halves then fit 32 bits), and `table` padded to `GradientRamp.paddedSize`
/// words (the last entry repeated past entry 255).
void citrine_linear_pad_row_avx2(const uint32_t *table, int64_t v, int64_t dv, intptr_t count, uint32_t *out);
void citrine_linear_pad_row_avx512(const uint32_t *table, int64_t v, int64_t dv, intptr_t count, uint32_t *out);

/// `ImageSampler.translatedRow`, eight pixels at a time (the last one to seven through masked
/// loads and stores): bilinear samples of a translated image (weights `left`/`right` for the two
/// texel columns, `upper`/`lower` for the two rows, each pair summing to at most 256), scaled
/// by `factor`/255 and composited source-over onto `dst`. Reads texels up to `top[count]`.
void citrine_translated_row_avx2(const uint32_t *top, const uint32_t *bottom, intptr_t count,
                                 uint16_t left, uint16_t right, uint16_t upper, uint16_t lower,
                                 uint32_t factor, uint32_t *dst);
/// `citrine_translated_row_avx2` with AVX-512's masked moves for the last pixels.
void citrine_translated_row_avx512(const uint32_t *top, const uint32_t *bottom, intptr_t count,
                                   uint16_t left, uint16_t right, uint16_t upper, uint16_t lower,
                                   uint32_t factor, uint32_t *dst);

/// What a translated draw needs of texel rows j and j + 1 (`TexelExtents.RowPair`): the texel
/// columns c whose quad (columns c and c + 1) can hold a non-transparent texel, [reachStart,
/// reachEnd), and those whose quad is flat, [flatStart, flatEnd), in the premultiplied `color`.
typedef struct {
    int32_t reachStart, reachEnd, flatStart, flatEnd;
    uint32_t color;
} citrine_row_pair;

/// Where texel row j's copies lie in `citrine_translated_rows.strips` (`TexelExtents.Strips`):
/// columns [leftStart, leftEnd) from word leftOffset on and [rightStart, rightEnd) from word
/// rightOffset on (the same strip twice when the row has one).
typedef struct {
    int32_t leftStart, leftEnd, rightStart, rightEnd;
    intptr_t leftOffset, rightOffset;
} citrine_strip_row;

/// A texture drawn at a fractional translation (`Pixmap.drawTranslatedTexture`), the rows of its
/// pixels whose two texel columns both lie inside the image: pixel (p, y) samples texels
/// (p + shiftX, y + shiftY) … (p + shiftX + 1, y + shiftY + 1) with weights 256 − weightX,
/// weightX and 256 − weightY, weightY (0…256; a texel row outside the image weighs 0).
typedef struct {
    /// The image, `texelWidth` × `texelHeight` words a row apart.
    const uint32_t *texels;
    intptr_t texelWidth, texelHeight;
    /// `texelHeight` + 1 row pairs, for j = −1 … texelHeight − 1 at index j + 1 (the image's
    /// `TexelExtents`), or NULL: every pixel of `inner` sampled.
    const citrine_row_pair *pairs;
    /// `texelHeight` strip rows and the words they lie in (the image's `TexelExtents.Strips`), or
    /// NULL: a run whose texel columns both its rows' strips hold reads them there, any other
    /// reads the image.
    const citrine_strip_row *stripRows;
    const uint32_t *strips;
    /// The target, `pixelWidth` × `pixelHeight` words a row apart.
    uint32_t *pixels;
    intptr_t pixelWidth, pixelHeight;
    intptr_t shiftX, shiftY;
    /// Pixel columns [innerStart, innerEnd) and rows [rowStart, rowEnd) drawn.
    intptr_t innerStart, innerEnd, rowStart, rowEnd;
    /// How many rows below the pixels and texels are fetched ahead (`Pixmap.rowsAhead`).
    intptr_t rowsAhead;
    uint16_t weightX, weightY;
    /// Opacity, 0…255.
    uint32_t factor;
} citrine_translated_rows;

/// `Pixmap.drawTranslatedTexture`'s rows at a fractional offset: per row, the pixels the row
/// pairs say can be non-zero, their flat middle as one colour (`Pixmap.sourceOverUniform`) and
/// the rest sampled (`citrine_translated_row_avx2`), with the pixels and texels `rowsAhead` rows
/// below prefetched — the Swift loop's words and order, without its per-row calls.
void citrine_translated_rows_avx2(const citrine_translated_rows *draw);
/// `citrine_translated_rows_avx2` with AVX-512's masked moves and sixteen-pixel solid runs.
void citrine_translated_rows_avx512(const citrine_translated_rows *draw);

/// Quad positions (top-left texels, 32.32 fixed point) in [uStart, uEnd] × [vStart, vEnd], the
/// bounds as `QuadStretches` takes them.
typedef struct {
    int64_t uStart, uEnd, vStart, vEnd;
} citrine_quad_box;

/// A texture drawn under an affine map (`Pixmap.drawAffineTexture`), from `row` to `rowEnd`:
/// each row's run starts at image position u = (ux·½ + uy·(y + ½) + u0)·invW, v = (vx·½ +
/// vy·(y + ½) + v0)·invW (`ImageSampler.affineRun`, `FixedRun.start`) and steps (dfu, dfv)
/// a pixel.
typedef struct {
    /// The image, `texelWidth` × `texelHeight` words a row apart.
    const uint32_t *texels;
    intptr_t texelWidth, texelHeight;
    /// The target, `pixelWidth` × `pixelHeight` words a row apart.
    uint32_t *pixels;
    intptr_t pixelWidth, pixelHeight;
    double ux, uy, u0, vx, vy, v0, invW;
    int64_t dfu, dfv;
    /// The quads wholly inside the image; those that reach into it (used unless `clear`).
    citrine_quad_box inside, reach;
    /// The image's flat blocks (`TexelExtents.blocks`, at most two), in `color`.
    citrine_quad_box blocks[2];
    intptr_t blockCount;
    uint32_t color;
    /// Whether only quads wholly inside the image can be non-zero (transparent outermost texels).
    int32_t clear;
    /// Opacity, 0…255.
    uint32_t factor;
    /// How many rows below the pixels and texels are fetched ahead (`Pixmap.rowsAhead`), and the
    /// run's offset there (fixed point).
    intptr_t rowsAhead;
    int64_t aheadU, aheadV;
    /// In: the first row to draw. Out, when the call returns 1: the row whose pixels
    /// [edges[0], edges[1]) and [edges[2], edges[3]) are left to the sampler's checked loop.
    intptr_t row, rowEnd;
    intptr_t edges[4];
} citrine_turned_rows;

/// `Pixmap.drawAffineTexture`'s rows through fixed-point runs: per row, the pixels whose quads
/// surely lie inside the image, their flat middle as one colour (`Pixmap.sourceOverUniform`) and
/// the rest sampled (`citrine_turned_row_avx2`), with the pixels and texels `rowsAhead` rows
/// below prefetched — the Swift loop's words. Returns 1 after a row with pixels that only may
/// reach the image (its `edges`, for the caller to draw before going on from `row` + 1), else 0
/// when every row is drawn.
int32_t citrine_turned_rows_avx2(citrine_turned_rows *draw);
/// `citrine_turned_rows_avx2` with AVX-512's masked moves and sixteen-pixel solid runs.
int32_t citrine_turned_rows_avx512(citrine_turned_rows *draw);

/// `ImageSampler.composite(_:pixels:inside:factor:into:)` for quads inside the image, eight
/// pixels at a time (the last one to seven through a masked store): bilinear samples along a
/// fixed-point run (`FixedRun`: image positions fu, fv minus ½ texel, stepping dfu, dfv per
/// pixel, 32 fractional bits) whose texel quads all lie inside the image (`width` texels a row,
/// at `words`), scaled by `factor`/255 and composited source-over onto `dst`.
void citrine_turned_row_avx2(const uint32_t *words, intptr_t width, int64_t fu, int64_t fv,
                             int64_t dfu, int64_t dfv, intptr_t count, uint32_t factor, uint32_t *dst);
/// `citrine_turned_row_avx2` with AVX-512's masked moves for the last pixels.
void citrine_turned_row_avx512(const uint32_t *words, intptr_t width, int64_t fu, int64_t fv,
                               int64_t dfu, int64_t dfv, intptr_t count, uint32_t factor, uint32_t *dst);

/// `ImageSampler.sampleBilinearRun` for the pixels of a fixed-point run (as
/// `citrine_turned_row_avx2` takes it) whose texel quads all lie inside the image: the bilinear
/// samples written to `out`, `ImageSampler.weigh4`'s rounding, eight pixels at a time (the last
/// one to seven through a masked store).
void citrine_bilinear_row_avx2(const uint32_t *words, intptr_t width, int64_t fu, int64_t fv,
                               int64_t dfu, int64_t dfv, intptr_t count, uint32_t *out);

/// `ImageSampler`'s bilinear samples under a projective map (`m`, device → image, row-major
/// 3×3), written to `out`: pixel k of the run has its centre at (px + k, py). Eight pixels at a
/// time, each with the Swift loop's double-precision operations in its lane (multiplies and adds
/// kept apart, IEEE divisions, `floor`, truncating conversions) and `ImageSampler.weigh4`'s
/// rounding. Only pixels whose w > 10⁻¹², whose position lies within ±10⁹ texels and whose texel
/// quad lies wholly inside the image (`width` × `height` texels at `words`) are written: the
/// loop stops before the first group of eight with another pixel and returns how many pixels it
/// wrote (`count` when it got through).
intptr_t citrine_projective_row_avx2(const double *m, const uint32_t *words, intptr_t width, intptr_t height,
                                     double px, double py, intptr_t count, uint32_t *out);
/// `citrine_projective_row_avx2` sixteen pixels at a time (texel pairs gathered), eight lanes of
/// doubles; the last pixels through a masked store.
intptr_t citrine_projective_row_avx512(const double *m, const uint32_t *words, intptr_t width, intptr_t height,
                                       double px, double py, intptr_t count, uint32_t *out);

/// `Rasterizer.depositSegments` where the box holds every edge: each edge (x0, y0, x1, y1 at
/// `edges + 4·i`, device space) moved by −(originX, originY) into the box and its signed area
/// added to the cells (row r at `cells + r·stride`, `height` rows) with `Rasterizer.deposit`'s
/// float operations in the same order, widening `rowMin[r]`/`rowMax[r]` to the columns touched.
/// The same cells, bit for bit, as the Swift loop.
void citrine_deposit_avx2(const double *edges, intptr_t count, double originX, double originY, float *cells,
                          intptr_t stride, intptr_t height, intptr_t *rowMin, intptr_t *rowMax);
/// `citrine_deposit_avx2` that also sets in `blocks[r]` the bits of the blocks of 2^`blockShift`
/// columns the columns touched lie in (`Rasterizer.rowBlocks`, `Rasterizer.blockBits`).
void citrine_deposit_marking_avx2(const double *edges, intptr_t count, double originX, double originY, float *cells,
                                  intptr_t stride, intptr_t height, intptr_t *rowMin, intptr_t *rowMax,
                                  uint64_t *blocks, intptr_t blockShift);
/// `citrine_deposit_avx2` of one segment already in box-local coordinates (a clipped piece).
void citrine_deposit_segment_avx2(double ax, double ay, double bx, double by, float *cells, intptr_t stride,
                                  intptr_t height, intptr_t *rowMin, intptr_t *rowMax);
/// `citrine_deposit_marking_avx2` of one segment already in box-local coordinates.
void citrine_deposit_segment_marking_avx2(double ax, double ay, double bx, double by, float *cells, intptr_t stride,
                                          intptr_t height, intptr_t *rowMin, intptr_t *rowMax, uint64_t *blocks,
                                          intptr_t blockShift);

/// `EdgeList.bounds(with:)`: `bounds` (minX, minY, −maxX, −maxY) widened by the end points of
/// the `count` edges (x0, y0, x1, y1 at `edges + 4·i`), four lanes at a time. The same bounds as
/// the Swift loop (the values are finite; only the sign of a zero bound can differ, which no
/// caller sees: the bounds are rounded to whole pixels and compared).
void citrine_edge_bounds_avx2(const double *edges, intptr_t count, double *bounds);

/// `Rasterizer.sweepRows` (non-zero rule, anti-aliased) for a solid colour drawn source-over
/// without a clip (`color` premultiplied, `opacity` 0…255), every row of the box: row r's cells
/// are `cells + r·stride`, its touched columns `rowMin[r] … rowMax[r]` (reset to INTPTR_MAX and
/// −1), its pixel x at `dst + r·dstStride + x`. Prefix-sums the cells of `lo ..< min(hi + 1,
/// width)` in order (each running sum exactly the Swift loop's), clears them, and blends each
/// pixel with its level — cells with deltas eight at a time (lanes past the row's end neither
/// drawn nor read), the runs between them as one span of constant level — with `PaintBlitter`'s
/// arithmetic, so every pixel gets the words the Swift sweep gives it. Reads and clears up to
/// seven cells past a row's end (the rasterizer's stride keeps them in the row).
void citrine_sweep_solid_avx2(float *cells, intptr_t stride, intptr_t *rowMin, intptr_t *rowMax, intptr_t rows,
                              intptr_t width, uint32_t *dst, intptr_t dstStride, uint32_t color, uint32_t opacity);
/// `citrine_sweep_solid_avx2` compiled for AVX-512 F, BW and VL, its runs of sixteen pixels or
/// more blended by `citrine_source_over_solid_avx512`'s loop inline: the same words.
void citrine_sweep_solid_avx512(float *cells, intptr_t stride, intptr_t *rowMin, intptr_t *rowMax, intptr_t rows,
                                intptr_t width, uint32_t *dst, intptr_t dstStride, uint32_t color, uint32_t opacity);

/// `Pixmap.applyColorMatrix` over `count` words: each un-premultiplied, mapped by the row-major
/// 4×5 matrix `m` (20 floats), clamped, premultiplied and packed with the Swift loop's float
/// operations in the same order (the same words); with `transparentStays` (the bias has no
/// alpha) a transparent word stays 0. Eight pixels at a time, the last few through masked moves.
void citrine_color_matrix_avx2(uint32_t *words, intptr_t count, const float *m, int transparentStays);

/// `Pixmap.gaussianBlur`'s taps for `vectors` runs of W floats, W = 8 (AVX2) or 16 (AVX-512):
/// float i of run v is Σ_d src[v·W + d·tapStride + i] × kernel[d] over d = 0 ..< taps, summed
/// from zero in that order with a separate multiply and add (the Swift loop's operations, lane
/// for lane: the same floats), stored at dst[v·W + i].
void citrine_blur_taps_avx2(const float *src, float *dst, intptr_t vectors, intptr_t tapStride, const float *kernel,
                            intptr_t taps);
void citrine_blur_taps_avx512(const float *src, float *dst, intptr_t vectors, intptr_t tapStride, const float *kernel,
                              intptr_t taps);

/// A blur line's words to floats: entry i of `count` is the `group` words at words + i·step,
/// each word's four bytes (r, g, b, a from the low byte) divided by 255 to line[4·(i·group + b)
/// …] — `SIMD4<Float>(unpack:)`'s floats.
void citrine_blur_unpack_avx2(const uint32_t *words, intptr_t step, intptr_t count, intptr_t group, float *line);

/// Back: each pixel's four floats of `sums` (laid out as `citrine_blur_unpack_avx2`'s line)
/// clamped to 0…1, times 255 plus ½ (a separate multiply and add), truncated, colour channels
/// limited to alpha, to its word — `SIMD4<Float>.packed`'s word.
void citrine_blur_pack_avx2(const float *sums, intptr_t count, intptr_t group, uint32_t *words, intptr_t step);
