import CoreGraphics
import CoreText
import QuartzCore
import Testing
import UIKit

extension SnippetSuite {
    /// Apple's module names: iOS files import UIKit, CoreGraphics, QuartzCore and CoreText, and
    /// libraries wrap their iOS code in `#if canImport(UIKit)`. This file imports all four next
    /// to Swift Testing, which needs the TestingOverlays product (`_Testing_UIKit`,
    /// `_Testing_CoreGraphics`) to build at all.
    @Suite struct ModuleNamesTests {
        @Test func canImportUIKitIsTrueForATargetThatDependsOnIt() {
            #if canImport(UIKit) && canImport(CoreGraphics) && canImport(QuartzCore) && canImport(CoreText)
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            #expect(view.layer.bounds.width == 10)
            #else
            Issue.record("a library's `#if canImport(UIKit)` branch would be compiled out")
            #endif
        }
    }
}
