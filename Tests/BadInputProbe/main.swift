// citrine-bad-input NAME — runs one bad-input case (Tests/BadInputCases) in this process and
// prints its outcome line; `--list` prints every case's name. The process limits itself first —
// address space (CITRINE_PROBE_MEMORY_MIB, default 3072) and CPU-independent wall time (the
// case's `seconds`, by SIGALRM) — so a case that traps, hangs or allocates without bound dies
// alone and the test that started it (ReliabilityTests) reports how.
import BadInputCases
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--list" {
    for c in BadInputCase.all { print(c.name) }
    exit(0)
}
guard arguments.count == 1, let name = arguments.first, let badCase = BadInputCase.named(name) else {
    FileHandle.standardError.write(Data("usage: citrine-bad-input NAME | --list\n".utf8))
    exit(2)
}
let mebibytes = ProcessInfo.processInfo.environment["CITRINE_PROBE_MEMORY_MIB"].flatMap { rlim_t($0) } ?? 3072
var limit = rlimit(rlim_cur: mebibytes << 20, rlim_max: mebibytes << 20)
setrlimit(Int32(RLIMIT_AS.rawValue), &limit)
// The time limit: SIGALRM's default action ends the process. A parent may hand down SIGALRM
// ignored or blocked (both survive exec), so both are reset first.
signal(SIGALRM, SIG_DFL)
var alarmOnly = sigset_t()
sigemptyset(&alarmOnly)
sigaddset(&alarmOnly, SIGALRM)
sigprocmask(SIG_UNBLOCK, &alarmOnly, nil)
alarm(UInt32(badCase.seconds))
print(badCase.outcome())
exit(0)
