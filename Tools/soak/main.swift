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
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

var nights = 30
var seed: UInt64 = 2026
var work: String?
var useRclone = true
var spconnect = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/spconnect"
var words = CommandLine.arguments.dropFirst().makeIterator()
while let word = words.next() {
    switch word {
    case "--nights": nights = words.next().flatMap(Int.init).flatMap { (1...3650).contains($0) ? $0 : nil } ?? -1
    case "--seed": seed = words.next().flatMap { UInt64($0) } ?? 2026
    case "--spconnect": spconnect = words.next() ?? spconnect
    case "--work": work = words.next()
    case "--no-rclone": useRclone = false
    default:
        FileHandle.standardError.write(Data("soak: unknown argument '\(word)' (see Tools/soak/main.swift)\n".utf8))
        exit(2)
    }
}
guard nights > 0 else {
    FileHandle.standardError.write(Data("soak: --nights takes a number from 1 to 3650\n".utf8))
    exit(2)
}
guard FileManager.default.isExecutableFile(atPath: spconnect) else {
    FileHandle.standardError.write(Data("soak: no spconnect at \(spconnect) (swift build --product spconnect)\n".utf8))
    exit(2)
}
let folder = work ?? NSTemporaryDirectory() + "soak-\(getpid())"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
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
    print("wall time: \(ContinuousClock.now - started); work folder: \(folder)")
    status = soak.report.discrepancies.isEmpty ? 0 : 1
} catch {
    FileHandle.standardError.write(Data("soak: \(error)\n".utf8))
}
// After the `do` block: its `defer`s have stopped the gateway and the simulator.
exit(status)
