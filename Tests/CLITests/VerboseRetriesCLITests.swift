import Foundation
import SPSim
import TestSupport
import Testing

/// `--verbose` (`-v`) and `--retries N` against the simulator.
@Suite struct VerboseRetriesCLITests {
    @Test func verboseShowsEachRequestWithoutAnyCookieOrPasswordValue() async throws {
        let fixture = try await CLIFixture()
        let plain = try await fixture.run(["items", "Tasks", "-o", "json"])
        let verbose = try await fixture.run(["items", "Tasks", "-o", "json", "-v"])
        #expect(verbose.status == 0, "\(verbose.stderr)")
        #expect(verbose.stdout == plain.stdout, "results are the same; the trace goes to standard error")
        #expect(plain.stderr.isEmpty)
        #expect(verbose.stderr.contains("* GET \(fixture.sim.siteURL)/_api/web/lists/"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains(" -> HTTP 200 ("))
        #expect(
            verbose.stderr.contains("\n> Cookie: ") && verbose.stderr.contains(" FedAuth=<redacted>;"),
            "\(verbose.stderr)")
        let values = try await fixture.cookieValues()
        #expect(!values.isEmpty)
        for value in values { #expect(!verbose.stderr.contains(value), "a cookie value in the trace") }

        // A sign-in: every step shown, the form's field names but never the password or the new cookies.
        let login = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback", "--profile", "traced", "--verbose",
            ], stdin: alicePassword + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stderr.contains("* POST "), "\(login.stderr)")
        #expect(login.stderr.contains("(form fields: "))
        #expect(login.stderr.contains("< Set-Cookie: FedAuth=<redacted>"), "\(login.stderr)")
        #expect(!login.stderr.contains(alicePassword))
        for value in try await fixture.cookieValues(profiles: ["traced"]) {
            #expect(!login.stderr.contains(value), "a new cookie value in the sign-in trace")
        }
    }

    @Test func retriesAreCountedAndEachRetryIsShown() async throws {
        var options = SimulatorOptions(mode: .entra)
        options.faults = try FaultSpec(parsing: "status429=3,retryAfter=0")
        let sim = try Simulator(options)
        defer { sim.stop() }
        let state = try temporaryDirectory("retries")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state, "HOME": state]
        let url = sim.siteURL + "/_api/web"
        func requestLines(_ stderr: String) -> [String] {
            stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("* GET \(url) ->") }
        }

        let none = try await runSpconnect(
            ["api", "GET", url, "--anonymous", "--retries", "0", "-v"], environment: environment)
        #expect(none.status == 13, "the 429 is the answer: \(none.stderr)")
        #expect(requestLines(none.stderr).count == 1)
        #expect(requestLines(none.stderr).first?.contains("-> HTTP 429 (") == true, "\(none.stderr)")

        // Two 429s left: the second retry gets through.
        let two = try await runSpconnect(
            ["api", "GET", url, "--anonymous", "--retries", "2", "--verbose"], environment: environment)
        let lines = requestLines(two.stderr)
        #expect(lines.count == 3, "\(two.stderr)")
        #expect(lines.first?.contains("HTTP 429") == true)
        #expect(lines.dropFirst().first?.contains("HTTP 429 (retry 1,") == true, "\(lines)")
        #expect(lines.last?.contains("(retry 2,") == true && lines.last?.contains("HTTP 429") == false)
        #expect(sim.requestLog().filter { $0.path.hasSuffix("/_api/web") }.count == 4)

        let bad = try await runSpconnect(
            ["api", "GET", url, "--anonymous", "--retries", "many"], environment: environment)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'--retries' wants a whole number from 0 to 20"), "\(bad.stderr)")
    }

    /// `--retries N` counts refused connections too (it once allowed one more try whatever N said): a server that
    /// refuses the first three connections is reached with `--retries 3`, and `--retries 1` gives up after two.
    @Test(.childProcesses) func aServerThatRefusesItsFirstThreeConnectionsIsReachedWithThreeRetries() async throws {
        let site = try RawHTTPSite(listening: false) { _ in
            .bytes(RawHTTPSite.response(status: 200, contentType: "application/json", body: "{\"up\":true}"))
        }
        defer { site.stop() }
        let state = try temporaryDirectory("refused")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state, "HOME": state]
        let url = site.baseURL + "/health"
        @Sendable func refusals(_ stderr: String) -> Int {
            stderr.split(separator: "\n").filter { $0.hasPrefix("* GET \(url) -> failed: could not connect") }.count
        }
        // Each attempt's trace line comes before its back-off: the third refusal opens the port. On a busy machine
        // the watcher may see it only after the next attempt was refused too, so the budget has room for that; the
        // count is still bounded by --retries (and `--retries 1` below gives up after two).
        let three = try await runSpconnect(
            ["api", "GET", url, "--anonymous", "--retries", "6", "-v"], environment: environment,
            watchingStandardError: { if refusals($0) >= 3 { try? site.startListening() } })
        let refused = refusals(three.stderr)
        #expect(three.status == 0, "\(three.stderr)")
        #expect(three.stdout.contains("\"up\""), "\(three.stdout)")
        #expect((3...6).contains(refused), "\(three.stderr)")
        #expect(three.stderr.contains("* GET \(url) -> HTTP 200 (retry \(refused),"), "\(three.stderr)")
        #expect(three.stderr.components(separatedBy: "* retrying in ").count == refused + 1, "each retry announced")

        let down = try RefusingPort()
        let downURL = down.baseURL + "/health"
        let one = try await runSpconnect(
            ["api", "GET", downURL, "--anonymous", "--retries", "1", "-v"], environment: environment)
        #expect(one.status == 6, "\(one.stderr)")
        let tries = one.stderr.split(separator: "\n").filter { $0.hasPrefix("* GET \(downURL) -> failed:") }
        #expect(tries.count == 2, "the first try and one retry: \(one.stderr)")
        #expect(one.stderr.contains("could not connect to 127.0.0.1"), "\(one.stderr)")
        withExtendedLifetime(down) {}
    }
}

extension CLIFixture {
    /// Every cookie value the profiles hold, read with `cookies`, the one command that prints them: what no other
    /// output may show.
    func cookieValues(profiles: [String] = ["default"]) async throws -> [String] {
        var values: [String] = []
        for profile in profiles {
            let cookies = try await run(["cookies", "--profile", profile, "--format", "json"])
            let objects = try JSONSerialization.jsonObject(with: cookies.stdoutBytes) as? [[String: Any]] ?? []
            values += objects.compactMap { $0["value"] as? String }
        }
        return values
    }
}
