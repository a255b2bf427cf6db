import Testing
import UIKit

/// UIColor's components against Apple's documentation of each named colour ("a color object
/// whose RGB values are 1.0, 0.5 and 0.0", "grayscale value is 1/3", …).
struct UIColorTests {
    func rgba(_ c: UIColor) -> [CGFloat] {
        var r: CGFloat = -1, g: CGFloat = -1, b: CGFloat = -1, a: CGFloat = -1
        c.getRed(&r, green: &g, blue: &b, alpha: &a)
        return [r, g, b, a]
    }

    @Test func namedColoursHaveApplesComponents() {
        #expect(rgba(.red) == [1, 0, 0, 1])
        #expect(rgba(.green) == [0, 1, 0, 1])
        #expect(rgba(.blue) == [0, 0, 1, 1])
        #expect(rgba(.cyan) == [0, 1, 1, 1])
        #expect(rgba(.yellow) == [1, 1, 0, 1])
        #expect(rgba(.magenta) == [1, 0, 1, 1])
        #expect(rgba(.orange) == [1, 0.5, 0, 1])
        #expect(rgba(.purple) == [0.5, 0, 0.5, 1])
        #expect(rgba(.brown) == [0.6, 0.4, 0.2, 1])
        #expect(rgba(.clear)[3] == 0)
        func white(_ c: UIColor) -> [CGFloat]? {
            var w: CGFloat = -1, a: CGFloat = -1
            return c.getWhite(&w, alpha: &a) ? [w, a] : nil
        }
        let third: CGFloat = 1 / 3
        #expect(abs((white(.darkGray)?[0] ?? 0) - third) < 1e-15 && white(.darkGray)?[1] == 1)
        #expect(abs((white(.lightGray)?[0] ?? 0) - 2 * third) < 1e-15 && white(.lightGray)?[1] == 1)
        #expect(white(.gray) == [0.5, 1])
        #expect(white(.black) == [0, 1])
        #expect(white(.white) == [1, 1])
        #expect(white(.clear) == [0, 0])
        // RGB colours are not gray colours.
        #expect(white(.red) == nil)
    }

    @Test func initializersAndCGColor() {
        let c = UIColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8)
        #expect(c.cgColor.components == [0.2, 0.4, 0.6, 0.8])
        #expect(UIColor(white: 0.25, alpha: 0.5).cgColor.components == [0.25, 0.5])
        #expect(UIColor(cgColor: c.cgColor) == c)
        #expect(UIColor.red == UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        // Gray-space black is not RGB black (as on iOS).
        #expect(UIColor.black != UIColor(red: 0, green: 0, blue: 0, alpha: 1))
    }

    @Test func withAlphaComponentKeepsTheColour() {
        #expect(rgba(UIColor.orange.withAlphaComponent(0.3)) == [1, 0.5, 0, 0.3])
        #expect(UIColor.white.withAlphaComponent(0.5).cgColor.components == [1, 0.5])
    }

    @Test func hueSaturationBrightness() {
        // HSB → RGB: hue 0 is red, 1/3 green, 2/3 blue; brightness scales, saturation 0 is gray.
        func approx(_ a: [CGFloat], _ b: [CGFloat]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) < 1e-12 } }
        #expect(approx(rgba(UIColor(hue: 0, saturation: 1, brightness: 1, alpha: 1)), [1, 0, 0, 1]))
        #expect(approx(rgba(UIColor(hue: 1.0 / 3.0, saturation: 1, brightness: 1, alpha: 1)), [0, 1, 0, 1]))
        #expect(approx(rgba(UIColor(hue: 2.0 / 3.0, saturation: 1, brightness: 0.5, alpha: 1)), [0, 0, 0.5, 1]))
        #expect(approx(rgba(UIColor(hue: 0.7, saturation: 0, brightness: 0.4, alpha: 1)), [0.4, 0.4, 0.4, 1]))
        var h: CGFloat = 0, s: CGFloat = 0, v: CGFloat = 0, a: CGFloat = 0
        UIColor(red: 0, green: 0.5, blue: 1, alpha: 1).getHue(&h, saturation: &s, brightness: &v, alpha: &a)
        let hsba = [h, s, v, a]
        // (0, 0.5, 1): max blue, hue = (4 + (r − g)/Δ)/6 = (4 − 0.5)/6.
        #expect(approx(hsba, [3.5 / 6, 1, 1, 1]))
    }
}
