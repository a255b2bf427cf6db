// AnchorScenes — test support: the anchor benchmark scenes of
// ../shared/bench/anchors/scenes.md (S1–S8) as data, plus a renderer per scene that draws them
// with Raster's public API. Used by the correctness tests (compared with Skia's PNGs) and by the
// benchmark package (timed against the anchor engines); S8 also as a CALayer tree
// (`S8LayerStorm.layerTree`, through QuartzCore).
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
// * Geometry is built in device space wherever a draw would otherwise carry a transform (S5,
//   S7, S8; S8's group layers in group space), and image patterns carry their full image →
//   device transform, so the draws pass `.identity` and the picture does not depend on how a
//   draw's transform composes with a pattern's. S8's border is stroked 2·s wide in device space,
//   which equals the 2-wide layer-space stroke because each layer's matrix is a similarity.
