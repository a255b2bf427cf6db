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
/// Core Foundation's string type in Apple's signatures (colour space names, layer keys): a
/// Swift `String` here, since Linux Foundation has no toll-free bridged `CFString`.
public typealias CFString = String
/// Core Foundation's array type in Apple's signatures (`CGGradient(colorsSpace:colors:…)`):
/// `[Any]` here, so `colors as CFArray` compiles unchanged.
public typealias CFArray = [Any]
/// Core Foundation's dictionary type in Apple's signatures (`beginTransparencyLayer(auxiliaryInfo:)`).
public typealias CFDictionary = [AnyHashable: Any]
