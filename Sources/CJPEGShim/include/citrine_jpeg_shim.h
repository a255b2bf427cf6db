// CJPEGShim — the only C in ImageCodecs. libjpeg reports fatal errors by calling error_exit,
// which must not return; the only safe way out is longjmp. A longjmp must never cross a Swift
// frame, so every libjpeg call that can fail is made from a function in this file, which owns
// the matching setjmp. Swift sees plain functions that return 0 on success and fill `message`.
#ifndef CITRINE_JPEG_SHIM_H
#define CITRINE_JPEG_SHIM_H

#include <stddef.h>

/// An opaque decompressor (libjpeg state + error manager + jump buffer).
typedef struct citrine_jpeg_decoder citrine_jpeg_decoder;

/// What the header says. `is_cmyk` = the decoder delivers CMYK (4 bytes per pixel, Adobe
/// inverted when `cmyk_inverted`); otherwise it delivers opaque RGBA (R, G, B, 255).
typedef struct citrine_jpeg_info {
    int width;
    int height;
    int components;
    int is_cmyk;
    int cmyk_inverted;
    int progressive;
} citrine_jpeg_info;

/// Message buffers passed in must hold at least this many bytes.
#define CITRINE_JPEG_MESSAGE_CAPACITY 200

/// A new decoder, or NULL when out of memory.
citrine_jpeg_decoder *citrine_jpeg_create(void);
/// Frees everything the decoder holds. NULL is ignored.
void citrine_jpeg_destroy(citrine_jpeg_decoder *decoder);
/// Reads the header of `size` bytes at `data` (which must stay valid until destroy).
/// Returns 0 and fills `info`, or -1 with libjpeg's message in `message`.
int citrine_jpeg_read_header(citrine_jpeg_decoder *decoder, const unsigned char *data,
                             unsigned long size, citrine_jpeg_info *info, char *message);
/// Decodes every row into `pixels` (4 bytes per pixel, `bytes_per_row` apart).
/// Returns 0, or -1 with libjpeg's message in `message`.
int citrine_jpeg_read_pixels(citrine_jpeg_decoder *decoder, unsigned char *pixels,
                             size_t bytes_per_row, char *message);
/// With `on` non-zero, a libjpeg warning other than the end of data (corrupt data it would
/// recover from) fails the call that meets it, with the warning's text. Default: off.
void citrine_jpeg_set_warnings_are_errors(citrine_jpeg_decoder *decoder, int on);
/// 1 when libjpeg ran out of data and padded the image (a truncated file), else 0.
int citrine_jpeg_hit_premature_end(const citrine_jpeg_decoder *decoder);

#endif
