// soak: a year of nightly jobs against spsim in minutes (docs/soak.md).
//
//   soak [--nights N] [--seed S] [--spconnect PATH] [--work DIR] [--no-rclone]
//
// Each night the site changes (files added, edited, deleted, renamed and moved, Office files edited, a folder
// renamed now and then, list items added, edited and deleted) and the local folder that is uploaded changes too;
// the night's faults strike (spsim: session and identity-provider session ends, 429/503 bursts, a connection
// dropped mid-body, 500s, a change log truncated; the harness: SIGKILL mid-run, a full disk, a clock jump); the
// documented recipe runs as spconnect processes; a step that failed as documented runs again, as the next timer
// would; then the mirror, rclone's copy through the gateway, the uploaded folder and the list export are compared
// with the server. Exits 1 when anything was lost, duplicated or corrupted, or an exit code was not a documented one.
import CommandLineKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension OptionKey {
    static let nights = OptionKey(named: "nights")
    static let seed = OptionKey(named: "seed")
    static let spconnect = OptionKey(named: "spconnect")
    static let work = OptionKey(named: "work")
    static let noRclone = OptionKey(named: "no-rclone")
    static let help = OptionKey(named: "help")
}

let soakCommand = CommandDescription(
    name: "soak", summary: "A year of nightly jobs against spsim in minutes, every output checked (docs/soak.md).",
    synopsis: "[--nights N] [--seed S] [--spconnect PATH] [--work DIR] [--no-rclone]",
    options: [
        .integer(.nights, "N", in: 1...3650, "nights to run (default 30)"),
        .integer(.seed, "S", in: 0...Int.max, "the seed of every chance (default 2026)"),
        .path(.spconnect, "PATH", "the spconnect to run (default: the one beside this program)"),
        .path(.work, "DIR", "where the local folders, logs and night log go (default: a new temporary folder)"),
        .flag(.noRclone, "leave out rclone through the gateway"),
        .flag(.help, short: "h", "show this help"),
    ])

let arguments: ParsedArguments
do {
    arguments = try ParsedArguments(
        Array(CommandLine.arguments.dropFirst()), specs: soakCommand.options, program: "soak", command: "")
    if let word = arguments.positionals.first { throw UsageError(description: "unknown argument '\(word)'") }
} catch {
    FileHandle.standardError.write(Data("soak: \(error)\n".utf8))
    exit(2)
}
if arguments.has(.help) {
    print(soakCommand.help(program: "soak"))
    exit(0)
}
let nights = arguments.integer(.nights) ?? 30
let seed = UInt64(arguments.integer(.seed) ?? 2026)
let work = arguments.value(.work)
let useRclone = !arguments.has(.noRclone)
let built =
    arguments.value(.spconnect)
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/spconnect"
let folder = work ?? NSTemporaryDirectory() + "soak-\(getpid())"
try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
// The program under test is a copy: a build during a long soak must not change it between nights.
let spconnect = folder + "/bin/spconnect"
try? FileManager.default.removeItem(atPath: spconnect)
try FileManager.default.copyItem(atPath: built, toPath: spconnect)
let started = ContinuousClock.now
var status: Int32 = 1
do {
    let world = try await SoakWorld(spconnect: spconnect, work: folder)
    defer { world.stop() }
    let login = try await ChildRun.run(
        spconnect,
        ["login", "--site", world.sim.siteURL, "--user", SoakWorld.user, "--allow-http-loopback"],
        environment: world.environment, logs: folder + "/logs", label: "login")
    guard login.status == 0 else { throw SoakFailure("spconnect login failed: \(login.stderr)") }
    let gateway =
        useRclone && FileManager.default.isExecutableFile(atPath: "/usr/bin/rclone")
        ? try await SoakGateway.start(world) : nil
    defer { gateway?.stop() }
    let soak = Soak(world: world, nights: nights, seed: seed, rclone: gateway?.rcloneEnvironment)
    try await soak.run { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }
    print(soak.report.summary(nights: nights))
    if gateway == nil { print("rclone through the gateway: not run (--no-rclone, or /usr/bin/rclone missing)") }
    print(
        "wall time: \(ContinuousClock.now - started)"
            + (work == nil && soak.report.discrepancies.isEmpty ? "" : "; work folder: \(folder)"))
    status = soak.report.discrepancies.isEmpty ? 0 : 1
} catch {
    FileHandle.standardError.write(Data("soak: \(error)\n".utf8))
}
// After the `do` block: its `defer`s have stopped the gateway and the simulator. A temporary work folder of a clean
// run goes; one given with --work, or one with something to look at, stays.
if work == nil, status == 0 { try? FileManager.default.removeItem(atPath: folder) }
exit(status)
