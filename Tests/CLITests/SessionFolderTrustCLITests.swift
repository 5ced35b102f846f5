import Foundation
import SPSim
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A sessions folder others may write, or a session file that breaks the trust rules, stops `login` before the
/// password is asked for (its command never runs) or sent (the simulator sees no sign-in), with the message and
/// fix a load or save would give.
@Suite struct SessionFolderTrustCLITests {
    func login(_ fixture: CLIFixture, marker: String) async throws -> RunResult {
        try await fixture.run([
            "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-command",
            "touch '\(marker)'; echo '\(alicePassword)'", "--allow-http-loopback",
        ])
    }

    @Test func aSessionsFolderOthersMayWriteIsRefusedBeforeThePasswordIsAskedForOrSent() async throws {
        let fixture = try await CLIFixture(signIn: false)
        let sessions = fixture.state + "/spconnect/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let marker = fixture.state + "/password-asked"
        for mode: mode_t in [0o777, 0o770] {
            #expect(chmod(sessions, mode) == 0)
            let refused = try await login(fixture, marker: marker)
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(refused.stderr.contains("refusing to use \(sessions)"), "\(refused.stderr)")
            #expect(refused.stderr.contains("other users may write to it"), "\(refused.stderr)")
            #expect(refused.stderr.contains("chmod 700 '\(sessions)'"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: marker), "the password command ran (mode \(mode))")
            #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 0, "the password was sent (mode \(mode))")
            #expect(!(refused.stdout + refused.stderr).contains(alicePassword))
        }
        #expect(chmod(sessions, 0o700) == 0)
        let fixed = try await login(fixture, marker: marker)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 1)
    }

    @Test func aSessionFileThatBreaksTheTrustRulesIsRefusedBeforeTheSignIn() async throws {
        let fixture = try await CLIFixture(signIn: false)
        let sessions = fixture.state + "/spconnect/sessions"
        try FileManager.default.createDirectory(
            atPath: sessions, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = sessions + "/default.cookies"
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: fixture.state + "/elsewhere")
        let marker = fixture.state + "/password-asked"
        let refused = try await login(fixture, marker: marker)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("refusing to use \(file): it is a symbolic link"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the password command ran")
        #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 0, "the password was sent")
    }
}
