import Foundation
import SPSim
import TestSupport
import Testing

/// Sites that sign in by HTTP authentication, and anonymous ones, as a job uses them: `--flow auto` answers the
/// site's Basic challenge by itself; a Basic session sends its credentials on every later request from the renewal
/// sources (and says how to give them when there are none); `--flow anonymous` needs no user.
@Suite struct HTTPAuthenticationCLITests {
    @Test func autoAnswersABasicChallengeAndLaterCommandsSendTheCredentials() async throws {
        let fixture = try await CLIFixture(mode: .basic, signIn: false)
        let login = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback",
            ],
            stdin: alicePassword + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("(basic)"), "\(login.stdout)")

        let without = try await fixture.run(["lists"])
        #expect(without.status == 11, "\(without.stdout)\(without.stderr)")
        #expect(without.stderr.contains("HTTP Basic on every request"), "\(without.stderr)")
        #expect(without.stderr.contains("SPCONNECT_PASSWORD_FILE"), "\(without.stderr)")

        let with = try await fixture.run(
            ["items", "Tasks", "--top", "3"], extra: ["SPCONNECT_PASSWORD": alicePassword])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stdout.contains("Plan the kickoff"), "\(with.stdout)")
        let api = try await fixture.run(
            ["api", "GET", "/_api/web?$select=Title"], extra: ["SPCONNECT_PASSWORD": alicePassword])
        #expect(api.status == 0 && api.stdout.contains("SPSim"), "\(api.stdout)\(api.stderr)")
        #expect(!(with.stdout + with.stderr + api.stdout + api.stderr).contains(alicePassword))
    }

    @Test func aWrongPasswordForABasicChallengeIsARejection() async throws {
        let fixture = try await CLIFixture(mode: .basic, signIn: false)
        let login = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin",
                "--allow-http-loopback",
            ],
            stdin: "wrong-password\n")
        #expect(login.status == 3, "\(login.stderr)")
        #expect(!login.stderr.contains("provider chooser"), "\(login.stderr)")
    }

    @Test func anAnonymousSiteNeedsNoUser() async throws {
        let fixture = try await CLIFixture(mode: .anonymous, signIn: false)
        let login = try await fixture.run(
            ["login", "--site", fixture.sim.siteURL, "--flow", "anonymous", "--allow-http-loopback"])
        #expect(login.status == 0, "\(login.stderr)")
        let lists = try await fixture.run(["lists"])
        #expect(lists.status == 0, "\(lists.stderr)")
    }
}
