import Testing
import Raster

@Test func RasterModuleLoads() {
    #expect(Bool(true))
}
