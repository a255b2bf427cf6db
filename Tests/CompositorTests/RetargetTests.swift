@testable import Compositor
import QuartzCore
@testable import Raster
import Testing

/// `CARenderer.retarget` / `releaseTarget`, what an exporter's workers do with the frame buffers
/// their pipeline hands round: a worker draws a frame into a buffer, releases it, and the buffer
/// may go to another worker before this one draws its next frame into another buffer. The
/// drawing buffers (scan-conversion cells, paint rows) move with the renderer; a renderer must
/// not read or write a buffer it has released, since another thread may be drawing into it
/// (two workers once wrote one buffer's drawing buffers at once, a SIGSEGV in
/// `ParallelEncodingTests.gifIsTheSameWhateverTheThreads`).
@Suite struct RetargetTests {
    static let (width, height) = (40, 30)

    /// A renderer of a filled ellipse (a fill: the scan-conversion buffers are made).
    static func renderer() throws -> CARenderer {
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: width, height: height)
        shape.path = CGPath(ellipseIn: CGRect(x: 4, y: 4, width: 30, height: 20), transform: nil)
        shape.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let renderer = try CARenderer(width: width, height: height)
        renderer.layer = shape
        renderer._reusesBitmapsAcrossFrames = false
        renderer._renderThreads = 1
        return renderer
    }

    static func draw(_ renderer: CARenderer, into target: Pixmap) {
        renderer.retarget(target)
        renderer.beginFrame(atTime: 0)
        renderer.render()
        renderer.endFrame()
    }

    @Test func aReleasedTargetIsNotTouchedByTheRendererThatReleasedIt() throws {
        let first = try Self.renderer(), second = try Self.renderer()
        let a = try Pixmap(width: Self.width, height: Self.height), b = try Pixmap(width: Self.width, height: Self.height)
        Self.draw(first, into: a)
        let firstBuffers = try #require(a.scratch.rasterizer)
        first.releaseTarget()
        #expect(a.scratch.rasterizer == nil && a.scratch.paint == nil)

        // `a` goes to the second renderer, which draws into it with its own buffers.
        Self.draw(second, into: a)
        let secondBuffers = try #require(a.scratch.rasterizer)
        #expect(secondBuffers !== firstBuffers)

        // The first renderer moves on to `b`: its buffers come from its keeping, `a` keeps the
        // second renderer's.
        Self.draw(first, into: b)
        #expect(b.scratch.rasterizer === firstBuffers)
        #expect(a.scratch.rasterizer === secondBuffers)
        #expect(a.pixel(x: 20, y: 15) == b.pixel(x: 20, y: 15))
        #expect(a.pixel(x: 20, y: 15).r == 255 && a.pixel(x: 1, y: 1).a == 0)
    }

    @Test func aRendererGivenBackTheTargetItReleasedKeepsItsBuffers() throws {
        let renderer = try Self.renderer()
        let a = try Pixmap(width: Self.width, height: Self.height)
        Self.draw(renderer, into: a)
        let buffers = try #require(a.scratch.rasterizer)
        renderer.releaseTarget()
        Self.draw(renderer, into: a)
        #expect(a.scratch.rasterizer === buffers)
    }
}
