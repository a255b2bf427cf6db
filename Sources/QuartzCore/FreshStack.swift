#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// Citrine extension: a closure run to completion on a thread of its own with a stack of a chosen
/// size, as the caller (`_ThreadContext`: its transactions, its own media time), while the
/// caller waits — how a recursion deeper than one stack holds goes on (the renderer's
/// drawing, `_DeepRecursion`). A stack is address space mapped for the thread; only the pages
/// the work reaches are touched.
package enum _FreshStack {
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread with a stack of `bytes` and waits for it to finish: 0, or
    /// the error (`EAGAIN`, `EINVAL`…) that kept the thread from being made, `body` not run.
    package static func run(bytes: Int, _ body: () -> Void) -> Int32 {
        let context = _ThreadContext.current
        return withoutActuallyEscaping(body) { body in
            var attributes = pthread_attr_t()
            if case let error = pthread_attr_init(&attributes), error != 0 { return error }
            defer { pthread_attr_destroy(&attributes) }
            if case let error = pthread_attr_setstacksize(&attributes, bytes), error != 0 { return error }
            let job = Unmanaged.passRetained(Job { context.adopt(body) })
            var thread = pthread_t()
            let started = pthread_create(&thread, &attributes, { raw in
                Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, job.toOpaque())
            guard started == 0 else {
                job.release()
                return started
            }
            return pthread_join(thread, nil)
        }
    }
}

/// Citrine extension: one level of a recursion whose depth a caller decides (a view tree's
/// `hitTest(_:with:)`, each level an overridable call, as in Apple's rule), kept off the end of
/// any stack. The levels a thread runs take their allowance from what is left of its
/// stack, measured when its outermost level starts (`_ThreadStack`, less `reserve`); a level
/// that finds no room left runs, with the levels below it, on a fresh stack of
/// `freshStackBytes` (`_FreshStack`), where the allowance starts again. Stacks nest one per
/// `freshStackBytes` of levels, so the address space held grows with the depth reached, at a
/// few KiB a level — less than each level's own objects.
package enum _DeepRecursion {
    /// Stack bytes kept beyond the levels on each thread, for the work of the deepest level.
    package static let reserve = 64 << 10
    /// The stack of each fresh thread.
    package static let freshStackBytes = 64 << 20

    /// The calling thread's allowance: bytes its levels may still take, while a level runs.
    private final class Allowance {
        var bytes = 0
        var levels = 0

        private static let perThread = _ThreadLocal { Allowance() }

        /// The calling thread's allowance (made on first use, released when the thread ends).
        static var current: Allowance { perThread.current }
    }

    /// Runs `body`, one level of a recursion that takes up to `bytesPerLevel` of stack, on the
    /// calling thread while its stack has room, else on a fresh one; nil when no thread could
    /// be made (said once per process on standard error, naming `what` and the error).
    package static func level<R>(bytesPerLevel: Int, what: String, _ body: () -> R) -> R? {
        let allowance = Allowance.current
        if allowance.levels == 0 { allowance.bytes = (_ThreadStack.bytesLeft ?? 8 << 20) - reserve }
        guard allowance.bytes >= bytesPerLevel else { return onFreshStack(what: what, body) }
        allowance.bytes -= bytesPerLevel
        allowance.levels += 1
        defer {
            allowance.levels -= 1
            allowance.bytes += bytesPerLevel
        }
        return body()
    }

    private static func onFreshStack<R>(what: String, _ body: () -> R) -> R? {
        var result: R?
        let failure = _FreshStack.run(bytes: freshStackBytes) { result = body() }
        if failure != 0 {
            noThread.say("Citrine: no thread could be started to go on \(what) past the calling thread's stack (error "
                + "\(failure), \(String(cString: strerror(failure)))); the levels below are left out")
        }
        return result
    }

    private static let noThread = _OnceDiagnostic()
}
