// Raster — Citrine's pixel engine, in plain Swift with plain names.
//
// Design note
// -----------
// Everything here works in *device space*: pixels of a `Pixmap`, origin top-left, +y down,
// pixel (i, j) covering [i, i+1) × [j, j+1) with its sample point at the centre. Colours are
// 8-bit sRGB, premultiplied in storage, and blended in sRGB-encoded values (no linear light),
// as Core Graphics bitmap contexts and the anchor engines do.
//
// The engine has one seam, the `Blitter`:
//
//     Path ──(transform, flatten, clip to canvas)──▶ edges ──(exact-area coverage)──▶ Blitter
//                                                                                     │
//                     Paint (shader + blend mode + opacity) + optional clip Mask ─────┘──▶ Pixmap
//
// * Geometry and coverage (`Path`, `Transform`, `Rasterizer`, `Stroker`, `Dasher`, `Mask`) know
//   nothing of colour: they hand runs of coverage (0…255) to a `Blitter`.
// * Paint (`PaintBlitter`, shaders, gradients, image sampling, blend modes) knows nothing of paths.
//
// This module imports no Foundation: it builds fast and its hot loops stay free of bridging.
