// The cold-start benchmark (`bench --cold-start [BINARY]...`): `curl --version` against `spconnect --version` of
// each binary given (default: the release build beside the bench), interleaved round by round (so a change in the
// machine's load touches all alike), 40 rounds; reports each one's median and fastest wall time and the ratio of
// the medians to curl's. What it measures is the process start: the dynamic loader, the Swift runtime and
// Foundation, and the command table; `--version` reads no file and opens no connection.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Measures the starts and returns the report lines to print.
func coldStartReport(binaries: [String], rounds: Int = 40) throws -> [String] {
    let commands = [["/usr/bin/curl", "--version"]] + binaries.map { [$0, "--version"] }
    var times = Array(repeating: [Double](), count: commands.count)
    for _ in 0..<rounds {
        for (index, command) in commands.enumerated() {
            times[index].append(try startTime(command) * 1000)
        }
    }
    let medians = times.map { $0.sorted()[$0.count / 2] }
    var report = ["program                                                     median ms  fastest ms  median/curl"]
    for (index, command) in commands.enumerated() {
        let name = command.joined(separator: " ")
        let padded = name.count > 58 ? "…" + name.suffix(57) : name.padding(toLength: 58, withPad: " ", startingAt: 0)
        report.append(
            padded
                + String(
                    format: "  %9.1f  %10.1f  %11.2f", medians[index], times[index].min() ?? 0,
                    medians[index] / medians[0]))
    }
    return report
}

/// The wall time of one run of `command` (posix_spawn'd, its output to /dev/null, waited for with waitpid: the
/// Foundation `Process` of the other benchmarks adds tens of milliseconds of its own here).
private func startTime(_ command: [String]) throws -> Double {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    _ = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    _ = posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let start = ContinuousClock.now
    var pid: pid_t = 0
    guard posix_spawn(&pid, command[0], &actions, nil, argv, environ) == 0 else { fail("cannot start \(command[0])") }
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    guard status == 0 else { fail("\(command.joined(separator: " ")) exited with status \(status)") }
    return seconds
}
