// AnchorScenes — test support: the anchor benchmark scenes of
// ../shared/bench/anchors/scenes.md (S1–S8) as data, plus a renderer per scene that draws them
// with Raster's public API. Used by the correctness tests (compared with Skia's PNGs) and by the
// benchmark package (timed against the anchor engines).
//
// Design note
// -----------
// * Everything random comes from `PCG32`, seeded per scene exactly as scenes.md §2 says, and the
//   draws happen in the documented order with the documented `Double` operation order, so every
//   number here equals the reference implementation's (bench.py) bit for bit.
// * A scene is built once (`init()`): parameters, `Path`s, `Paint`s, transforms and images.
//   `render(frame:into:)` only clears the canvas to opaque white and issues draw calls, as the
//   anchor harness's timed loop does.
// * Shared geometry (§3): circles and rounded-rect corners are cubic quarter circles with the
//   control distance `kappa · r`; quadratic segments stay quadratic (Raster has `quad`).
