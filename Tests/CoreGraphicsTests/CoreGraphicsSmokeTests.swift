import Testing
import CoreGraphics

@Test func CoreGraphicsModuleLoads() {
    #expect(Bool(true))
}
