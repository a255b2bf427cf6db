// Graphics2D — the Apple-named Core Graphics subset that Core Animation code uses, over Raster.
//
// Design note
// -----------
// Names, signatures, defaults and coordinate conventions are Apple's (`CGAffineTransform`,
// `CGPath`, `CGColor`, `CGImage`, `CGContext` …). CGFloat, CGPoint, CGSize and CGRect come from
// Foundation and are re-exported; only helpers Foundation lacks are added here. The module is
// deliberately *not* named CoreGraphics (Swift Testing's cross-import overlays would break).
@_exported import Foundation

/// Core Foundation's time interval type, which Apple's QuartzCore signatures use (seconds).
public typealias CFTimeInterval = Double
