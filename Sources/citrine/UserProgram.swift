import Dispatch
import Foundation
import PlaygroundSupport
import Scene
import UIKit

/// Runs user code (`UserCode`) and hands what its page shows to `render` and `play`.
///
/// The code runs in a child `citrine`: the parent builds the library (or finds it cached), then
/// runs the same command line again with the library's path in `CITRINE_USER_CODE_LIBRARY`; the
/// child loads it into its own process (the library's references to UIKit, QuartzCore … bind to
/// the child's own copies of those modules: `citrine` exports its symbols), calls its entry
/// point — the page's top-level code — and renders or plays `PlaygroundPage.current.liveView`.
/// A trap or crash in the child is reported by the parent as the user program stopping on that
/// signal (status 1), never as a crash of `citrine`; any other status is passed on.
///
/// Time: the child sets the media clock to 0 before the page's code runs, so animations the
/// code adds begin at media time 0 and `render`'s timeline starts there, the same frames on
/// every run; `play` then runs the page live from that moment.
enum UserProgram {
    /// The name the library's entry point (the page's top-level code) is compiled under.
    static let entryPoint = "citrine_user_main"
    /// How a parent hands its child the built library.
    static let libraryVariable = "CITRINE_USER_CODE_LIBRARY"

    /// What the page shows, ready for `render` or `play`.
    struct LiveView {
        /// The file's or folder's name.
        let name: String
        /// The page's live view as a scene (`makeScene(for:size:)`): a layer alone, or a view or
        /// view controller in a window of its size.
        let scene: any HostedScene
    }

    /// Runs the command line in a child with `code` built, and exits with the child's status.
    static func runInChild(_ code: UserCode) throws(Failure) -> Never {
        exit(try run(code, library: try code.library(), arguments: Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs `citrine arguments` in a child given `library` (`code` built), waits for it and
    /// returns its exit status: 128 + the signal's number when SIGINT, SIGTERM or SIGHUP stopped
    /// it. A trap or crash in the child throws, as the user program stopping on that signal.
    /// `standardOutput`: where the child's standard output goes (default: this process's).
    static func run(_ code: UserCode, library: URL, arguments: [String],
                    standardOutput: Pipe? = nil) throws(Failure) -> Int32 {
        let process = Process()
        process.executableURL = BuildContext.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[libraryVariable] = library.path
        // The Swift runtime's own crash report (threads, registers) says nothing to a user whose
        // code trapped: its "Fatal error: … at file:line" line does, and it stays.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        if let standardOutput { process.standardOutput = standardOutput }
        // Ctrl-C reaches the child from the terminal, which cancels its export cleanly; the
        // parent only waits for it. A SIGTERM or SIGHUP sent to the parent alone is passed on.
        _ = signal(SIGINT, SIG_IGN)
        do {
            try process.run()
        } catch {
            throw Failure(.badInput, "cannot start \(code.path)'s program: \(error.localizedDescription)")
        }
        let child = process.processIdentifier
        let forwarding = [SIGTERM, SIGHUP].map { number in
            _ = signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { kill(child, number) }
            source.resume()
            return source
        }
        process.waitUntilExit()
        forwarding.forEach { $0.cancel() }
        if process.terminationReason == .uncaughtSignal {
            let number = process.terminationStatus
            if [SIGINT, SIGTERM, SIGHUP].contains(number) { return 128 + number }
            throw Failure(.badInput, "\(code.path) stopped on signal \(signalName(number)): a trap or crash in the code it runs "
                          + "(its message, if any, is above)")
        }
        return process.terminationStatus
    }

    /// In a child: the library its parent built, if it was given one.
    static var handedLibrary: String? { ProcessInfo.processInfo.environment[libraryVariable] }

    /// Loads `library`, runs the page's top-level code at media time 0, and returns what the page
    /// shows. A page that shows nothing is an error naming both ways to show something.
    static func liveView(of code: UserCode, library: String) throws(Failure) -> LiveView {
        // Top-level `await` makes the page an asynchronous main, which drains the main queue for
        // ever and exits the process when its code ends: its live view would never be shown.
        // Such a library refers to the runtime's entry point for it by name.
        if let bytes = FileManager.default.contents(atPath: library),
           bytes.range(of: Data("swift_task_asyncMainDrainQueue".utf8)) != nil {
            throw Failure(.badInput, "\(code.path) uses await at its top level, which citrine cannot run as a page: "
                          + "show the live view from synchronous code and start asynchronous work in a Task { }")
        }
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            throw Failure(.badInput, "cannot load \(code.path)'s program: " + (dlerror().map { String(cString: $0) } ?? "unknown error"))
        }
        guard let symbol = dlsym(handle, entryPoint) else {
            throw Failure(.badInput, "\(code.path)'s program has no entry point '\(entryPoint)'")
        }
        typealias Entry = @convention(c) (Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
        CAMediaClock.setManualTime(0)
        _ = unsafeBitCast(symbol, to: Entry.self)(CommandLine.argc, CommandLine.unsafeArgv)
        CATransaction.flush()
        let name = URL(fileURLWithPath: code.path).lastPathComponent
        let shown: Any
        switch PlaygroundPage.current.liveView {
        case let layer as CALayer:
            shown = layer
        case let live?:
            switch live.playgroundLiveViewRepresentation {
            case let .view(view): shown = view
            case let .viewController(controller): shown = controller
            }
        case nil where PlaygroundPage.current.needsIndefiniteExecution:
            // Apple: the page keeps running after its top-level code — its timers, dispatched
            // blocks and display links — until it calls finishExecution() (which exits) or is
            // stopped; it shows no live view, so nothing is drawn.
            while true { _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05)) }
        case nil:
            throw Failure(.badInput, "\(code.path) shows nothing: set PlaygroundPage.current.liveView to a view, a view "
                          + "controller or a layer (import PlaygroundSupport), or name a top-level variable with --view NAME")
        }
        guard let scene = makeScene(for: shown, size: nil), scene.size.width >= 1, scene.size.height >= 1 else {
            throw Failure(.badInput, "\(code.path)'s live view has no size: give it a frame (or bounds) of at least 1×1 point")
        }
        return LiveView(name: name, scene: scene)
    }

    /// How long `render` plays a page by default: until its last animation ends, an animation
    /// that repeats for ever counted through one cycle (autoreversed: there and back); 1 s when
    /// nothing animates. Seconds of media time from 0.
    static func span(of root: CALayer) -> CFTimeInterval {
        var end: CFTimeInterval = 0
        var pending = [root], visited = 0
        while let layer = pending.popLast(), visited < 100_000 {
            visited += 1
            for key in layer.animationKeys() ?? [] {
                guard let animation = layer.animation(forKey: key) else { continue }
                let cycle = animation.duration * (animation.autoreverses ? 2 : 1)
                let repeats = animation.repeatDuration > 0 ? animation.repeatDuration / max(animation.duration, 1e-9)
                    : Double(max(animation.repeatCount, 1))
                let active = repeats.isFinite && repeats < 1e6 ? cycle * repeats : cycle
                let speed = animation.speed == 0 ? 1 : abs(Double(animation.speed))
                let finish = animation.beginTime + active / speed
                if finish.isFinite { end = max(end, finish) }
            }
            pending += layer.sublayers ?? []
        }
        return end > 0 ? min(end, 600) : 1
    }

    private static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV",
                                      SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL"]
        return names[number].map { "\($0) (\(number))" } ?? "\(number)"
    }
}
