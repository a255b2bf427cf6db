import Testing
import ImageCodecs

@Test func ImageCodecsModuleLoads() {
    #expect(Bool(true))
}
