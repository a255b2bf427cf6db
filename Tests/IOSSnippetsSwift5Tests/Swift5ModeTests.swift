import Foundation
import QuartzCore
import Testing

/// The snippets (linked from Tests/IOSSnippetsTests/Snippets) compile in Swift 5 mode; this
/// checks that they also run there: a subclass's presentation copy is made through its
/// `init(layer:)`.
@Suite(.serialized) struct Swift5ModeTests {
    @Test func presentationCopyOfASubclassIsMadeThroughItsInitLayer() throws {
        CAMediaClock.setManualTime(0)
        let ring = Ring()
        ring.lineWidthFactor = 0.4
        CATransaction.flush()
        let copy = try #require(ring.presentation())
        #expect(copy !== ring && copy.lineWidthFactor == 0.4)
        CAMediaClock.useSystemTime()
    }
}
