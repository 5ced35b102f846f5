import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--password-command` and `--otp-command` are bounded: a command that prints more than 64 KiB, or runs longer
/// than `SPCONNECT_COMMAND_TIMEOUT`, is stopped (its whole process group killed) with a sentence that says which
/// limit it hit, well within the sign-in's 120 s, and nothing of its output is shown. Each run is itself limited
/// on the test's side, so a hang fails the test instead of stalling the suite.
@Suite struct HelperCommandCLITests {
    /// Requests a loopback site received (a password command runs before anything is sent).
    final class Requests: Sendable {
        let count = Mutex(0)
    }

    /// Runs spconnect, killed after `limit` (status -1 then); also how long it took.
    static func run(
        _ arguments: [String], environment: [String: String], limit: Duration = .seconds(100)
    ) async throws -> (RunResult, Duration) {
        let scratch = try temporaryDirectory("helper")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var env = environment
        env["PATH"] = "/usr/bin:/bin"
        let started = ContinuousClock.now
        let status = await spawnToExit(
            spconnectPath, arguments, environment: env, standardOutput: scratch + "/out",
            standardError: scratch + "/err", timeout: limit)
        let took = ContinuousClock.now - started
        let out = FileManager.default.contents(atPath: scratch + "/out") ?? Data()
        let err = FileManager.default.contents(atPath: scratch + "/err") ?? Data()
        return (
            RunResult(
                status: status, stdout: String(decoding: out, as: UTF8.self),
                stderr: String(decoding: err, as: UTF8.self), stdoutBytes: out), took
        )
    }

    /// The processes whose command line holds `marker` (left behind by a command that was not killed whole).
    static func processes(holding marker: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.filter { name in
            guard Int(name) != nil, let line = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else {
                return false
            }
            return String(decoding: line.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains(marker)
        }
    }

    func login(_ command: String, extra: [String: String] = [:]) async throws -> (RunResult, Duration, Int) {
        let requests = Requests()
        let site = try HTTPServer { _ in
            requests.count.withLock { $0 += 1 }
            return HTTPServerResponse(status: 500, contentType: "text/plain", text: "no")
        }
        defer { site.stop() }
        let state = try temporaryDirectory("helper-state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let (result, took) = try await Self.run(
            [
                "login", "--site", site.baseURL, "--user", "alice", "--password-command", command,
                "--allow-http-loopback",
            ], environment: ["XDG_STATE_HOME": state, "HOME": state].merging(extra) { $1 })
        return (result, took, requests.count.withLock { $0 })
    }

    @Test func aPasswordCommandPrinting64MBIsStoppedAtTheLimitWithoutDeadlock() async throws {
        let (result, took, requests) = try await login("yes helper-output-line | head -c 67108864")
        #expect(result.status == 2, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains("--password-command gave no password"), "\(result.stderr)")
        #expect(result.stderr.contains("more than 64 KiB"), "\(result.stderr)")
        #expect(took < .seconds(90), "took \(took): within the 120 s sign-in limit")
        #expect(requests == 0, "a request was sent")
        #expect(!(result.stdout + result.stderr).contains("helper-output-line"))
    }

    @Test func aPasswordCommandThatNeverExitsIsKilledWithItsChildrenAfterTheTimeout() async throws {
        let marker = "317.25"
        let (result, took, requests) = try await login(
            "sleep \(marker) & sleep \(marker); echo late-password", extra: ["SPCONNECT_COMMAND_TIMEOUT": "2"])
        #expect(result.status == 2, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains("ran longer than 2 s and was stopped"), "\(result.stderr)")
        #expect(result.stderr.contains("SPCONNECT_COMMAND_TIMEOUT"), "\(result.stderr)")
        #expect(took < .seconds(90), "took \(took): within the 120 s sign-in limit")
        #expect(requests == 0)
        #expect(!result.stderr.contains("sleep"), "the command is quoted: \(result.stderr)")
        // The group is killed: neither the shell's background child nor its foreground one is left.
        try await Task.sleep(for: .milliseconds(200))
        #expect(Self.processes(holding: "sleep " + marker).isEmpty, "left running")
    }

    @Test func anOneTimeCodeCommandThatNeverExitsIsStoppedWithinTheSignIn() async throws {
        let received = OneTimeCodeCLITests.Received()
        let (site, idp) = try OneTimeCodeCLITests.world(received)
        defer {
            site.stop()
            idp.stop()
        }
        let state = try temporaryDirectory("helper-otp")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let passwordFile = state + "/pw"
        _ = FileManager.default.createFile(
            atPath: passwordFile, contents: Data("pw-Ab12!\n".utf8), attributes: [.posixPermissions: 0o600])
        let (result, took) = try await Self.run(
            [
                "login", "--url", site.baseURL + "/", "--user", "alice", "--password-file", passwordFile,
                "--allow-http-loopback", "--otp-command", "sleep 318.25",
            ], environment: ["XDG_STATE_HOME": state, "HOME": state, "SPCONNECT_COMMAND_TIMEOUT": "2"])
        #expect(result.status == 4, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains("--otp-command gave no code"), "\(result.stderr)")
        #expect(result.stderr.contains("ran longer than 2 s"), "\(result.stderr)")
        #expect(took < .seconds(90), "took \(took): within the 120 s sign-in limit")
        #expect(received.codes.withLock { $0 }.isEmpty)
        try await Task.sleep(for: .milliseconds(200))
        #expect(Self.processes(holding: "sleep 318.25").isEmpty, "left running")
    }
}
