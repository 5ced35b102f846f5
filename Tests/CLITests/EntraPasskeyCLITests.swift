import Foundation
import SPSim
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The software passkey at spsim's Entra over https: registered through Graph's `fido2Methods` with an app's
/// certificate (`passkey register --entra-user`), then the sign-in with the passkey alone (username-less, Entra's FIDO
/// view), and with a password and the passkey as the second factor (`FidoKey` on `ConvergedTFA`). spsim offers FIDO to
/// browsers' agents only, as Entra; every assertion is checked by spsim per WebAuthn (counter, challenge, origin).
@Suite(.childProcesses) struct EntraPasskeyCLITests {
    final class World: HTTPSTenant {
        init() async throws {
            try await super.init(
                SimulatorOptions(mode: .entra), appIds: [SimulatedApp.passkeyProvisioningId], folder: "entra-passkey")
            try FileManager.default.createDirectory(
                atPath: state + "/keys", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }

        func run(_ arguments: [String], stdin: String? = nil) async throws -> RunResult {
            try await runSpconnect(arguments + ["--cacert", caPath], stdin: stdin, environment: environment)
        }

        /// `passkey register --entra-user USER` with the provisioning app's certificate.
        func register(_ user: String, _ file: String) async throws -> RunResult {
            try await run([
                "passkey", "register", "--entra-user", user, "--site", sim.siteURL, "--app-id",
                SimulatedApp.passkeyProvisioningId, "--certificate", app.certificatePath, "--key", app.keyPath,
                "--authority", sim.identityProviderURL, "--graph", sim.identityProviderURL + "/graph", "--passkey",
                file,
            ])
        }
    }

    @Test func aPasskeyRegisteredThroughGraphSignsInAloneAndAsTheSecondFactor() async throws {
        let world = try await World()
        let alice = world.state + "/keys/alice.passkey"
        let registered = try await world.register("alice@contoso.test", alice)
        try #require(registered.status == 0, "\(registered.stderr)")
        #expect(world.sim.fidoCredentials(for: "alice@contoso.test").count == 1)

        // The passkey alone: no --user, no password.
        for expected in 1...2 {
            let login = try await world.run([
                "login", "--site", world.sim.siteURL, "--passkey", alice, "--trace", world.state + "/trace.jsonl",
            ])
            #expect(login.status == 0, "passkey sign-in \(expected): \(login.stderr)")
            #expect(world.sim.fidoSignIns(for: "alice@contoso.test") == expected)
            #expect(world.sim.fidoCredentials(for: "alice@contoso.test").first?.signCount == UInt32(expected))
        }
        let who = try await world.run(["whoami"])
        #expect(who.status == 0 && who.stdout.contains("alice@contoso.test"), "\(who.stdout) \(who.stderr)")

        // A file restored from a backup: its next count was used already, and Entra (spsim) refuses it.
        var stale =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: alice))) as? [String: Any]
        #expect(stale?["signCount"] as? Int == 2)
        stale?["signCount"] = 1
        try JSONSerialization.data(withJSONObject: stale ?? [:]).write(to: URL(fileURLWithPath: alice))
        chmod(alice, 0o600)
        let replayed = try await world.run(["login", "--site", world.sim.siteURL, "--passkey", alice])
        #expect(replayed.status == 3 && replayed.stderr.contains("did not accept the passkey"), "\(replayed.stderr)")
        #expect(world.sim.fidoSignIns(for: "alice@contoso.test") == 2)

        // A password and the passkey: the password first, the passkey answers the second factor (bob must do MFA).
        let bob = world.state + "/keys/bob.passkey"
        let bobRegistered = try await world.register("bob.mfa@contoso.test", bob)
        try #require(bobRegistered.status == 0, "\(bobRegistered.stderr)")
        let twoFactors = try await world.run(
            [
                "login", "--site", world.sim.siteURL, "--user", "bob.mfa@contoso.test", "--password-stdin",
                "--passkey", bob, "--trace", world.state + "/bob.jsonl", "--profile", "bob",
            ], stdin: "Spring2026!\n")
        #expect(twoFactors.status == 0, "\(twoFactors.stderr)")
        let trace = (try? String(contentsOfFile: world.state + "/bob.jsonl", encoding: .utf8)) ?? ""
        #expect(trace.contains("second factor: asked Entra's FIDO view"), "\(trace)")
        #expect(world.sim.fidoSignIns(for: "bob.mfa@contoso.test") == 1)

        // Neither key is in any output or trace.
        for file in [alice, bob] {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            let key = try #require(object?["privateKey"] as? String)
            for line in key.split(separator: "\n") where !line.hasPrefix("-----") {
                for output in [registered, bobRegistered, twoFactors, replayed] {
                    #expect(!output.stdout.contains(line) && !output.stderr.contains(line))
                }
                #expect(!trace.contains(line))
            }
        }
    }

    @Test func graphRefusesAnAppWithoutThePasskeyPermission() async throws {
        let world = try await World()
        world.sim.registerCertificate(world.app.certificatePEM, appId: SimulatedApp.noRolesId)
        let refused = try await world.run([
            "passkey", "register", "--entra-user", "alice@contoso.test", "--site", world.sim.siteURL, "--app-id",
            SimulatedApp.noRolesId, "--certificate", world.app.certificatePath, "--key", world.app.keyPath,
            "--authority", world.sim.identityProviderURL, "--graph", world.sim.identityProviderURL + "/graph",
            "--passkey", world.state + "/keys/none.passkey",
        ])
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(refused.stderr.contains("UserAuthMethod-Passkey.ReadWrite.All"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.state + "/keys/none.passkey"))
        #expect(world.sim.fidoCredentials(for: "alice@contoso.test").isEmpty)
    }
}
