import Foundation
import Testing
@testable import QuartzCore

/// `_ThreadStack`, which drawing and hit testing ask how deep they may recurse, measures the
/// calling thread's own stack: on a thread made with a 4 MiB stack (`Thread.stackSize`), what is
/// left near its top is at least the 3 MiB below it and at most four times the size asked for
/// (glibc may hand a new thread a cached stack up to four times larger, allocatestack.c), less
/// a hundred calls deeper, and as many 16 KiB levels fit. A Swift local's address would not do:
/// under AddressSanitizer's use-after-return checks (on by default on Linux) a local lives in a
/// frame on the heap, which made the stack look used up, so damage tracking stopped
/// (`AnimatedDamageTests` failed in an ASan run).
struct ThreadStackTests {
    /// What is left `depth` calls below the caller.
    @inline(never)
    static func left(below depth: Int) -> Int? {
        guard depth > 0 else { return _ThreadStack.bytesLeft }
        let below = left(below: depth - 1)
        return below
    }

    @Test func whatIsLeftLiesWithinTheThreadsStack() throws {
        let size = 4 << 20
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var measured: (Int?, Int?) = (nil, nil)
        nonisolated(unsafe) var levels = 0
        let worker = Thread {
            measured = (_ThreadStack.bytesLeft, Self.left(below: 100))
            levels = _ThreadStack.levels(of: 16 << 10, keeping: 0, atMost: .max)
            done.signal()
        }
        worker.stackSize = size
        worker.start()
        done.wait()
        let left = try #require(measured.0, "glibc says where a thread's stack ends")
        let deeper = try #require(measured.1)
        #expect(left > size - (1 << 20) && left <= 4 * size, "\(left) bytes left of \(size)")
        #expect(deeper < left && left - deeper < 1 << 20, "\(deeper) bytes left 100 calls deeper, \(left) above")
        #expect(abs(levels - left / (16 << 10)) <= 1, "\(levels) levels for \(left) bytes")
    }
}
