import Foundation
import SPSim
import TestSupport
import Testing

/// `spconnect status` says how an ended session would be renewed, from the session and the environment, and never
/// claims a renewal nothing could perform (docs/cli.md, `status`).
@Suite(.serialized) struct StatusRenewalCLITests {
    static func renewalLine(_ stdout: String) -> String {
        stdout.split(separator: "\n").first { $0.hasPrefix("renewal:") }.map(String.init) ?? ""
    }

    @Test func aBasicProfileWithoutAPasswordSourceIsSaidToFail() async throws {
        let fixture = try await CLIFixture(mode: .basic)
        let bare = try await fixture.run(["status"])
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(Self.renewalLine(bare.stdout).contains("none possible"), "\(bare.stdout)")
        #expect(Self.renewalLine(bare.stdout).contains("exit 11"), "\(bare.stdout)")
        // The claim holds: a command fails as said.
        #expect(try await fixture.run(["web"]).status == 11)

        let withPassword = try await fixture.run(["status"], extra: ["SPCONNECT_PASSWORD": alicePassword])
        #expect(Self.renewalLine(withPassword.stdout).contains("from SPCONNECT_PASSWORD"), "\(withPassword.stdout)")
        #expect(!withPassword.stdout.contains(alicePassword) && !withPassword.stderr.contains(alicePassword))
        #expect(try await fixture.run(["web"], extra: ["SPCONNECT_PASSWORD": alicePassword]).status == 0)
    }

    @Test func aCookieSessionNamesWhatWouldRenewIt() async throws {
        let fixture = try await CLIFixture()
        let bare = try await fixture.run(["status"])
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(Self.renewalLine(bare.stdout).contains("no password source is set"), "\(bare.stdout)")
        let command = try await fixture.run(
            ["status"], extra: ["SPCONNECT_PASSWORD_COMMAND": "pass show sharepoint/alice"])
        #expect(Self.renewalLine(command.stdout).contains("with the password from SPCONNECT_PASSWORD_COMMAND"))

        // A login's password command is named, never quoted (a command line can hold a secret of its own).
        let passwordCommand = "printf '%s\\n' '\(alicePassword)'"
        let withCommand = try await fixture.run([
            "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-command", passwordCommand,
            "--allow-http-loopback", "--profile", "command",
        ])
        #expect(withCommand.status == 0, "\(withCommand.stderr)")
        let named = try await fixture.run(["status", "--profile", "command"])
        #expect(Self.renewalLine(named.stdout).contains("from the login's password command"), "\(named.stdout)")
        #expect(!named.stdout.contains("printf") && !named.stdout.contains(alicePassword), "\(named.stdout)")

        // With the identity provider's session kept, a renewal goes through it first.
        let kept = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback", "--stay-signed-in", "--profile", "kept",
            ], stdin: alicePassword + "\n")
        #expect(kept.status == 0, "\(kept.stderr)")
        let status = try await fixture.run(["status", "--profile", "kept"])
        #expect(
            Self.renewalLine(status.stdout).hasPrefix("renewal:  silently through the identity provider's session"),
            "\(status.stdout)")
    }

    /// The status app renews as the CLI does: a session that kept the identity provider's own session is signed in
    /// again through it, with no password anywhere in the app's environment, where it answered "session-gone".
    @Test func theStatusAppRenewsThroughTheIdentityProvidersSessionWithoutAPassword() async throws {
        let fixture = try await CLIFixture(signIn: false)
        let kept = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback", "--stay-signed-in",
            ], stdin: alicePassword + "\n")
        #expect(kept.status == 0, "\(kept.stderr)")
        fixture.sim.expireSessions()
        var environment = fixture.environment
        environment["SPCONNECT_PASSWORD"] = nil
        let (body, _) = try await statusJSONFromServe(environment: environment)
        let text = String(decoding: body, as: UTF8.self)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "\(text)")
        #expect(!text.contains("session-gone"), "\(text)")
        let signIn = try #require(json["lastSignIn"] as? [String: Any], "\(text)")
        #expect(signIn["ok"] as? Bool == true, "\(signIn)")
        #expect(signIn["source"] as? String == "status app (identity-provider session)", "\(signIn)")
    }
}
