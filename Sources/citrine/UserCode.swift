import Foundation

/// A user's own code — one `.swift` file, or a `.playground` folder (`Contents.swift` plus
/// `Sources/*.swift`, as Xcode writes it) — built into a library that `citrine` loads into its
/// own process (`UserProgram`), so the code's layers and views are Citrine's own classes.
///
/// Built with the installed Swift toolchain (`swiftc` on the PATH) against the modules of the
/// build `citrine` itself comes from (`<build>/Modules`, the C targets' module maps), in Swift 5
/// mode as Xcode's playgrounds compile, with the page's file as the program's main file (its
/// top-level code runs when the library's entry point is called) and Xcode's playground
/// auxiliary sources beside it in one module. Compiler messages name the user's own files and
/// lines (`#sourceLocation`).
///
/// Cached by content in `$XDG_CACHE_HOME/citrine/user-code` (default `~/.cache/citrine/…`): the
/// key covers the sources' names and bytes, `--view`, the `citrine` binary and the compiler, so
/// an unchanged file is not built again.
struct UserCode {
    /// The file or playground folder as the user named it.
    let path: String
    /// The page's code (the file, or the playground's `Contents.swift`).
    let mainFile: URL
    /// A playground's `Sources/*.swift`, in name order.
    let auxiliaryFiles: [URL]
    /// `--view NAME`: a top-level variable of the page to show when it sets no live view.
    let viewName: String?

    /// The user code `argument` names, or nil when it names no `.swift` file or `.playground`
    /// folder (then it is a demo's name).
    init?(argument: String, viewName: String?) throws(Failure) {
        let url = URL(fileURLWithPath: argument)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder)
        switch url.pathExtension {
        case "swift":
            guard exists, !isFolder.boolValue else { throw Failure(.badInput, "no Swift file at '\(argument)'") }
            mainFile = url
            auxiliaryFiles = []
        case "playground":
            guard exists, isFolder.boolValue else { throw Failure(.badInput, "no playground folder at '\(argument)'") }
            mainFile = url.appendingPathComponent("Contents.swift")
            guard FileManager.default.fileExists(atPath: mainFile.path) else {
                throw Failure(.badInput, "'\(argument)' has no Contents.swift: a playground folder holds its page's code there")
            }
            let sources = url.appendingPathComponent("Sources")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
            auxiliaryFiles = names.filter { $0.hasSuffix(".swift") }.sorted().map { sources.appendingPathComponent($0) }
        default:
            return nil
        }
        if let viewName, !Self.isIdentifier(viewName) {
            throw .badValue("--view", viewName, expected: "the name of a top-level variable of the page")
        }
        path = argument
        self.viewName = viewName
    }

    /// The built library: from the cache when the sources and the build are unchanged, else
    /// compiled now. A compile error prints the compiler's messages and throws.
    func library() throws(Failure) -> URL {
        let build = try BuildContext.current()
        let sources = [mainFile] + auxiliaryFiles
        var key = ContentKey()
        for file in sources {
            guard let bytes = FileManager.default.contents(atPath: file.path) else {
                throw Failure(.badInput, "cannot read '\(file.path)'")
            }
            key.add(file.path)
            key.add(bytes)
        }
        key.add(viewName ?? "")
        key.add(build.identity)
        let folder = Self.cacheFolder.appendingPathComponent(key.hex)
        let library = folder.appendingPathComponent("libUserCode.so")
        if FileManager.default.fileExists(atPath: library.path) { return library }
        try compile(into: folder, library: library, build: build)
        return library
    }

    /// Where built user code is kept.
    static var cacheFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("citrine/user-code")
    }

    private func compile(into folder: URL, library: URL, build: BuildContext) throws(Failure) {
        let fm = FileManager.default
        // Built in a fresh folder beside the cache entry, renamed into place when complete.
        let work = folder.deletingLastPathComponent().appendingPathComponent(".\(folder.lastPathComponent).\(getpid())")
        try? fm.removeItem(at: work)
        do {
            try fm.createDirectory(at: work, withIntermediateDirectories: true)
        } catch {
            throw Failure(.badInput, "cannot create the build cache folder '\(work.path)': \(error.localizedDescription)")
        }
        defer { try? fm.removeItem(at: work) }
        // The page is the module's main file, which Swift recognizes by its name: a file named
        // main.swift without --view is compiled where it is; any other is copied to one.
        let main = mainFile.lastPathComponent == "main.swift" && viewName == nil ? mainFile
            : work.appendingPathComponent("main.swift")
        let object = work.appendingPathComponent("UserCode.o")
        if main != mainFile {
            do {
                let page = try String(contentsOf: mainFile, encoding: .utf8)
                try Self.mainSource(page: page, path: mainFile.path, viewName: viewName).write(to: main, atomically: true, encoding: .utf8)
            } catch {
                throw Failure(.badInput, "cannot read '\(mainFile.path)' as UTF-8 text")
            }
        }
        // LLVM-style messages: "file:line:col: error: …" and the line itself, without the
        // Swift style's line-numbered excerpt, which would number the generated file's lines.
        let compileArguments = ["-c", "-wmo", "-swift-version", "5", "-module-name", "UserCode", "-Onone",
                                "-diagnostic-style", "llvm",
                                "-Xfrontend", "-entry-point-function-name", "-Xfrontend", UserProgram.entryPoint,
                                "-o", object.path, main.path] + auxiliaryFiles.map(\.path) + build.importArguments
        let named = viewName.map { " with --view \($0)" } ?? ""
        try Self.swiftc(compileArguments, failure: "\(path) does not compile\(named) (the compiler's messages are above)")
        try Self.swiftc(["-emit-library", object.path, "-o", work.appendingPathComponent(library.lastPathComponent).path],
                        failure: "\(path) compiled but did not link (the linker's messages are above)")
        try? fm.removeItem(at: folder)
        do {
            try fm.moveItem(at: work, to: folder)
        } catch {
            throw Failure(.badInput, "cannot store the build of \(path) in '\(folder.path)': \(error.localizedDescription)")
        }
    }

    /// The program's main file: the page's code as written (the compiler reports its own path and
    /// lines), then, with `--view`, lines that make the named variable the live view when the
    /// page set none.
    static func mainSource(page: String, path: String, viewName: String?) -> String {
        var text = "#sourceLocation(file: \(literal(path)), line: 1)\n" + page + "\n"
        if let viewName {
            text += "#sourceLocation(file: \(literal("citrine --view " + viewName)), line: 1)\n"
                + "import PlaygroundSupport\n"
                + "if PlaygroundPage.current.liveView == nil { PlaygroundPage.current.liveView = \(viewName) }\n"
        }
        return text + "#sourceLocation()\n"
    }

    /// Runs `swiftc` with `arguments`; its messages go to standard error as they come.
    private static func swiftc(_ arguments: [String], failure: String) throws(Failure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + arguments
        do {
            try process.run()
        } catch {
            throw Failure(.missingTool, "running user code needs the Swift toolchain's swiftc on the PATH: \(error.localizedDescription)")
        }
        process.waitUntilExit()
        if process.terminationReason == .exit, process.terminationStatus == 127 {
            throw Failure(.missingTool, "running user code needs the Swift toolchain's swiftc on the PATH, and there is none")
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { throw Failure(.badInput, failure) }
    }

    private static func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }
}

