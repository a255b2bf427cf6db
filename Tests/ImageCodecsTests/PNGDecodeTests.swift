import ImageCodecs
import Raster
import Testing

/// Decoding PNGs written by the independent test encoder (PNGTestEncoder.swift). Expected
/// pixels follow from the PNG specification: a sample v of depth d means v / (2^d − 1) of full
/// scale (§13.12), palette entries are RGB with alpha from tRNS (255 beyond it), and the result
/// is premultiplied with rounding to nearest.
struct PNGDecodeTests {
    struct Case: CustomStringConvertible, Sendable {
        var colorType: PNGTestImage.ColorType
        var bitDepth: Int
        var interlaced = false
        var filters: [UInt8] = [0]
        var description: String {
            "\(colorType) \(bitDepth)-bit\(interlaced ? " interlaced" : "") filters \(filters)"
        }
    }

    static let cases: [Case] = [
        Case(colorType: .gray, bitDepth: 1), Case(colorType: .gray, bitDepth: 2),
        Case(colorType: .gray, bitDepth: 4), Case(colorType: .gray, bitDepth: 8),
        Case(colorType: .gray, bitDepth: 16),
        Case(colorType: .grayAlpha, bitDepth: 8), Case(colorType: .grayAlpha, bitDepth: 16),
        Case(colorType: .rgb, bitDepth: 8), Case(colorType: .rgb, bitDepth: 16),
        Case(colorType: .rgba, bitDepth: 8), Case(colorType: .rgba, bitDepth: 16),
        Case(colorType: .palette, bitDepth: 1), Case(colorType: .palette, bitDepth: 2),
        Case(colorType: .palette, bitDepth: 4), Case(colorType: .palette, bitDepth: 8),
        Case(colorType: .rgba, bitDepth: 8, filters: [0, 1, 2, 3, 4]),
        Case(colorType: .rgb, bitDepth: 16, filters: [4, 3, 2, 1]),
        Case(colorType: .rgba, bitDepth: 8, interlaced: true),
        Case(colorType: .gray, bitDepth: 2, interlaced: true),
        Case(colorType: .palette, bitDepth: 4, interlaced: true, filters: [1, 4]),
        // Adam7 + 16 bits: the path around libpng issue #853.
        Case(colorType: .grayAlpha, bitDepth: 16, interlaced: true),
        Case(colorType: .rgba, bitDepth: 16, interlaced: true),
        Case(colorType: .rgb, bitDepth: 16, interlaced: true, filters: [2, 4]),
    ]

    /// A 13×11 image (odd sizes exercise bit packing and every Adam7 pass) with varied samples,
    /// including 0 and full scale; palette images get a tRNS covering part of the palette.
    static func image(for c: Case) -> PNGTestImage {
        let width = 13, height = 11
        let maxValue = (1 << c.bitDepth) - 1
        var image = PNGTestImage(width: width, height: height, colorType: c.colorType, bitDepth: c.bitDepth,
                                 samples: [], interlaced: c.interlaced, filters: c.filters)
        var samples: [UInt16] = []
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<image.channels {
                    let seed: Int = x * 37 + y * 71 + channel * 113 + 11
                    let v: Int = (seed * 2_654_435_761) >> 7
                    let edge: Int = y.isMultiple(of: 2) ? 0 : maxValue
                    samples.append(UInt16(x == 0 ? edge : v & maxValue))
                }
            }
        }
        image.samples = samples
        if c.colorType == .palette {
            let entries = 1 << c.bitDepth
            var palette: [UInt8] = []
            for i in 0..<entries {
                let r = i * 53 % 256, g = 255 - i * 29 % 256, b = i * 97 % 256
                palette += [UInt8(r), UInt8(g), UInt8(b)]
            }
            image.palette = palette
            image.transparency = (0..<(entries + 1) / 2).map { (i: Int) -> UInt8 in UInt8(i * 71 % 256) }
        }
        return image
    }

    /// The straight 8-bit RGBA the spec says pixel (x, y) stands for, as exact fractions of 255.
    static func expectedStraight(_ image: PNGTestImage, x: Int, y: Int) -> [Double] {
        let full = Double((1 << image.bitDepth) - 1)
        func level(_ channel: Int) -> Double { Double(image.sample(x: x, y: y, channel: channel)) * 255 / full }
        switch image.colorType {
        case .gray: return [level(0), level(0), level(0), 255]
        case .grayAlpha: return [level(0), level(0), level(0), level(1)]
        case .rgb: return [level(0), level(1), level(2), 255]
        case .rgba: return [level(0), level(1), level(2), level(3)]
        case .palette:
            let i = Int(image.sample(x: x, y: y, channel: 0))
            let alpha = i < image.transparency!.count ? Double(image.transparency![i]) : 255
            return [Double(image.palette[3 * i]), Double(image.palette[3 * i + 1]), Double(image.palette[3 * i + 2]), alpha]
        }
    }

    @Test(arguments: cases)
    func decodesEveryColourTypeAndDepth(_ c: Case) throws {
        let image = Self.image(for: c)
        let pixmap = try PNGCodec.decode(image.encoded())
        #expect(pixmap.width == image.width && pixmap.height == image.height)
        // 16-bit samples reach 8 bits through one rounding; allow ±1 there.
        let tolerance = c.bitDepth == 16 ? 1.0 : 0.5
        var worst = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let s = Self.expectedStraight(image, x: x, y: y)
                let alpha = s[3].rounded()
                let expected = [s[0] * alpha / 255, s[1] * alpha / 255, s[2] * alpha / 255, s[3]]
                let p = pixmap.pixel(x: x, y: y)
                let got = [Double(p.r), Double(p.g), Double(p.b), Double(p.a)]
                for k in 0..<4 { worst = max(worst, abs(got[k] - expected[k])) }
            }
        }
        #expect(worst <= tolerance, "largest channel error \(worst)")
    }

    @Test func fileOnDiskDecodesLikeMemory() throws {
        let bytes = Self.image(for: Case(colorType: .rgba, bitDepth: 8)).encoded()
        let path = try TemporaryFolder.make() + "/image.png"
        try TemporaryFolder.write(bytes, to: path)
        let fromFile = try PNGCodec.decode(contentsOf: path)
        let fromMemory = try PNGCodec.decode(bytes)
        #expect(fromFile.width == 13 && fromFile.height == 11)
        #expect((0..<13 * 11 * 4).allSatisfy { fromFile.pixels[$0] == fromMemory.pixels[$0] })
    }
}
