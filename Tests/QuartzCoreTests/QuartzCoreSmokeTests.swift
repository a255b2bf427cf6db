import Testing
import QuartzCore

@Test func QuartzCoreModuleLoads() {
    #expect(Bool(true))
}
