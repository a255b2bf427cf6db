// CoreText — `import CoreText` as on Apple: Core Text's lines and frames (`CTLine`,
// `CTFramesetter`, `CTFrame`, drawn into a `CGContext`) and fonts (`CTFont`).
//
// Design note
// -----------
// The functions live with the text layout that `CATextLayer` uses (Compositor's `TextLayout`
// and `TextRenderer`), so that Core Text, `CATextLayer` and the UI layer's string drawing lay
// text out with one piece of code; this module only gives them Apple's module name, and brings
// the Core Graphics subset along as Apple's CoreText brings CoreGraphics (`CTFont`, `CGContext`,
// `CFAttributedString`, `CFRange`).
@_exported import Compositor
@_exported import CoreGraphics
