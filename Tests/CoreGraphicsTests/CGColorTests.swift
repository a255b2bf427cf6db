import Testing
import CoreGraphics
import Raster

// Expected values: Apple's CGColor / CGColorSpace / CGBlendMode documentation and headers
// (CGContext.h raw values of kCGBlendMode…, CGImage.h of kCGImageAlpha…).

@Test func rgbAndGrayColors() {
    let red = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
    #expect(red.components == [1, 0, 0, 0.5])
    #expect(red.numberOfComponents == 4)
    #expect(red.alpha == 0.5)
    #expect(red.colorSpace?.model == .rgb)
    let gray = CGColor(gray: 0.25, alpha: 1)
    #expect(gray.components == [0.25, 1])
    #expect(gray.colorSpace?.model == .monochrome)
    #expect(gray.colorSpace?.numberOfComponents == 1)
    #expect(CGColor.black.components == [0, 1] && CGColor.white.components == [1, 1])
    #expect(CGColor.clear.alpha == 0)
}

@Test func copyWithAlphaKeepsColour() {
    let c = CGColor(srgbRed: 0.1, green: 0.2, blue: 0.3, alpha: 1).copy(alpha: 0.4)
    #expect(c?.components == [0.1, 0.2, 0.3, 0.4])
    #expect(CGColor.white.copy(alpha: 0)?.components == [1, 0])
    #expect(CGColor(red: 1, green: 1, blue: 1, alpha: 1) == CGColor(red: 1, green: 1, blue: 1, alpha: 1))
}

@Test func colorSpacesByName() {
    #expect(CGColorSpace(name: CGColorSpace.sRGB)?.numberOfComponents == 3)
    #expect(CGColorSpaceCreateDeviceGray().model == .monochrome)
    #expect(CGColorSpaceCreateDeviceRGB().model == .rgb)
    #expect(CGColorSpace(name: "kCGColorSpaceNoSuchSpace") == nil)
    let components: [CGFloat] = [0.2, 0.4, 0.6, 0.8]
    let c = CGColor(colorSpace: CGColorSpaceCreateDeviceRGB(), components: components)
    #expect(c?.components == components)
}

@Test func blendModeRawValuesMatchApple() {
    #expect(CGBlendMode.normal.rawValue == 0)
    #expect(CGBlendMode.luminosity.rawValue == 15)
    #expect(CGBlendMode.clear.rawValue == 16)
    #expect(CGBlendMode.copy.rawValue == 17)
    #expect(CGBlendMode.xor.rawValue == 25)
    #expect(CGBlendMode.plusDarker.rawValue == 26)
    #expect(CGBlendMode.plusLighter.rawValue == 27)
    #expect(CGBlendMode.allCases.count == 28)
    #expect(CGLineCap.square.rawValue == 2 && CGLineJoin.bevel.rawValue == 2)
    #expect(CGPathFillRule.evenOdd.rawValue == 1)
    #expect(CGInterpolationQuality.medium.rawValue == 4)
    #expect(CGPathDrawingMode.eoFillStroke.rawValue == 4)
    #expect(CGGradientDrawingOptions.drawsAfterEndLocation.rawValue == 2)
    #expect(CGImageAlphaInfo.premultipliedLast.rawValue == 1)
    #expect(CGBitmapInfo.byteOrder32Little.rawValue == 0x2000)
}

@Test func gradientLocations() {
    let colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(gray: 1, alpha: 1),
                  CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
    let even = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors as CFArray, locations: nil)
    #expect(even?.stops.map(\.offset) == [0, 0.5, 1])
    #expect(even?.stops[1].color.g == 1)  // gray 1 is white in sRGB
    let placed = CGGradient(colorsSpace: nil, colors: colors as CFArray, locations: [0.9, 0.1, 0.5])
    #expect(placed?.stops.map(\.offset) == [0.1, 0.5, 0.9])
    #expect(placed?.stops[0].color == Color(r: 1, g: 1, b: 1))  // white was at 0.1
    #expect(placed?.stops[2].color == Color(r: 1, g: 0, b: 0))  // red was at 0.9
    let components: [CGFloat] = [1, 0, 0, 1, 0, 0, 1, 0.5]
    let fromComponents = CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: components,
                                    locations: nil, count: 2)
    #expect(fromComponents?.stops.map(\.color.a) == [1, 0.5])
    #expect(CGGradient(colorsSpace: nil, colors: [] as CFArray, locations: nil) == nil)
    #expect(CGGradient(colorsSpace: nil, colors: ["not a colour"] as CFArray, locations: nil) == nil)
}
