import Testing
import UIKit

/// UIEdgeInsets, semantic colours, intrinsic sizes, string measuring and NSCoder strings,
/// against Apple's documentation (cited per test) and closed-form arithmetic.
struct EverydayUIKitTests {
    @Test func edgeInsetsInsetARectAsAppleDocuments() {
        // UIEdgeInsetsInsetRect: origin + (left, top), size − (left + right, top + bottom).
        let insets = UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        #expect(CGRect(x: 10, y: 20, width: 100, height: 50).inset(by: insets) == CGRect(x: 12, y: 21, width: 94, height: 46))
        #expect(CGRect(x: 0, y: 0, width: 10, height: 10).inset(by: .zero) == CGRect(x: 0, y: 0, width: 10, height: 10))
        // Negative insets grow the rectangle.
        #expect(CGRect(x: 0, y: 0, width: 10, height: 10).inset(by: UIEdgeInsets(top: -1, left: -1, bottom: -1, right: -1))
                == CGRect(x: -1, y: -1, width: 12, height: 12))
        #expect(UIEdgeInsets() == .zero && insets != .zero)
        #expect(NSDirectionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4).trailing == 4)
        #expect(NSDirectionalEdgeInsets.zero == NSDirectionalEdgeInsets())
    }

    /// The sRGB components of `color` × 255 and its alpha.
    func rgb255(_ color: UIColor) -> [CGFloat] {
        var r: CGFloat = 0, g: CGFloat = 0, b: CGFloat = 0, a: CGFloat = 0
        color.getRed(&r, green: &g, blue: &b, alpha: &a)
        return [(r * 255).rounded(), (g * 255).rounded(), (b * 255).rounded(), (a * 100).rounded() / 100]
    }

    @Test func systemColoursHaveTheHIGLightValues() {
        // Human Interface Guidelines, Color, system colours, iOS "Default (light)".
        #expect(rgb255(.systemRed) == [255, 59, 48, 1])
        #expect(rgb255(.systemOrange) == [255, 149, 0, 1])
        #expect(rgb255(.systemGreen) == [52, 199, 89, 1])
        #expect(rgb255(.systemBlue) == [0, 122, 255, 1])
        #expect(rgb255(.systemIndigo) == [88, 86, 214, 1])
        #expect(rgb255(.systemGray) == [142, 142, 147, 1])
        #expect(rgb255(.systemGray6) == [242, 242, 247, 1])
    }

    @Test func semanticColoursHaveTheirLightValues() {
        // UIKit's light resolutions on iOS 13 (e.g. secondaryLabel printed as
        // sRGB 0.235294 0.235294 0.262745 0.6).
        #expect(rgb255(.label) == [0, 0, 0, 1])
        #expect(rgb255(.secondaryLabel) == [60, 60, 67, 0.6])
        #expect(rgb255(.tertiaryLabel) == [60, 60, 67, 0.3])
        #expect(rgb255(.systemBackground) == [255, 255, 255, 1])
        #expect(rgb255(.secondarySystemBackground) == [242, 242, 247, 1])
        #expect(rgb255(.systemGroupedBackground) == [242, 242, 247, 1])
        #expect(rgb255(.separator) == [60, 60, 67, 0.29])
        #expect(rgb255(.systemFill) == [120, 120, 128, 0.2])
    }

    @Test func intrinsicSizeDefaultsAndSizeToFit() {
        // Apple: noIntrinsicMetric is -1, and a plain view has none in either dimension;
        // sizeThatFits returns the current size by default.
        #expect(UIView.noIntrinsicMetric == -1)
        let v = UIView(frame: CGRect(x: 10, y: 10, width: 30, height: 40))
        #expect(v.intrinsicContentSize == CGSize(width: -1, height: -1))
        #expect(v.sizeThatFits(CGSize(width: 500, height: 500)) == CGSize(width: 30, height: 40))
        v.sizeToFit()
        #expect(v.frame == CGRect(x: 10, y: 10, width: 30, height: 40))
        v.invalidateIntrinsicContentSize()   // no superview: nothing to do, no crash
    }

    @Test func labelSizesToItsText() {
        let label = UILabel()
        #expect(label.intrinsicContentSize == .zero)
        label.text = "Loading…"
        let text = ("Loading…" as NSString).size(withAttributes: [.font: label.font!])
        let expected = CGSize(width: text.width.rounded(.up), height: text.height.rounded(.up))
        #expect(label.intrinsicContentSize == expected)
        #expect(expected.width > 0 && expected.height >= label.font.pointSize)
        label.sizeToFit()
        #expect(label.bounds.size == expected)
    }

    @Test func buttonIntrinsicSizeIsItsTitle() {
        let button = UIButton(type: .system)
        button.setTitle("Retry", for: .normal)
        let title = button.titleLabel!.intrinsicContentSize
        #expect(button.intrinsicContentSize.width == title.width)
        #expect(button.intrinsicContentSize.height == UIFont.systemFont(ofSize: 15).lineHeight.rounded(.up) + 12)
        button.sizeToFit()
        #expect(button.bounds.size == button.intrinsicContentSize)
    }

    @Test func boundingRectWithLineFragmentOrigin() {
        let font = UIFont.systemFont(ofSize: 17)
        let one = ("Hello" as NSString).boundingRect(with: CGSize(width: 1000, height: 1000), options: .usesLineFragmentOrigin,
                                                       attributes: [.font: font], context: nil)
        #expect(one.origin == .zero)
        #expect(one.size == ("Hello" as NSString).size(withAttributes: [.font: font]))
        // Two paragraphs: the lines stack, twice one line's height.
        let two = "Hello\nHello".boundingRect(with: CGSize(width: 1000, height: 1000), options: .usesLineFragmentOrigin,
                                            attributes: [.font: font], context: nil)
        #expect(abs(two.height - 2 * one.height) < 1e-6 && abs(two.width - one.width) < 1e-6)
        // Wrapped to a narrow width: more lines, none wider than the width given.
        let long = NSAttributedString(string: "one two three four five six", attributes: [.font: font])
        let context = NSStringDrawingContext()
        let wrapped = long.boundingRect(with: CGSize(width: 60, height: CGFloat.greatestFiniteMagnitude),
                                        options: [.usesLineFragmentOrigin, .usesFontLeading], context: context)
        #expect(wrapped.width <= 60 && wrapped.height >= 2 * one.height)
        #expect(context.totalBounds == wrapped && context.actualScaleFactor == 1)
    }

    @Test func boundingRectWithoutLineFragmentOriginIsOneLineFromTheBaseline() {
        // Apple: without usesLineFragmentOrigin the origin is the baseline origin, one line.
        let font = UIFont.systemFont(ofSize: 20)
        let one = "Hi".boundingRect(with: .zero, options: [], attributes: [.font: font], context: nil)
        let two = "Hi\nthere".boundingRect(with: .zero, options: [], attributes: [.font: font], context: nil)
        #expect(one.origin == CGPoint(x: 0, y: -font.ascender))
        #expect(two.size == one.size)
    }

    @Test func coderGeometryStrings() {
        // Apple's forms: "{x, y}", "{w, h}", "{{x, y}, {w, h}}"; malformed strings give zero.
        #expect(NSCoder.cgPoint(for: "{1.5, -2}") == CGPoint(x: 1.5, y: -2))
        #expect(NSCoder.cgSize(for: "{3,4}") == CGSize(width: 3, height: 4))
        #expect(NSCoder.cgRect(for: "{{1, 2}, {3, 4}}") == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(NSCoder.cgPoint(for: "nonsense") == .zero)
        #expect(NSCoder.cgAffineTransform(for: "{}") == .identity)
        #expect(NSCoder.string(for: CGPoint(x: 1.5, y: 2)) == "{1.5, 2}")
        #expect(NSCoder.string(for: CGRect(x: 1, y: 2, width: 3, height: 4)) == "{{1, 2}, {3, 4}}")
        #expect(NSCoder.uiEdgeInsets(for: NSCoder.string(for: UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4)))
                == UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        #expect(CGPointFromString(NSStringFromCGPoint(CGPoint(x: -7, y: 0.25))) == CGPoint(x: -7, y: 0.25))
    }

    @Test func progressViewIsAFourPointRoundedTrack() {
        let p = UIProgressView(progressViewStyle: .default)
        #expect(p.progress == 0 && p.progressTintColor == nil && p.trackTintColor == nil)
        #expect(p.intrinsicContentSize == CGSize(width: UIView.noIntrinsicMetric, height: 4))
        p.frame = CGRect(x: 0, y: 0, width: 200, height: 4)
        p.layoutIfNeeded(); p.layoutSubviews()
        p.setProgress(0.25, animated: false)
        let track = p.layer.sublayers![0], bar = track.sublayers![0]
        #expect(track.frame == CGRect(x: 0, y: 0, width: 200, height: 4) && track.cornerRadius == 2)
        #expect(bar.frame == CGRect(x: 0, y: 0, width: 50, height: 4))
        p.progress = 7   // clamped, as on iOS
        #expect(p.progress == 1 && bar.frame.width == 200)
        p.progressTintColor = .systemGreen
        #expect(bar.backgroundColor == UIColor.systemGreen.cgColor)
    }
}

