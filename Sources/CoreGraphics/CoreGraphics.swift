// CoreGraphics — the Apple-named Core Graphics subset that Core Animation code uses, over Raster.
//
// Design note
// -----------
// Names, signatures, defaults and coordinate conventions are Apple's (`CGAffineTransform`,
// `CGPath`, `CGColor`, `CGImage`, `CGContext` …). CGFloat, CGPoint, CGSize and CGRect come from
// Foundation and are re-exported; only helpers Foundation lacks are added here. The module has
// Apple's name, so `import CoreGraphics` works; Swift Testing declares a cross-import overlay
// `_Testing_CoreGraphics` for it, which the `TestingOverlays` product supplies (README).
//
// Layering: geometry (`CGAffineTransform`, `CGPath`, `CGPathMeasure`) is pure maths; `CGPath`
// stores the pixel engine's `Path` directly (no conversion when drawing) plus the exact arcs
// behind arc/ellipse cubics, so arc lengths are exact. `CGContext` keeps Apple's graphics
// state and current path and talks to Raster only through `RasterBackend` (fill, coverage
// mask, stroke/dash outlines, blur).
//
// Coordinates: a `CGContext` is a Core Graphics bitmap context — default user space with the
// origin at the bottom-left and y up, device space = the pixmap (top-left, y down), so
// `baseTransform` is the flip (1, 0, 0, −1, 0, height). Paths are stored in device space as
// they are built; strokes are computed in the user space current at stroke time. Layer code
// that wants iOS's `draw(in:)` convention (top-left, y down) asks for
// `CGContext(pixmap:origin: .topLeft, scale:)`, whose CTM holds the flip as iOS's does.
//
// Project API beyond Apple's (each marked "project API" where declared): `CGPathMeasure`,
// `CGPath.length`, `CGPath.trimmed(from:to:)`, `CGPath.rasterPath`/`init(rasterPath:)`,
// `CGContext(pixmap:origin:scale:)`, `CGContext.pixmap`, `CGImage.pixmap`, and conversions to
// the Raster types. No codecs: `CGImage(contentsOfFile:)` is declared by UIKit, beside `UIImage`.
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
/// Core Foundation's attributed string in Core Text's signatures (`CTLineCreateWithAttributedString`):
/// `NSAttributedString` here, so `string as CFAttributedString` compiles unchanged.
public typealias CFAttributedString = NSAttributedString
/// Core Foundation's index type (Core Text's string ranges).
public typealias CFIndex = Int
/// A range of a string in UTF-16 units (Core Foundation's `CFRange`); length 0 with Core Text
/// means "to the end".
public struct CFRange: Equatable, Sendable {
    public var location: CFIndex
    public var length: CFIndex
    public init() { location = 0; length = 0 }
    public init(location: CFIndex, length: CFIndex) { self.location = location; self.length = length }
}
public func CFRangeMake(_ location: CFIndex, _ length: CFIndex) -> CFRange { CFRange(location: location, length: length) }
