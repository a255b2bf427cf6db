import Foundation
import Raster

/// The hand-over between the threads that render frames and the one that encodes them: frames
/// arrive in any order and leave in index order, and at most `capacity` frames are in flight
/// (rendered or being rendered but not yet taken), so memory stays flat however long the
/// animation (gifski's bounded ordered queue). Taken frames come back through `recycle` and are
/// reused, so a long export allocates `capacity + 1` frame buffers in all.
final class OrderedFrames: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Int: Pixmap] = [:]
    private var nextToTake = 0
    private let capacity: Int
    private var spare: [Pixmap] = []
    private var failure: (any Error)?
    private let width: Int, height: Int

    init(capacity: Int, width: Int, height: Int) {
        self.capacity = max(1, capacity)
        self.width = width
        self.height = height
    }

    /// Blocks until frame `index` may be rendered (fewer than `capacity` frames ahead of the
    /// consumer), then returns a buffer to render it into. Throws once the export has failed.
    func slot(for index: Int) throws -> Pixmap {
        condition.lock(); defer { condition.unlock() }
        while failure == nil && index >= nextToTake + capacity { condition.wait() }
        if let failure { throw failure }
        if let buffer = spare.popLast() { return buffer }
        return try Pixmap(width: width, height: height)
    }

    /// Hands frame `index` over.
    func put(_ index: Int, _ frame: Pixmap) {
        condition.lock(); defer { condition.unlock() }
        ready[index] = frame
        condition.broadcast()
    }

    /// Blocks until the next frame in order is there and returns it with its index.
    func take() throws -> (index: Int, frame: Pixmap) {
        condition.lock(); defer { condition.unlock() }
        while failure == nil && ready[nextToTake] == nil { condition.wait() }
        if let failure { throw failure }
        let index = nextToTake
        let frame = ready.removeValue(forKey: index)!
        nextToTake += 1
        condition.broadcast()
        return (index, frame)
    }

    /// Returns a taken frame's buffer for reuse.
    func recycle(_ frame: Pixmap) {
        condition.lock(); defer { condition.unlock() }
        spare.append(frame)
    }

    /// Stops every thread waiting here with `error` (the first failure wins).
    func fail(_ error: any Error) {
        condition.lock(); defer { condition.unlock() }
        if failure == nil { failure = error }
        ready = [:]
        condition.broadcast()
    }

    /// The failure, if any.
    var error: (any Error)? {
        condition.lock(); defer { condition.unlock() }
        return failure
    }
}
