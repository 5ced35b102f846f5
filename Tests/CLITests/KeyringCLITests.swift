import Foundation
import SPSim
import TestSupport
import Testing

/// `login --save-password` against a real Secret Service: gnome-keyring on a session bus of the test's own, under the
/// fixture's HOME (never the user's keyring). The password goes into the keyring and nowhere else; a renewal in a
/// later process reads it back with no password in its environment; `logout` removes it; with no bus at all, or a
/// keyring that cannot answer, the login refuses at once instead of signing in or hanging.
@Suite(.serialized) struct KeyringCLITests {
    static func saveLogin(_ fixture: CLIFixture, _ keyring: PrivateKeyring, extra: [String: String] = [:]) async throws
        -> RunResult
    {
        try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin", "--save-password",
                "--allow-http-loopback",
            ], stdin: alicePassword + "\n", extra: keyring.environment.merging(extra) { $1 })
    }

    /// Runs `body` with a private keyring under the fixture's HOME, stopped afterwards whatever happened.
    static func withKeyring(
        _ fixture: CLIFixture, service: PrivateKeyring.Service = .gnomeKeyring,
        _ body: (PrivateKeyring) async throws -> Void
    ) async throws {
        let keyring = try await PrivateKeyring(home: fixture.state, service: service)
        do {
            try await body(keyring)
        } catch {
            await keyring.stop()
            throw error
        }
        await keyring.stop()
    }

    /// Every file under `home` that holds `text`, the keyring's own (encrypted) storage left out.
    static func files(under home: String, containing text: String) -> [String] {
        let keyringStorage = home + "/.local/share/keyrings/"
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: home)
        while let relative = enumerator?.nextObject() as? String {
            let path = home + "/" + relative
            guard !path.hasPrefix(keyringStorage), let data = FileManager.default.contents(atPath: path) else {
                continue
            }
            if data.range(of: Data(text.utf8)) != nil { found.append(relative) }
        }
        return found
    }

    @Test(.enabled(if: PrivateKeyring.isInstalled, PrivateKeyring.skipReason))
    func aSavedPasswordRenewsTheSessionWithNoPasswordInTheEnvironment() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.withKeyring(fixture) { keyring in
            let login = try await Self.saveLogin(fixture, keyring)
            #expect(login.status == 0, "\(login.stdout)\(login.stderr)")
            #expect(login.stdout.contains("Password saved in the keyring"), "\(login.stdout)")
            #expect(await keyring.items(forUser: aliceEmail).count == 1)
            let file = try String(
                contentsOfFile: fixture.state + "/spconnect/sessions/default.cookies", encoding: .utf8)
            #expect(file.contains("\"passwordSource\":\"keyring\""), "\(file)")

            fixture.sim.expireSessions()
            // No SPCONNECT_PASSWORD, no command, no terminal: only the keyring can give the password.
            let whoami = try await fixture.run(["whoami"], extra: keyring.environment)
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(whoami.stdout.contains("Alice Example"), "\(whoami.stdout)")
            #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 2, "the renewal did not sign in with the password")
            // The renewed session still says where its password is.
            let renewed = try String(
                contentsOfFile: fixture.state + "/spconnect/sessions/default.cookies", encoding: .utf8)
            #expect(renewed.contains("\"passwordSource\":\"keyring\""), "\(renewed)")

            for run in [login, whoami] { #expect(!(run.stdout + run.stderr).contains(alicePassword)) }
            #expect(Self.files(under: fixture.state, containing: alicePassword).isEmpty)
        }
    }

    @Test(.enabled(if: PrivateKeyring.isInstalled, PrivateKeyring.skipReason))
    func forgettingThePasswordLeavesRenewalsToTheOtherSources() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.withKeyring(fixture) { keyring in
            let login = try await Self.saveLogin(fixture, keyring)
            #expect(login.status == 0, "\(login.stderr)")

            let forget = try await fixture.run(["logout", "--forget-password"], extra: keyring.environment)
            #expect(forget.status == 0, "\(forget.stderr)")
            #expect(await keyring.items(forUser: aliceEmail).isEmpty, "the keyring entry is still there")
            let file = try String(
                contentsOfFile: fixture.state + "/spconnect/sessions/default.cookies", encoding: .utf8)
            #expect(!file.contains("passwordSource"), "\(file)")

            fixture.sim.expireSessions()
            let whoami = try await fixture.run(["whoami"], extra: keyring.environment)
            #expect(whoami.status == 11, "\(whoami.stdout)\(whoami.stderr)")
            #expect(whoami.stderr.contains("--password-command"), "\(whoami.stderr)")
            #expect(whoami.stderr.contains("SPCONNECT_PASSWORD"), "\(whoami.stderr)")
            #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 1)
        }
    }

    @Test(.enabled(if: PrivateKeyring.isInstalled, PrivateKeyring.skipReason))
    func logoutRemovesTheSessionAndTheSavedPassword() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.withKeyring(fixture) { keyring in
            let login = try await Self.saveLogin(fixture, keyring)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(await keyring.items(forUser: aliceEmail).count == 1)
            let logout = try await fixture.run(["logout"], extra: keyring.environment)
            #expect(logout.status == 0, "\(logout.stderr)")
            #expect(logout.stdout.contains("password saved in the keyring is removed"), "\(logout.stdout)")
            #expect(await keyring.items(forUser: aliceEmail).isEmpty, "the keyring entry is still there")
            #expect(!FileManager.default.fileExists(atPath: fixture.state + "/spconnect/sessions/default.cookies"))
        }
    }

    /// The session goes whatever the keyring says; an entry that could not be removed is said, with exit 1.
    @Test(.enabled(if: PrivateKeyring.isInstalled, PrivateKeyring.skipReason))
    func logoutWithoutTheKeyringDeletesTheSessionAndSaysTheEntryIsLeft() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.withKeyring(fixture) { keyring in
            let login = try await Self.saveLogin(fixture, keyring)
            #expect(login.status == 0, "\(login.stderr)")
            let logout = try await fixture.run(["logout"])
            #expect(logout.status == 1, "\(logout.stdout)\(logout.stderr)")
            #expect(logout.stderr.contains("was not removed"), "\(logout.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fixture.state + "/spconnect/sessions/default.cookies"))
            #expect(await keyring.items(forUser: aliceEmail).count == 1)
        }
    }

    /// The status app renews from the keyring too: looked up once at start, with no password in its environment.
    @Test(.enabled(if: PrivateKeyring.isInstalled, PrivateKeyring.skipReason))
    func theStatusAppRenewsWithTheSavedPassword() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.withKeyring(fixture) { keyring in
            let login = try await Self.saveLogin(fixture, keyring)
            #expect(login.status == 0, "\(login.stderr)")
            fixture.sim.expireSessions()
            let (body, stderr) = try await statusJSONFromServe(
                environment: fixture.environment.merging(keyring.environment) { $1 })
            let json = try #require(
                try JSONSerialization.jsonObject(with: body) as? [String: Any],
                "\(String(decoding: body, as: UTF8.self)) \(stderr)"
            )
            let signIn = try #require(json["lastSignIn"] as? [String: Any])
            #expect(signIn["ok"] as? Bool == true, "\(signIn)")
            #expect(signIn["source"] as? String == "status app")
            #expect(!String(decoding: body, as: UTF8.self).contains(alicePassword))
        }
    }

    @Test(.enabled(if: PrivateKeyring.isInstalled, PrivateKeyring.skipReason))
    func aLockedKeyringIsAClearErrorNotAHang() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.withKeyring(fixture) { keyring in
            let login = try await Self.saveLogin(fixture, keyring)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(await keyring.lock() == 0)

            // The renewal: with no display, no unlock prompt is asked for (nobody could answer it); the entry is locked.
            fixture.sim.expireSessions()
            // A prompt nobody can answer would hold whoami until the run is killed (status -1), whatever the time.
            let whoami = try await runSpconnect(
                ["whoami"], environment: fixture.environment.merging(keyring.environment) { $1 }, timeout: .seconds(60))
            #expect(whoami.status == 11, "\(whoami.stdout)\(whoami.stderr)")
            #expect(whoami.stderr.contains("keyring is locked"), "\(whoami.stderr)")
            #expect(whoami.stderr.contains("--password-command"), "\(whoami.stderr)")

            // A new login that would store into the locked keyring: signed in and saved, but told it was not stored.
            let againStarted = ContinuousClock.now
            let again = try await Self.saveLogin(fixture, keyring)
            #expect(ContinuousClock.now - againStarted < .seconds(10))
            #expect(again.status == 1, "\(again.stdout)\(again.stderr)")
            #expect(again.stderr.contains("keyring is locked"), "\(again.stderr)")
            #expect(again.stderr.contains("renewals will need another password source"), "\(again.stderr)")
            for run in [login, whoami, again] { #expect(!(run.stdout + run.stderr).contains(alicePassword)) }
        }
    }

    /// On a desktop (a display is set) the keyring may put up an unlock prompt; one nobody answers is cancelled after
    /// SPCONNECT_KEYRING_TIMEOUT seconds instead of waiting for ever (here the prompter cannot even reach the display).
    @Test(.enabled(if: PrivateKeyring.isInstalled, PrivateKeyring.skipReason))
    func anUnansweredUnlockPromptIsCancelledAfterTheTimeout() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.withKeyring(fixture) { keyring in
            let login = try await Self.saveLogin(fixture, keyring)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(await keyring.lock() == 0)
            fixture.sim.expireSessions()
            let started = ContinuousClock.now
            let whoami = try await fixture.run(
                ["whoami"],
                extra: keyring.environment.merging(["DISPLAY": ":99", "SPCONNECT_KEYRING_TIMEOUT": "2"]) { $1 })
            #expect(ContinuousClock.now - started < .seconds(15))
            #expect(whoami.status == 11, "\(whoami.stdout)\(whoami.stderr)")
            #expect(whoami.stderr.contains("did not answer within 2 s"), "\(whoami.stderr)")
            #expect(fixture.sim.passwordSignIns(for: aliceEmail) == 1)
        }
    }

    @Test(.enabled(if: PrivateKeyring.isInstalled, PrivateKeyring.skipReason))
    func aKeyringThatNeverAnswersIsCancelledBeforeSigningIn() async throws {
        let fixture = try await CLIFixture(signIn: false)
        try await Self.withKeyring(fixture, service: .neverAnswering) { keyring in
            let started = ContinuousClock.now
            let login = try await Self.saveLogin(fixture, keyring, extra: ["SPCONNECT_KEYRING_TIMEOUT": "2"])
            #expect(ContinuousClock.now - started < .seconds(20))
            #expect(login.status == 2, "\(login.stdout)\(login.stderr)")
            #expect(login.stderr.contains("did not answer within 2 s"), "\(login.stderr)")
            #expect(login.stderr.contains("--password-command"), "\(login.stderr)")
            #expect(fixture.sim.requestLog().isEmpty, "a request reached the simulator")
        }
    }

    /// No session bus (a server, CI, ssh without a desktop): refused with the alternatives before any request.
    @Test func withoutASessionBusSavePasswordIsRefusedBeforeSigningIn() async throws {
        let fixture = try await CLIFixture(signIn: false)
        let login = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", aliceEmail, "--password-stdin", "--save-password",
                "--allow-http-loopback",
            ], stdin: alicePassword + "\n")
        #expect(login.status == 2, "\(login.stdout)\(login.stderr)")
        for alternative in ["--password-command", "pass show sp", "systemd-creds cat", "SPCONNECT_PASSWORD"] {
            #expect(login.stderr.contains(alternative), "\(login.stderr)")
        }
        #expect(fixture.sim.requestLog().isEmpty, "a request reached the simulator")
        #expect(!FileManager.default.fileExists(atPath: fixture.state + "/spconnect/sessions/default.cookies"))
        #expect(!(login.stdout + login.stderr).contains(alicePassword))
    }
}
