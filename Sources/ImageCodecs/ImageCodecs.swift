// ImageCodecs — PNG and JPEG encoding/decoding on `Raster.Pixmap`s, over the system's zlib,
// libpng and libjpeg. Knows nothing of layers or Core Graphics.
//
// Design note
// -----------
// * Decoders produce premultiplied RGBA8 `Pixmap`s (the only pixel format of Raster); the PNG
//   encoder writes straight-alpha RGBA8, un-premultiplying with rounding. No colour management
//   beyond what libpng's simplified API does for files that declare a non-sRGB gamma.
// * Errors never cross C code by `longjmp` into Swift. libpng is driven only through its
//   simplified API (`png_image_*`), which reports failures by return value. libjpeg's fatal
//   errors must `longjmp`; the jump target lives in the C shim `CJPEGShim`, whose functions
//   return a status code, so the jump never passes a Swift frame.
// * Sizes are checked against `Pixmap.validate` (Raster's limits) right after the header is
//   read, before any pixel memory is allocated. A PNG's chunk structure is walked first so a
//   truncated file is reported as such instead of as a vague libpng error.
// * Every failure is an `ImageCodecError` naming the file (or "<memory>") and what is wrong.
// * Files are written atomically: a temporary file in the destination's folder, flushed, then
//   renamed over the destination; on error the temporary file is removed and the destination
//   is untouched.
