import Foundation
import Testing
@testable import QuartzCore

/// `_ThreadStack`, which drawing and hit testing ask how deep they may recurse, measures the
/// calling thread's own stack: on a thread made with a 4 MiB stack (`Thread.stackSize`), what is
/// left near its top is more than 3 MiB and at most 4 MiB, and as many 16 KiB levels fit. A Swift
/// local's address would not do: under AddressSanitizer's use-after-return checks (on by default
/// on Linux) a local lives in a frame on the heap, which made the stack look used up, so damage
/// tracking stopped (`AnimatedDamageTests` failed in an ASan run).
struct ThreadStackTests {
    @Test func whatIsLeftLiesWithinTheThreadsStack() throws {
        let size = 4 << 20
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var measured: Int?
        nonisolated(unsafe) var levels = 0
        let worker = Thread {
            measured = _ThreadStack.bytesLeft
            levels = _ThreadStack.levels(of: 16 << 10, keeping: 0, atMost: .max)
            done.signal()
        }
        worker.stackSize = size
        worker.start()
        done.wait()
        let left = try #require(measured, "glibc says where a thread's stack ends")
        #expect(left > size - (1 << 20) && left <= size, "\(left) bytes left of \(size)")
        #expect(levels == left / (16 << 10))
    }
}
