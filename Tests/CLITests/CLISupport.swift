import Foundation
import SPSim
import TestSupport
import Testing

/// What one run of the built `spconnect` binary did.
struct RunResult {
    let status: Int32
    let stdout: String
    let stderr: String
    let stdoutBytes: Data
}

/// The `spconnect` executable SwiftPM built next to this test bundle (CLITests depends on it, so it is current).
let spconnectPath: String = {
    var candidates: [String] = []
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("spconnect").path)
    }
    candidates.append(
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("spconnect")
            .path)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    candidates.append(root.appendingPathComponent(".build/debug/spconnect").path)
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
}()

/// Runs `spconnect arguments` with `stdin` fed in, in an environment of only `environment` plus PATH; output goes
/// through files, so any amount of it is fine. Suspends, without blocking a thread, while spconnect runs.
/// With `watch`, standard error as written so far is handed to it every 20 ms while spconnect runs (to act on a
/// line the moment it appears, as a server that starts listening after the third refused connection does).
func runSpconnect(
    _ arguments: [String], stdin: String? = nil, environment: [String: String],
    watchingStandardError watch: (@Sendable (String) -> Void)? = nil, timeout: Duration? = nil
) async throws -> RunResult {
    let scratch = try temporaryDirectory("run")
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let outPath = scratch + "/out"
    let errPath = scratch + "/err"
    let inPath = scratch + "/in"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    _ = FileManager.default.createFile(atPath: inPath, contents: Data((stdin ?? "").utf8))
    var env = environment
    env["PATH"] = "/usr/bin:/bin"
    // posix_spawn, not Foundation's Process: Process.run crashes now and then in this toolchain when the test
    // process holds many descriptors (swift-corelibs-foundation #5472), which a full run with its simulators does.
    // On a thread of its own, not a task: a full run keeps the two-thread pool busy, and a watcher queued behind
    // that work once acted only after spconnect had used up all its retries (the starvation `BlockingAwaitTests`
    // shows for the gateway).
    let watcher = watch.map { watch in
        StandardErrorWatcher {
            watch(String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self))
        }
    }
    let status = await spawnToExit(
        spconnectPath, arguments, environment: env, standardInput: inPath, standardOutput: outPath,
        standardError: errPath, timeout: timeout)
    watcher?.stop()
    let out = FileManager.default.contents(atPath: outPath) ?? Data()
    let err = FileManager.default.contents(atPath: errPath) ?? Data()
    return RunResult(
        status: status, stdout: String(decoding: out, as: UTF8.self),
        stderr: String(decoding: err, as: UTF8.self), stdoutBytes: out)
}

/// Calls `look` every 20 ms on a thread of its own until ``stop()``, which returns once the thread has ended.
final class StandardErrorWatcher: @unchecked Sendable {
    private let stopped = NSLock()
    private var isStopped = false
    private let ended = DispatchSemaphore(value: 0)

    init(_ look: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in
            while !self.stopRequested {
                look()
                usleep(20_000)
            }
            self.ended.signal()
        }
    }

    private var stopRequested: Bool {
        stopped.lock()
        defer { stopped.unlock() }
        return isStopped
    }

    func stop() {
        stopped.lock()
        isStopped = true
        stopped.unlock()
        ended.wait()
    }
}

/// A simulator in this process, a private state directory, and (optionally) a signed-in default profile.
final class CLIFixture {
    let sim: Simulator
    let state: String
    let environment: [String: String]

    init(
        mode: SignInMode = .entra, items: Int = 0, signIn: Bool = true, users: [SimulatedUser] = .defaults,
        entraSessions: EntraSessionOptions = EntraSessionOptions(), exportFiles: Int = 0, latencyMilliseconds: Int = 0,
        faults: FaultSpec = FaultSpec(), siteCollections: [String] = [], searchRowLimit: Int = 500,
        restAffinityCookie: Bool = false, entraInterrupt: EntraInterrupt? = nil,
        resourceBudgets: ResourceBudgetModel? = nil
    ) async throws {
        var options = SimulatorOptions(mode: mode, users: users, items: items)
        options.resourceBudgets = resourceBudgets
        options.entraInterrupt = entraInterrupt
        options.restAffinityCookie = restAffinityCookie
        options.siteCollections = siteCollections
        options.searchRowLimit = searchRowLimit
        options.entraSessions = entraSessions
        options.exportFiles = exportFiles
        options.latencyMilliseconds = latencyMilliseconds
        options.faults = faults
        sim = try Simulator(options)
        state = try temporaryDirectory("state")
        environment = ["XDG_STATE_HOME": state, "HOME": state]
        if signIn {
            let login = try await run(
                [
                    "login", "--site", sim.siteURL, "--user", aliceEmail, "--password-stdin",
                    "--allow-http-loopback",
                ], stdin: alicePassword + "\n")
            #expect(login.status == 0, "login failed: \(login.stderr)")
        }
    }

    deinit {
        sim.stop()
        try? FileManager.default.removeItem(atPath: state)
    }

    /// Runs spconnect with this fixture's state directory (plus `extra` environment).
    func run(_ arguments: [String], stdin: String? = nil, extra: [String: String] = [:]) async throws -> RunResult {
        try await runSpconnect(arguments, stdin: stdin, environment: environment.merging(extra) { $1 })
    }

    /// Output with the simulator's variable parts (its URL and ports) replaced by fixed words.
    func normalised(_ text: String) -> String {
        text.replacingOccurrences(of: sim.siteURL, with: "http://SITE")
            .replacingOccurrences(of: sim.identityProviderURL, with: "http://IDP")
            .replacingOccurrences(of: sim.federationURL, with: "http://FEDERATION")
    }
}
