// CoreText — `import CoreText` as on Apple: Core Text's lines and frames (`CTLine`,
// `CTFramesetter`, `CTFrame`, drawn into a `CGContext`), over Citrine's text layout and drawing.
//
// Design note
// -----------
// * As on Apple, Core Text sits below QuartzCore and UIKit: it depends on CoreGraphics (and
//   Raster, FreeType and fontconfig) only. It brings the Core Graphics subset along as Apple's
//   CoreText brings CoreGraphics (`CTFont`, `CGContext`, `CFAttributedString`, `CFRange`).
// * One piece of code lays text out for Core Text, `CATextLayer` and UIKit's string drawing:
//   `TextLayout` breaks and places lines, `TextRenderer` turns runs of an attributed string into
//   glyph outlines (FreeType, fonts found by name through fontconfig: `FontLibrary`). The
//   compositor draws a `CATextLayer` through `TextRenderer` (its runs from the layer's string and
//   font, its alignment and truncation mapped to `TextAlignment` / `TextTruncation`); UIKit's
//   `NSAttributedString.draw(at:)` / `draw(in:)` / `size()` go through `StringDrawing`. These are
//   `package`: Citrine's modules share them, they are not Apple API.
// * `CTFont`, `CGFont` and the attribute names (`kCTFontAttributeName`, …) are declared in
//   CoreGraphics, where `CATextLayer.font` and UIKit's `UIFont` can reach them too.
@_exported import CoreGraphics
