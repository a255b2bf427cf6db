// Lottie — Bodymovin (Lottie) JSON imported onto QuartzCore: a CALayer tree with keyframe
// CAAnimations, built once, the way lottie-ios's Core Animation rendering engine does it. It is
// an importer, never a second renderer: Core Animation (Citrine's QuartzCore and Compositor)
// evaluates the animations at whatever time is asked, so frames are sampled at any rate.
//
// Files:
//   JSONParser            RFC 8259 text → JSONValue (plain Swift values), nesting bounded as it descends
//   JSONNode              typed, path-naming reads of the parsed JSON; the size/nesting checks
//   LottieModel(+Parsing) the document as Sendable values in the file's units; unsupported
//                         features recorded once each (`Notes`)
//   BezierShape+Primitives rectangles, ellipses, stars and polygons as Bézier paths (start
//                         point and direction as lottie-web draws them), rounded corners, and
//                         properties combined into one path (sampled per frame when non-linear)
//   KeyframedValue+CoreAnimation keyframes → CAKeyframeAnimation (keyTimes, timing functions
//                         from the easing handles, holds, spatial tangents → path)
//   KeyframedValue+Evaluation values at any frame: for time-remapped precomps (Core Animation's
//                         layer time is affine) and properties sampled per frame
//   LayerImporter         layers → transform and content CALayers, parenting, in/out points,
//                         layer time (st, sr), precomps, images; +Masks: masks and track mattes;
//                         ShapeImporter: shape items → shape and gradient layers, repeater copies
//                         (+Repeater: repeater values → each copy's transform and opacity);
//                         +Effects: blur, fill and tint effects as layer filters, the stroke
//                         effect as shape layers; +Text: text
//                         layers from glyph outlines or an installed font
//   LottieModel+Effects, LottieModel+Text: the effects and the text documents, fonts and glyphs as read
//   LottieAnimation, LottieAnimationLayer, LottieAnimationView: lottie-ios's public API
//   LottieError           errors naming the JSON path; `LottieLimits`, the bounds on hostile files
//
// Done: top level (v, fr, ip, op, w, h, layers, precomp and image assets, fonts, chars); layer
// types precomp, solid, null, shape, image (embedded base64 or a file beside the animation),
// text (glyph outlines from `chars`, else CATextLayers in an installed font: font, size, fill
// colour, justification, tracking, line height, paragraph box; keyframed documents discrete);
// transforms (anchor, position combined or split, scale, rotation, opacity, skew, animated
// too); auto-orient (`rotationMode` `.rotateAuto` along the position's keyframe path; in a
// time-remapped precomp the rotation sampled with the tangent's angle); static
// and keyframed values with easing, holds, legacy `e` ends and spatial tangents; parenting;
// in/out points; layer start time and stretch (precomp timing); time remapping (`tm`, sampled
// once per frame of the precomp layer); masks (add, subtract, intersect, inverted, opacity,
// animated paths) and track mattes (alpha, luma, inverted) as mask layers (`LayerImporter`);
// shapes: group with transform, rectangle (rounded), ellipse, star and polygon (sampled per
// frame when animated), path (animated too), fill, stroke (caps, joins, miter, dashes with
// animated lengths and offset, trimmed before they are dashed), linear and radial gradient fill and stroke (animated stops and points,
// opacity stops) as a masked CAGradientLayer (a static rectangle: its bounds), trim paths (offsets wrapping past the end),
// rounded corners, repeaters (a layer per copy, placed as lottie-web places them, animated
// values sampled per frame), merge paths (CGPath boolean operations, animated ones run per
// frame, `ShapeImporter+MergePaths`); a style paints the paths of
// earlier groups too; effects: drop shadow (layer shadow, animated), Gaussian blur, fill and
// tint (layer filters, animated), stroke (the mask paths stroked by shape layers, over the layer
// or on transparent); playback with loop modes.
//
// Next (in this order): the stroke effect's "reveal original image" style (the strokes as the layer's mask); text animators
// (`t.a`: per-character transforms and colours, as one layer per glyph), text on a path,
// baseline shift, paragraph boxes drawn from glyphs wrapped, a text stroke in an installed font
// (CATextLayer draws none); one-direction Gaussian blur.
