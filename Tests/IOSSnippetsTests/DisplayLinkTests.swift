import Foundation
import QuartzCore
import TestSupport
import Testing

extension SnippetSuite {
    /// Item 3: a display link added to a run loop delivers frames while that run loop runs, at
    /// 60 Hz frame boundaries of the media clock (here the system clock).
    @Suite struct DisplayLinkTests {
        final class Results: @unchecked Sendable {
            var frames: [(timestamp: CFTimeInterval, target: CFTimeInterval, duration: CFTimeInterval)] = []
            var pausedFrames = 0, stoppedFrames = 0
        }

        /// On a thread's own run loop: `RunLoop.current.run(until:)` delivers frames; paused and
        /// invalidated links deliver none.
        @Test func framesArriveWhileTheRunLoopRuns() throws {
            CAMediaClock.useSystemTime()
            let results = Results()
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let counter = FrameCounter()
                counter.start(on: .current)
                RunLoop.current.run(until: Date().addingTimeInterval(0.3))
                results.frames = counter.frames
                counter.pause()
                RunLoop.current.run(until: Date().addingTimeInterval(0.1))
                results.pausedFrames = counter.frames.count - results.frames.count
                counter.stop()
                RunLoop.current.run(until: Date().addingTimeInterval(0.1))
                results.stoppedFrames = counter.frames.count - results.frames.count
                done.signal()
            }
            thread.start()
            done.wait()
            // 0.3 s at 60 Hz is 18 frames; a loaded machine may skip some, never all.
            #expect(results.frames.count >= 3)
            #expect(results.pausedFrames == 0 && results.stoppedFrames == 0)
            let period = 1.0 / 60
            for f in results.frames {
                #expect(abs(f.target - f.timestamp - period) < 1e-9 && f.duration == period)
                // Timestamps are frame boundaries of the 60 Hz display.
                let boundaries = f.timestamp / period
                #expect(abs(boundaries - boundaries.rounded()) < 1e-6)
            }
            #expect(zip(results.frames, results.frames.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        }

        /// On the main run loop (serviced here by the test runner's main queue while this test
        /// awaits): frames, and the transaction's completion block and the delegate's
        /// `animationDidStop`, without any call to `flush()` or `presentation()`.
        @MainActor @Test func mainRunLoopDeliversFramesAndAnimationEvents() async throws {
            CAMediaClock.useSystemTime()
            let counter = FrameCounter()
            counter.start()
            let observer = FadeObserver(), layer = CALayer()
            observer.fadeOut(layer, duration: 0.05)
            try await Task.sleep(nanoseconds: 400_000_000)
            counter.stop()
            #expect(counter.frames.count >= 3)
            #expect(observer.stops == 1 && observer.completions == 1 && layer.animation(forKey: "fade") == nil)
        }

        /// Runs `citrine-runloop-probe` with `arguments` and reads its `key=value` report.
        static func probe(_ arguments: [String]) throws -> (status: Int32, values: [String: String]) {
            let process = Process()
            process.executableURL = try BuiltExecutable.named("citrine-runloop-probe")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            let values = Dictionary(text.split(whereSeparator: \.isWhitespace).compactMap { pair -> (String, String)? in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }, uniquingKeysWith: { $1 })
            return (process.terminationStatus, values)
        }

        /// The same with the main run loop run by hand, as iOS tools and tests do:
        /// `RunLoop.main.run(until:)` on the main thread (of a child process: this process's
        /// main thread belongs to the test runner) delivers a `.common`-mode display link's
        /// frames, the transaction's completion block, `animationDidStart` and `animationDidStop`,
        /// with no `flush()` or `presentation()` call — none of them inside the commit itself
        /// (Core Animation sends them from the run loop after the commit).
        @Test func runLoopRunUntilDeliversFramesAndAnimationEvents() throws {
            let (status, values) = try Self.probe([])
            #expect(status == 0)
            #expect(values["main"] == "true" && values["before"] == "000")
            // 0.4 s at 60 Hz is 24 frames; a loaded machine may skip some, never all.
            #expect((values["frames"].flatMap { Int($0) } ?? 0) >= 3 && values["increasing"] == "true")
            #expect(values["started"] == "1" && values["stopped"] == "1" && values["completed"] == "1")
        }

        /// And under `dispatchMain()` (the main queue serviced for ever; the probe exits from a
        /// main-queue block after 0.4 s).
        @Test func dispatchMainDeliversFramesAndAnimationEvents() throws {
            let (status, values) = try Self.probe(["dispatchMain"])
            #expect(status == 0)
            #expect(values["before"] == "000")
            #expect((values["frames"].flatMap { Int($0) } ?? 0) >= 3 && values["increasing"] == "true")
            #expect(values["started"] == "1" && values["stopped"] == "1" && values["completed"] == "1")
        }
    }
}
