import Foundation
import QuartzCore
import Testing

/// CAFilter / CIFilter as iOS and macOS code create them,
/// the layer's filter properties, key paths into filter inputs and their animation.
extension MediaClockSuite {
    @Suite struct LayerFilterModelTests {
        static func blur(_ radius: Double, name: String = "blur") -> CAFilter {
            let f = CAFilter(type: kCAFilterGaussianBlur)
            f.name = name
            f.setValue(radius, forKey: kCAFilterInputRadius)
            return f
        }

        /// Apple's raw type strings (GNUstep's QuartzCore tests check them against Apple's
        /// library): "gaussianBlur", "colorMatrix", "multiplyBlendMode", "plusL", …; a filter's
        /// name starts as its type; it is enabled; unset inputs read as their defaults.
        @Test func typesNamesAndDefaults() {
            #expect(kCAFilterGaussianBlur == "gaussianBlur" && kCAFilterColorMatrix == "colorMatrix")
            #expect(kCAFilterMultiplyBlendMode == "multiplyBlendMode" && kCAFilterPlusL == "plusL" && kCAFilterDestOut == "destOut")
            let f = CAFilter(type: kCAFilterGaussianBlur)
            #expect(f.name == "gaussianBlur" && f.type == "gaussianBlur" && f.isEnabled)
            #expect(f.inputKeys == ["inputRadius"] && f.value(forKey: "inputRadius") as? Double == 10)
            #expect(CAFilter(name: "colorInvert").type == "colorInvert")
            #expect(CAFilter.filterTypes.contains("colorSaturate") && CAFilter.filterTypes.contains("overlayBlendMode"))
            let ci = CIFilter(name: "CIGaussianBlur")
            #expect(ci?.name == "CIGaussianBlur" && CIFilter(name: "gaussianBlur") == nil)
        }

