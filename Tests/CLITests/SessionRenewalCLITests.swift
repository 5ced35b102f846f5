import Foundation
import SPSim
import TestSupport
import Testing

/// Sessions that outlive the password: with `--stay-signed-in` the identity provider's own session is kept (commented
/// out in the cookie file, so curl never sends it), and a renewal after SharePoint's cookies ended replays the sign-in
/// through it with no password source at all; once the identity provider ended it, the renewal needs the password.
/// Processes renewing one profile at once sign in once (counted on the simulator's side).
@Suite struct SessionRenewalCLITests {
    static func login(_ fixture: CLIFixture, _ extra: [String] = []) async throws {
        let login = try await fixture.run(
            ["login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin", "--allow-http-loopback"]
                + extra, stdin: alicePassword + "\n")
        #expect(login.status == 0, "login failed: \(login.stderr)")
    }

    @Test func aRenewalThroughTheIdentityProvidersSessionNeedsNoPassword() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.login(fixture, ["--stay-signed-in"])
        let file = try String(contentsOfFile: fixture.state + "/spconnect/sessions/default.cookies", encoding: .utf8)
        // Kept, and only as comments: `curl -b` on the site (or anywhere) never sends the identity provider's cookie.
        let providerLines = file.split(separator: "\n").filter { $0.contains("ESTSAUTHPERSISTENT") }
        #expect(!providerLines.isEmpty && providerLines.allSatisfy { $0.hasPrefix("#spconnect-idp ") }, "\(file)")
        let status = try await fixture.run(["status"])
        #expect(status.stdout.contains("identity-provider session until"), "\(status.stdout)")
        #expect(status.stdout.contains("renews without a password"), "\(status.stdout)")

        fixture.sim.expireSessions()
        // No SPCONNECT_PASSWORD, no terminal: only the identity provider's session can renew it.
        let whoami = try await fixture.run(["whoami"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("Alice Example"), "\(whoami.stdout)")
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 1, "the renewal posted the password")
        let record = try await fixture.run(["status"])
        #expect(record.stdout.contains("identity-provider session"), "\(record.stdout)")
    }

    @Test func onceTheIdentityProviderEndedItsSessionTheRenewalNeedsThePassword() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.login(fixture, ["--stay-signed-in"])
        fixture.sim.revokeIdentityProviderSessions()
        fixture.sim.expireSessions()
        let without = try await fixture.run(["whoami"])
        #expect(without.status == 11, "\(without.stdout)\(without.stderr)")
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 1)
        let with = try await fixture.run(["whoami"], extra: ["SPCONNECT_PASSWORD": alicePassword])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 2)
        #expect(!(with.stdout + with.stderr).contains(alicePassword))
    }

    @Test func anExpiredIdentityProviderSessionNeedsThePasswordToo() async throws {
        var sessions = EntraSessionOptions()
        sessions.persistentLifetimeSeconds = 1
        let fixture = try await CLIFixture(signIn: false, entraSessions: sessions)
        try await Self.login(fixture, ["--stay-signed-in"])
        try await Task.sleep(for: .milliseconds(2_100))
        fixture.sim.expireSessions()
        let without = try await fixture.run(["whoami"])
        #expect(without.status == 11, "\(without.stdout)\(without.stderr)")
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 1)
    }

    /// `--password-command CMD` (as rclone and msmtp take one): the login runs it, the session keeps the command (never
    /// the password), and a renewal in a later process runs it again.
    @Test func aPasswordCommandSignsInAndRenews() async throws {
        let fixture = try await CLIFixture(signIn: false)
        let secretFile = fixture.state + "/vault"
        _ = FileManager.default.createFile(
            atPath: secretFile, contents: Data((alicePassword + "\n").utf8), attributes: [.posixPermissions: 0o600])
        let command = "cat '\(secretFile)'"
        let login = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-command", command,
                "--allow-http-loopback",
            ])
        #expect(login.status == 0, "\(login.stderr)")
        let file = try String(contentsOfFile: fixture.state + "/spconnect/sessions/default.cookies", encoding: .utf8)
        #expect(file.contains("passwordCommand") && !file.contains(alicePassword))
        fixture.sim.expireSessions()
        let whoami = try await fixture.run(["whoami"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 2)
        let failing = try await fixture.run(
            ["login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-command", "false"])
        #expect(failing.status == 2, "\(failing.stderr)")
        #expect(failing.stderr.contains("--password-command gave no password"), "\(failing.stderr)")
    }

    @Test func tenProcessesRenewingOneProfileAtOnceSignInOnce() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.login(fixture)
        fixture.sim.expireSessions()
        let environment = fixture.environment.merging(["SPCONNECT_PASSWORD": alicePassword]) { $1 }
        let results = try await withThrowingTaskGroup(of: RunResult.self) { group in
            for _ in 0..<10 {
                group.addTask { try await runSpconnect(["whoami"], environment: environment) }
            }
            var all: [RunResult] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map { $0.stderr })")
        // One for the login, one for all ten renewals.
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 2)
    }
}