/// The build `citrine` comes from: the compiler arguments that import its modules, and an
/// identity that changes when it is rebuilt.
struct BuildContext {
    let importArguments: [String]
    let identity: String

    /// The context of the running `citrine`: its folder's `Modules` (SwiftPM's layout), the
    /// module maps of the package's C targets, and the C flags of the system libraries they wrap.
    static func current() throws(Failure) -> BuildContext {
        let folder = executable.deletingLastPathComponent()
        let modules = folder.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("UIKit.swiftmodule").path) else {
            throw Failure(.badInput, "running user code needs the modules citrine was built with, and '\(modules.path)' "
                          + "has no UIKit.swiftmodule: run citrine from its package (swift run citrine …)")
        }
        var arguments = ["-I", modules.path]
        let fm = FileManager.default
        // Module maps SwiftPM wrote for C targets, and those of system-library targets in the
        // package's sources.
        let generated = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".build") }
            .map { folder.appendingPathComponent($0).appendingPathComponent("module.modulemap") }
        let sources = packageRoot.appendingPathComponent("Sources")
        let declared = ((try? fm.contentsOfDirectory(atPath: sources.path)) ?? [])
            .map { sources.appendingPathComponent($0).appendingPathComponent("module.modulemap") }
        for map in (generated + declared).sorted(by: { $0.path < $1.path }) where fm.fileExists(atPath: map.path) {
            arguments += ["-Xcc", "-fmodule-map-file=" + map.path]
        }
        arguments += systemLibraryFlags().flatMap { ["-Xcc", $0] }
        let attributes = try? fm.attributesOfItem(atPath: executable.path)
        let stamp = [executable.path, "\(attributes?[.size] ?? 0)",
                     "\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"].joined(separator: "|")
        return BuildContext(importArguments: arguments, identity: stamp + "|" + arguments.joined(separator: " "))
    }

    /// The running `citrine` executable (the child that runs user code is another of it).
    static var executable: URL {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
    }

    /// The root of the package `citrine` was built from (this file is
    /// `Sources/citrine/UserCode.swift` of it).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `pkg-config --cflags` of the system libraries Citrine's C module maps include.
    private static func systemLibraryFlags() -> [String] {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--cflags", "freetype2", "fontconfig", "x11", "libpng", "zlib"]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [] }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
    }
}

/// A 64-bit FNV-1a digest of what a build depends on (a cache key, not a security measure).
struct ContentKey {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) { add(Data(text.utf8)) }

    mutating func add(_ data: Data) {
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        // A separator, so ("ab", "c") and ("a", "bc") differ.
        hash ^= 0xff
        hash = hash &* 0x0000_0100_0000_01b3
    }

    var hex: String { String(hash, radix: 16) }
}
