import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect login --url` against real identity-provider software, not our simulator: SimpleSAMLphp as a SAML IdP
/// and a second SimpleSAMLphp as the service provider protecting a page, under Apache on 127.0.0.21/22 over https
/// (Tests/LiveIdP). The world is installed (apt, when missing), started once for this test run on a free port
/// and stopped by PID when the run ends. Skipped, saying why, only where it cannot be installed.
@Suite(
    .serialized, .enabled(if: LiveIdentityProvider.canRun, LiveIdentityProvider.cannotRunComment),
    LiveIdentityProvider.World())
struct LiveIdentityProviderTests {
    let world = LiveIdentityProvider.shared

    /// Every secret the runs typed; none may come back in any output.
    static let passwords = ["alice-pass-1", "wrong-pass-7", "nobody-pass-9", "broken-pass-3"]

    /// Runs `spconnect login --url PROTECTED` for `user` with `password` in a fresh state folder.
    func login(_ user: String, _ password: String, url: String? = nil, extra: [String] = []) async throws -> (
        RunResult, String
    ) {
        let state = try temporaryDirectory("live")
        let result = try await runSpconnect(
            [
                "login", "--url", url ?? world.protectedURL, "--user", user, "--password-stdin", "--cacert",
                world.caFile,
                "--trace", state + "/trace.jsonl", "--dump-pages", state + "/dumps",
            ] + extra, stdin: password + "\n", environment: ["XDG_STATE_HOME": state, "HOME": state])
        return (result, state)
    }

    /// The sign-in trace a `login` in `state` wrote.
    func traceText(_ state: String) -> String {
        (try? String(contentsOfFile: state + "/trace.jsonl", encoding: .utf8)) ?? ""
    }

    /// `url` as curl gets it with the session a `login` in `state` saved (`curl -b SESSIONFILE`).
    func curlWithSession(_ state: String, _ url: String) async throws -> String {
        try await runProgram(
            "/usr/bin/curl",
            ["-s", "--cacert", world.caFile, "-b", state + "/spconnect/sessions/default.cookies", url])
    }

    /// The texts of every file under `folder`.
    func texts(under folder: String) -> [(String, String)] {
        let paths = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
        return paths.compactMap { name in
            FileManager.default.contents(atPath: folder + "/" + name).map {
                (name, String(decoding: $0, as: UTF8.self))
            }
        }
    }

    func expectNoPassword(_ result: RunResult, state: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let places = [("stdout", result.stdout), ("stderr", result.stderr)] + texts(under: state)
        for (place, text) in places {
            for password in Self.passwords where text.contains(password) {
                Issue.record("\(place) holds a password", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func theRightPasswordSignsInAndCurlOpensTheProtectedPageWithTheSession() async throws {
        let (result, state) = try await login("alice", "alice-pass-1")
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(result.status == 0, "\(result.stderr)")
        expectNoPassword(result, state: state)
        // The IdP asks to release the attributes ("Yes, continue" / "No, cancel"): the one way on was taken.
        let trace = traceText(state)
        #expect(trace.contains("notice or consent page: continued with"), "\(trace)")
        let page = try await curlWithSession(state, world.protectedURL)
        #expect(page.contains("Hello, alice"), "curl -b with the saved session: \(page.prefix(200))")
        // Without the session the page sends curl to the identity provider.
        let anonymous = try await runProgram(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}",
                "--cacert", world.caFile, world.protectedURL,
            ])
        #expect(anonymous == "302")

        let environment = ["XDG_STATE_HOME": state, "HOME": state]
        let whoami = try await runSpconnect(["whoami", "--cacert", world.caFile], environment: environment)
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("\"user\": \"alice\""), "\(whoami.stdout)")
        let header = try await runSpconnect(["cookies", "--format", "header"], environment: environment)
        #expect(header.status == 0 && header.stdout.hasPrefix("Cookie: "), "\(header.stderr)")
        let viaHeader = try await runProgram(
            "/usr/bin/curl",
            ["-s", "--cacert", world.caFile, "-H", header.stdout.trimmingCharacters(in: .newlines), world.protectedURL])
        #expect(viaHeader.contains("Hello, alice"))
    }

    /// Behind SimpleSAMLphp's discovery service (two IdPs, neither on the service provider's host): the sign-in
    /// stops naming both, with the way to say which is the user's; told, it chooses that one and signs in.
    @Test func theDiscoveryServiceIsAnsweredWithTheProviderCredentialsMayGoTo() async throws {
        let (stopped, first) = try await login("alice", "alice-pass-1", url: world.discoURL)
        defer { try? FileManager.default.removeItem(atPath: first) }
        #expect(stopped.status == 4, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("a choice of identity provider"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("--allow-host 127.0.0.21:\(world.port)"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("elsewhere.liveidp.invalid"))
        expectNoPassword(stopped, state: first)

        let (result, state) = try await login(
            "alice", "alice-pass-1", url: world.discoURL, extra: ["--allow-host", "127.0.0.21:\(world.port)"])
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(result.status == 0, "\(result.stderr)")
        let trace = traceText(state)
        #expect(trace.contains("chose identity provider 'https://127.0.0.21:\(world.port)/"), "\(trace)")
        let page = try await curlWithSession(state, world.discoURL)
        #expect(page.contains("Hello, alice"), "\(page.prefix(200))")
        expectNoPassword(result, state: state)
    }

    @Test(arguments: [("alice", "wrong-pass-7"), ("nobody", "nobody-pass-9")])
    func aWrongPasswordOrUnknownUserIsRejectedWithTheIdentityProvidersWords(user: String, password: String)
        async throws
    {
        let (result, state) = try await login(user, password)
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("Incorrect username or password"), "\(result.stderr)")
        expectNoPassword(result, state: state)
    }

    /// With `--stay-signed-in` the IdP's session cookies are kept, commented out, in the session file; once the
    /// service provider's session is gone, `whoami` renews it through the IdP's session with no password source.
    @Test func stayingSignedInKeepsTheIdentityProvidersSessionAndRenewsWithoutAPassword() async throws {
        let (result, state) = try await login("alice", "alice-pass-1", extra: ["--stay-signed-in"])
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(result.status == 0, "\(result.stderr)")
        let path = state + "/spconnect/sessions/default.cookies"
        let file = try String(contentsOfFile: path, encoding: .utf8)
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let provider = lines.filter { $0.hasPrefix("#spconnect-idp ") }
        #expect(provider.contains { $0.contains("127.0.0.21\t") }, "\(file)")

        // The service provider's session is gone (its cookies dropped from the file): only the IdP's can renew it.
        let withoutSite = lines.filter { !$0.hasPrefix("127.0.0.22\t") && !$0.hasPrefix("#HttpOnly_127.0.0.22\t") }
        #expect(withoutSite.count < lines.count, "no service-provider cookie to drop: \(file)")
        try withoutSite.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let environment = ["XDG_STATE_HOME": state, "HOME": state]
        let whoami = try await runSpconnect(["whoami", "--cacert", world.caFile], environment: environment)
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("\"user\": \"alice\""), "\(whoami.stdout)")
        let status = try await runSpconnect(["status"], environment: environment)
        #expect(status.stdout.contains("renews without a password"), "\(status.stdout)")
        #expect(status.stdout.contains("identity-provider session"), "\(status.stdout)")
        expectNoPassword(result, state: state)
    }

    @Test func anIdentityProviderFailureAfterTheRightPasswordEndsAsItsOwnError() async throws {
        let (result, state) = try await login("broken", "broken-pass-3")
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("An unhandled exception was thrown"), "\(result.stderr)")
        #expect(result.stderr.contains("identity provider stopped"), "\(result.stderr)")
        expectNoPassword(result, state: state)
    }
}

/// Runs a program and returns its standard output (posix_spawn, as ``runSpconnect(_:stdin:environment:)``).
func runProgram(_ path: String, _ arguments: [String]) async throws -> String {
    let scratch = try temporaryDirectory("program")
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    _ = await spawnToExit(
        path, arguments, environment: ProcessInfo.processInfo.environment, standardOutput: scratch + "/out")
    return String(decoding: FileManager.default.contents(atPath: scratch + "/out") ?? Data(), as: UTF8.self)
}

/// The live world of Tests/LiveIdP for this test process: installed when missing, started when the suite starts
/// (on a port of its own), stopped by PID (the script's `stop`) when the suite ends.
final class LiveIdentityProvider: Sendable {
    static let shared = LiveIdentityProvider()

    let directory: String
    let port: Int
    var protectedURL: String { "https://127.0.0.22:\(port)/protected/" }
    /// The same page behind SimpleSAMLphp's discovery service (the service provider names no IdP).
    var discoURL: String { "https://127.0.0.22:\(port)/choose/" }
    var caFile: String { directory + "/ca.pem" }

    static let script: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("Tests/LiveIdP/liveidp.sh").path
    }()

    private init() {
        directory = NSTemporaryDirectory() + "spc-liveidp-" + UUID().uuidString
        port = 20_000 + Int(getpid() % 20_000)
    }

    /// Installed already, or installable here (apt-get, as root or with sudo). Starts nothing.
    static var canRun: Bool { isInstalled || canInstall }
    static var cannotRunComment: Comment {
        "SimpleSAMLphp and Apache are not installed and apt-get cannot be used here (run Tests/LiveIdP/liveidp.sh install)"
    }
    private static var isInstalled: Bool {
        FileManager.default.fileExists(atPath: "/usr/share/simplesamlphp/www/_include.php")
            && FileManager.default.isExecutableFile(atPath: "/usr/sbin/apache2")
    }
    /// Whether a world can be installed here: apt-get, as root or with sudo (every live world's test asks this).
    static var canInstall: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get")
            && (geteuid() == 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/sudo"))
    }

    /// Runs the suite inside the world: installs and starts it first, stops it after, whatever happened.
    struct World: SuiteTrait, TestScoping {
        var isRecursive: Bool { false }

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let world = LiveIdentityProvider.shared
            _ = try await LiveIdentityProvider.within(
                script: LiveIdentityProvider.script, directory: world.directory,
                installed: LiveIdentityProvider.isInstalled,
                environment: ["LIVEIDP_PORT": String(world.port)], performing: function)
        }
    }

    /// Runs `function` inside the world `script` (`liveidp.sh`, `lemonmellon.sh`) makes in `directory`: installs it
    /// first unless `installed`, starts it with `environment`, and stops it by its PID afterwards, whatever happened.
    /// Returns whether the stop succeeded (false: the world could not be started, recorded as an issue).
    static func within(
        script: String, directory: String, installed: Bool, environment: [String: String],
        performing function: @Sendable () async throws -> Void
    ) async throws -> Bool {
        let name = (script as NSString).lastPathComponent
        if !installed {
            let status = try await run([script, "install"])
            try #require(status == 0, "Tests/LiveIdP/\(name) install failed")
        }
        let started = try await run([script, "start", directory], environment: environment)
        let stop = [script, "stop", directory]
        guard started == 0 else {
            _ = try? await run(stop)
            Issue.record("Tests/LiveIdP/\(name) start failed (exit \(started)) with \(environment)")
            return false
        }
        do {
            try await function()
        } catch {
            _ = try? await run(stop)
            throw error
        }
        // Stopped by its PID (the script waits until Apache and what it started are gone).
        return try await run(stop) == 0
    }

    /// Runs a command with bash to its end and returns its exit status (``spawnToExit(_:_:environment:standardOutput:timeout:)``:
    /// posix_spawn and waitpid, since the script starts a daemon, Apache, that keeps inherited descriptors).
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Int32 {
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return await spawnToExit("/bin/bash", arguments, environment: merged)
    }
}