/// The system font's weights and text styles, and views' margins and safe area, against
/// Apple's values.
struct SystemFontAndMarginTests {
    @Test func weightsHaveIOSRawValues() {
        // UIFontWeightUltraLight … UIFontWeightBlack as printed on iOS and published
        // (blog.csdn.net/qq_18683985/article/details/89714178: e.g. 0.23000000417232513 for
        // Medium, a Float value widened).
        let expected: [(UIFont.Weight, Float)] = [(.ultraLight, -0.8), (.thin, -0.6), (.light, -0.4), (.regular, 0),
                                                  (.medium, 0.23), (.semibold, 0.3), (.bold, 0.4), (.heavy, 0.56), (.black, 0.62)]
        for (weight, value) in expected { #expect(Float(weight.rawValue) == value) }
        #expect(UIFont.Weight.light < .regular && UIFont.Weight.heavy < .black)
    }

    @Test func weightedSystemFontsNameTheirWeight() {
        #expect(UIFont.systemFont(ofSize: 12, weight: .semibold).fontName == ".SFUI-Semibold")
        #expect(UIFont.systemFont(ofSize: 12, weight: .regular).fontName == ".SFUI-Regular")
        #expect(UIFont.systemFont(ofSize: 12, weight: UIFont.Weight(0.45)).fontName == ".SFUI-Bold")
        #expect(UIFont.systemFont(ofSize: 12, weight: UIFont.Weight(.nan)).fontName == ".SFUI-Regular")
        #expect(UIFont.monospacedDigitSystemFont(ofSize: 9, weight: .bold) == UIFont.systemFont(ofSize: 9, weight: .bold))
        #expect(UIFont.monospacedSystemFont(ofSize: 9, weight: .regular).pointSize == 9)
    }

    @Test func textStylesHaveTheHIGLargeSizes() {
        // Human Interface Guidelines, Typography, iOS Dynamic Type sizes at "Large" (default);
        // the same sizes and names read off iOS at iosfontsizes.com.
        let sizes: [(UIFont.TextStyle, CGFloat)] = [(.largeTitle, 34), (.title1, 28), (.title2, 22), (.title3, 20),
                                                    (.headline, 17), (.body, 17), (.callout, 16), (.subheadline, 15),
                                                    (.footnote, 13), (.caption1, 12), (.caption2, 11)]
        for (style, points) in sizes { #expect(UIFont.preferredFont(forTextStyle: style).pointSize == points) }
        #expect(UIFont.preferredFont(forTextStyle: .headline).fontName == ".SFUI-Semibold")
        #expect(UIFont.TextStyle.body.rawValue == "UICTFontTextStyleBody")
    }

    @Test func marginsDefaultToEightAndSafeAreaIsEmpty() {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        #expect(view.layoutMargins == UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
        view.directionalLayoutMargins = NSDirectionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)
        #expect(view.layoutMargins == UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        #expect(view.safeAreaInsets == .zero && view.mask == nil)
    }
}