        /// The names the compositor draws, exactly: Core Animation's types (the `kCAFilter…`
        /// constants' values, which GNUstep's tests check against Apple's library, and the four
        /// HSL blend modes), Core Image's names (Apple's Core Image documentation, "Composite
        /// Operations": `CI<Mode>BlendMode`, the `…Compositing` filters); each compositing name
        /// composites with the `CGBlendMode` of the same name.
        @Test func filterNameListsAndTheirBlendModes() {
            let blends: [(String, CGBlendMode)] = [
                ("normalBlendMode", .normal), ("multiplyBlendMode", .multiply), ("screenBlendMode", .screen),
                ("overlayBlendMode", .overlay), ("darkenBlendMode", .darken), ("lightenBlendMode", .lighten),
                ("colorDodgeBlendMode", .colorDodge), ("colorBurnBlendMode", .colorBurn), ("softLightBlendMode", .softLight),
                ("hardLightBlendMode", .hardLight), ("differenceBlendMode", .difference), ("exclusionBlendMode", .exclusion),
                ("hueBlendMode", .hue), ("saturationBlendMode", .saturation), ("colorBlendMode", .color),
                ("luminosityBlendMode", .luminosity), ("clear", .clear), ("copy", .copy), ("sourceOver", .normal),
                ("sourceIn", .sourceIn), ("sourceOut", .sourceOut), ("sourceAtop", .sourceAtop),
                ("destOver", .destinationOver), ("destIn", .destinationIn), ("destOut", .destinationOut),
                ("destAtop", .destinationAtop), ("xor", .xor), ("plusL", .plusLighter), ("plusD", .plusDarker),
            ]
            let ciBlends: [(String, CGBlendMode)] = [
                ("CIMultiplyBlendMode", .multiply), ("CIScreenBlendMode", .screen), ("CIOverlayBlendMode", .overlay),
                ("CIDarkenBlendMode", .darken), ("CILightenBlendMode", .lighten), ("CIColorDodgeBlendMode", .colorDodge),
                ("CIColorBurnBlendMode", .colorBurn), ("CISoftLightBlendMode", .softLight),
                ("CIHardLightBlendMode", .hardLight), ("CIDifferenceBlendMode", .difference),
                ("CIExclusionBlendMode", .exclusion), ("CIHueBlendMode", .hue), ("CISaturationBlendMode", .saturation),
                ("CIColorBlendMode", .color), ("CILuminosityBlendMode", .luminosity),
                ("CISourceOverCompositing", .normal), ("CISourceInCompositing", .sourceIn),
                ("CISourceOutCompositing", .sourceOut), ("CISourceAtopCompositing", .sourceAtop),
                ("CIMultiplyCompositing", .multiply), ("CIAdditionCompositing", .plusLighter),
            ]
            #expect(CAFilter.filterTypes == [
                "gaussianBlur", "colorMatrix", "vibrantColorMatrix", "colorSaturate", "colorMonochrome", "colorHueRotate",
                "colorBrightness", "colorContrast", "colorInvert", "multiplyColor",
            ] + blends.map(\.0))
            let ciOthers = ["CIGaussianBlur", "CIColorMatrix", "CIColorControls", "CIColorInvert", "CIHueAdjust", "CIColorMonochrome"]
            #expect(CIFilter.filterNames(inCategory: nil) == (ciOthers + ciBlends.map(\.0)).sorted())
            let layer = CALayer()
            var wrong: [String] = []
            for (name, mode) in blends + ciBlends {
                layer.compositingFilter = name
                if layer._effects?.blendMode != (mode == .normal ? nil : mode) { wrong.append(name) }
            }
            #expect(wrong.isEmpty, "blend modes differ for \(wrong)")
        }

        /// Inputs as CAML files carry them (strings) and as Swift code passes them (any number
        /// type, NSNumber); the resolved effect is the same.
        @Test func inputsOfEveryNumberTypeAndStrings() {
            for value in [Any]([12.5, CGFloat(12.5), Float(12.5), NSNumber(value: 12.5), "12.5", " 12.5"]) {
                let f = CAFilter(type: kCAFilterGaussianBlur)
                f.setValue(value, forKey: kCAFilterInputRadius)
                #expect(f._effect == .blur(radius: 12.5), "\(value)")
            }
            let off = CAFilter(type: kCAFilterGaussianBlur)
            off.setValue("false", forKey: "enabled")
            #expect(!off.isEnabled && off._effect == nil)
            #expect(CIVector(string: "[1 0 0.5 0]").values == [1, 0, 0.5, 0] && CIVector(x: 1, y: 2).w == 0)
        }

        /// `filters`, `backgroundFilters` and `compositingFilter` default to nil, read back what
        /// was set (through their properties and key-value coding), and copies share them.
        @Test func layerPropertiesAndKeyValueCoding() {
            let l = CALayer()
            #expect(l.filters == nil && l.backgroundFilters == nil && l.compositingFilter == nil)
            let f = Self.blur(3)
            l.setValue([f], forKey: "filters")
            l.compositingFilter = "screenBlendMode"
            l.backgroundFilters = [CAFilter(type: kCAFilterColorInvert)]
            #expect((l.filters?.first as? CAFilter) === f)
            #expect(l.value(forKey: "compositingFilter") as? String == "screenBlendMode")
            #expect(l.value(forKeyPath: "filters.blur.inputRadius") as? CGFloat == 3)
            #expect(l.value(forKeyPath: "filters.blur") as? CAFilter === f)
            #expect(l.value(forKeyPath: "filters.noSuchFilter.inputRadius") == nil)
            let copy = CALayer(layer: l)
            #expect((copy.filters?.first as? CAFilter) === f && copy.compositingFilter as? String == "screenBlendMode")
            l.filters = nil
            l.compositingFilter = nil
            l.backgroundFilters = nil
            #expect(l.filters == nil && l.value(forKey: "filters") == nil)
        }

        /// `setValue(_:forKeyPath:)` on `filters.<name>.<input>` writes the filter's input (the
        /// way Apple requires inputs of an attached filter to change) and counts as a change.
        @Test func keyPathWritesTheInput() {
            CAMediaClock.setManualTime(0)
            let l = CALayer()
            let f = Self.blur(3)
            l.filters = [f]
            l.backgroundFilters = [Self.blur(1, name: "frost")]
            CATransaction.flush()
            let before = CATransaction._changeCount
            l.setValue(7, forKeyPath: "filters.blur.inputRadius")
            l.setValue(2, forKeyPath: "backgroundFilters.frost.inputRadius")
            #expect(f._effect == .blur(radius: 7))
            #expect(l.value(forKeyPath: "backgroundFilters.frost.inputRadius") as? CGFloat == 2)
            CATransaction.flush()
            #expect(CATransaction._changeCount != before)
        }

        /// A CABasicAnimation of `filters.blur.inputRadius` from 0 to 10 over 2 s: the presentation
        /// reads 5 at 1 s, the model's filter keeps 0 (the presentation has its own copy), and
        /// after the animation the presentation reads the model's value again.
        @Test func inputAnimatesOnThePresentationOnly() throws {
            CAMediaClock.setManualTime(0)
            let l = CALayer()
            let f = Self.blur(0)
            l.filters = [f]
            CATransaction.flush()
            let a = CABasicAnimation(keyPath: "filters.blur.inputRadius")
            a.fromValue = 0
            a.toValue = 10
            a.duration = 2
            l.add(a, forKey: "blur")
            CATransaction.flush()
            CAMediaClock.setManualTime(1)
            let p = try #require(l.presentation())
            #expect(abs((p.value(forKeyPath: "filters.blur.inputRadius") as? CGFloat ?? -1) - 5) < 1e-9)
            #expect(f.value(forKey: "inputRadius") as? Double == 0 && (p.filters?.first as? CAFilter) !== f)
            CAMediaClock.setManualTime(3)
            #expect(l.presentation()?.value(forKeyPath: "filters.blur.inputRadius") as? CGFloat == 0)
        }

        /// The compositing filter resolves to a blend mode from a string, a CAFilter or a CIFilter;
        /// a normal, unknown or non-filter value to none.
        @Test func compositingFilterNames() {
            let l = CALayer()
            let cases: [(Any?, CGBlendMode?)] = [
                ("multiplyBlendMode", .multiply), ("CIScreenBlendMode", .screen), ("plusL", .plusLighter),
                (CAFilter(type: kCAFilterOverlayBlendMode), .overlay), (CIFilter(name: "CIHueBlendMode"), .hue),
                ("sourceAtop", .sourceAtop), ("destOut", .destinationOut), ("CISourceInCompositing", .sourceIn),
                ("normalBlendMode", nil), ("noSuchMode", nil), (42, nil), (nil, nil),
            ]
            for (filter, mode) in cases {
                l.compositingFilter = filter
                #expect(l._effects?.blendMode == mode, "\(String(describing: filter))")
            }
        }
    }
}
