import Testing
import Graphics2D

@Test func Graphics2DModuleLoads() {
    #expect(Bool(true))
}
