import Cryptography
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The software passkey against two relying parties nobody here wrote (Tests/LiveIdP/passkeys.sh): django-allauth,
/// whose verification is python-fido2's, and Flask-Security-Too, whose verification is py_webauthn's, both over TLS
/// on 127.0.0.50-51. Each story signs in with the password, registers a passkey at the site's own page, signs in
/// with the passkey alone (username-less), and then tries a wrong key, a counter rolled back and another site's
/// passkey. Every verdict is read from the relying party's own verification log, and no run's output, trace,
/// session or dump holds the passkey's private key.
@Suite(.serialized, .enabled(if: PasskeysWorld.canRun, PasskeysWorld.cannotRunComment), PasskeysWorld.Scope())
struct LivePasskeyTests {
    let world = PasskeysWorld.shared

    /// One story's private state folder, environment and passkey files.
    struct Account {
        let state: String
        var environment: [String: String] { ["XDG_STATE_HOME": state, "HOME": state] }
        var passkey: String { state + "/keys/site.passkey" }
    }

    func account() throws -> Account {
        let state = try temporaryDirectory("passkey")
        try FileManager.default.createDirectory(
            atPath: state + "/keys", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return Account(state: state)
    }

    /// `spconnect` with the world's CA; every run's output is kept for the secret check.
    func run(_ account: Account, _ arguments: [String], password: String? = nil) async throws -> RunResult {
        var environment = account.environment
        if let password { environment["SPCONNECT_PASSWORD"] = password }
        let result = try await runSpconnect(
            arguments + ["--cacert", try world.value("PASSKEYS_CA")], environment: environment)
        let log = account.state + "/outputs.txt"
        let text = result.stdout + result.stderr
        if let handle = FileHandle(forWritingAtPath: log) {
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            handle.closeFile()
        } else {
            FileManager.default.createFile(atPath: log, contents: Data(text.utf8))
        }
        return result
    }

    /// `login --url` at the site's login page, proven at its `/whoami` (200 only when signed in).
    func login(_ account: Account, _ site: String, profile: String, _ extra: [String], password: String? = nil)
        async throws -> RunResult
    {
        try await run(
            account,
            [
                "login", "--url", try world.value("PASSKEYS_\(site)_LOGIN_URL"), "--proof-url",
                try world.value("PASSKEYS_\(site)_WHOAMI_URL"), "--profile", profile, "--trace",
                account.state + "/\(profile).trace", "--dump-pages", account.state + "/dumps",
            ] + extra, password: password)
    }

    /// The relying party's verification log lines written since `count` lines.
    func verifications(_ site: String, after count: Int) throws -> [String] {
        let text = (try? String(contentsOfFile: try world.value("PASSKEYS_\(site)_VERIFICATION_LOG"), encoding: .utf8))
        return Array((text ?? "").split(separator: "\n").map(String.init).dropFirst(count))
    }

    func logLength(_ site: String) throws -> Int { try verifications(site, after: 0).count }

    /// The passkey file's JSON.
    func passkeyJSON(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    /// Writes `bytes` as a 0600 file.
    func writePrivate(_ bytes: Data, to path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        FileManager.default.createFile(atPath: path, contents: bytes, attributes: [.posixPermissions: 0o600])
    }

    /// Register, sign in with the passkey alone twice, then a wrong key, a rolled-back counter and another site's
    /// passkey; `countersChecked` says whether the site refuses a counter that did not rise (py_webauthn does;
    /// python-fido2 and allauth keep no counter, FLOWS.md).
    func story(_ site: String, registrationPage: String, countersChecked: Bool, other: String) async throws {
        let account = try account()
        defer { try? FileManager.default.removeItem(atPath: account.state) }
        let password = try world.secret("PASSKEYS_PASSWORD_FILE")
        let user = try world.value("PASSKEYS_USER")

        let signedIn = try await login(account, site, profile: "password", ["--user", user], password: password)
        try #require(signedIn.status == 0, "password sign-in: \(signedIn.stderr)")
        var seen = try logLength(site)
        let registered = try await run(
            account,
            ["passkey", "register", "--profile", "password", "--page", registrationPage, "--passkey", account.passkey])
        try #require(registered.status == 0, "register: \(registered.stderr)")
        let registration = try verifications(site, after: seen)
        #expect(registration.count == 1 && registration[0].hasPrefix("register ok user=\(user)"), "\(registration)")
        let mode = try FileManager.default.attributesOfItem(atPath: account.passkey)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let key = try #require(try passkeyJSON(account.passkey)["privateKey"] as? String)

        // Username-less: no --user, no password; the relying party's own library verifies each assertion.
        for expected in 1...2 {
            seen = try logLength(site)
            let result = try await login(account, site, profile: "passkey", ["--passkey", account.passkey])
            #expect(result.status == 0, "passkey sign-in \(expected): \(result.stderr)")
            let lines = try verifications(site, after: seen)
            #expect(
                lines.count == 1 && lines[0].hasPrefix("authenticate ok user=\(user)")
                    && lines[0].contains(" sign_count=\(expected) "), "\(lines)")
            #expect(try passkeyJSON(account.passkey)["signCount"] as? Int == expected)
            if expected == 1 {
                try FileManager.default.copyItem(atPath: account.passkey, toPath: account.state + "/keys/count1")
            }
        }
        let who = try await run(account, ["whoami", "--profile", "passkey"])
        #expect(who.status == 0, "whoami with the passkey's session: \(who.stderr)")

        if site == "ALLAUTH" {
            // allauth asks an account with a passkey for it after the password (its MFA stage): a password and the
            // passkey sign in with both, the passkey as the second factor.
            seen = try logLength(site)
            let both = try await login(
                account, site, profile: "both", ["--user", user, "--passkey", account.passkey], password: password)
            #expect(both.status == 0, "password, then the passkey: \(both.stderr)")
            let lines = try verifications(site, after: seen)
            #expect(
                lines.count == 1 && lines[0].hasPrefix("authenticate ok") && lines[0].contains(" sign_count=3 "),
                "\(lines)")
        }

        // The same credential id with another key: the site's library refuses the signature (exit 3).
        var forged = try passkeyJSON(account.passkey)
        forged["privateKey"] = String(decoding: try P256PrivateKey().pkcs8PEM(), as: UTF8.self)
        let forgedPath = account.state + "/keys/forged.passkey"
        try writePrivate(try JSONSerialization.data(withJSONObject: forged), to: forgedPath)
        seen = try logLength(site)
        let wrongKey = try await login(account, site, profile: "forged", ["--passkey", forgedPath])
        #expect(wrongKey.status == 3, "a wrong key: \(wrongKey.stderr)")
        #expect(wrongKey.stderr.contains("did not accept the passkey"), "\(wrongKey.stderr)")
        let refused = try verifications(site, after: seen)
        #expect(refused.count == 1 && refused[0].hasPrefix("authenticate rejected"), "\(refused)")

        // The file as it was after the first sign-in (a restored backup): its next count (2) was used already.
        try? FileManager.default.removeItem(atPath: account.passkey)
        try FileManager.default.copyItem(atPath: account.state + "/keys/count1", toPath: account.passkey)
        seen = try logLength(site)
        let replay = try await login(account, site, profile: "replay", ["--passkey", account.passkey])
        let replayed = try verifications(site, after: seen)
        #expect(replayed.count == 1 && replayed[0].contains(" sign_count=2 "), "\(replayed)")
        if countersChecked {
            #expect(replay.status == 3, "a counter that did not rise: \(replay.stderr)")
            #expect(replayed.first?.contains("not greater than") == true, "\(replayed)")
        } else {
            // allauth keeps no counter: it accepts, and its log shows the repeated count.
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(replayed.first?.hasPrefix("authenticate ok") == true, "\(replayed)")
        }

        // This site's passkey on the other site: refused before anything is signed or sent (exit 4).
        let otherSeen = try logLength(other)
        let elsewhere = try await login(account, other, profile: "elsewhere", ["--passkey", account.passkey])
        #expect(elsewhere.status == 4, "another site's passkey: \(elsewhere.stderr)")
        #expect(elsewhere.stderr.contains("the passkey is for"), "\(elsewhere.stderr)")
        #expect(try verifications(other, after: otherSeen).isEmpty)

        try expectKeyNowhere(key, account)
    }

    /// The private key (each base64 line of its PEM) is in no output, trace, session, record or dump.
    func expectKeyNowhere(_ pem: String, _ account: Account) throws {
        let lines = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        #expect(!lines.isEmpty)
        let files = FileManager.default.enumerator(atPath: account.state)?.compactMap { $0 as? String } ?? []
        var looked = 0
        for name in files where !name.hasPrefix("keys/") && !name.hasPrefix("keys") {
            let path = account.state + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                continue
            }
            let text = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self)
            looked += 1
            for line in lines { #expect(!text.contains(line), "\(name) holds the passkey's private key") }
        }
        #expect(looked >= 3, "the outputs, traces and sessions were looked at (\(files))")
    }

    @Test func djangoAllauthSignsInWithTheSoftwarePasskey() async throws {
        try await story(
            "ALLAUTH", registrationPage: try world.value("PASSKEYS_ALLAUTH_ADD_PASSKEY_URL"), countersChecked: false,
            other: "FST")
    }

    @Test func flaskSecurityTooSignsInWithTheSoftwarePasskey() async throws {
        try await story(
            "FST", registrationPage: try world.value("PASSKEYS_FST_REGISTER_URL"), countersChecked: true,
            other: "ALLAUTH")
    }
}

/// The passkeys world of one test run: installed when missing, started in a folder of its own on ports of its
/// own, stopped by PID when the suite ends.
final class PasskeysWorld: Sendable {
    static let shared = PasskeysWorld()

    let directory: String
    let port: Int

    static let script: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("Tests/LiveIdP/passkeys.sh").path
    }()

    private init() {
        directory = NSTemporaryDirectory() + "spc-passkeys-" + UUID().uuidString
        // Its own addresses (127.0.0.50-51); two ports from here, above the ephemeral range.
        port = 61_000 + Int(getpid() % 4_000)
    }

    /// A variable of the world's `passkeys.env` (`NAME='value'` lines).
    func value(_ name: String) throws -> String {
        let text = try String(contentsOfFile: directory + "/passkeys.env", encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix(name + "=") {
            var value = line.dropFirst(name.count + 1)
            if value.hasPrefix("'") && value.hasSuffix("'") && value.count >= 2 { value = value.dropFirst().dropLast() }
            return String(value)
        }
        throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(name) not in passkeys.env"])
    }

    /// The first line of the file a variable names (the password the world made).
    func secret(_ fileVariable: String) throws -> String {
        try String(contentsOfFile: try value(fileVariable), encoding: .utf8)
            .split(separator: "\n").first.map(String.init) ?? ""
    }

    /// The script installs python3-venv and openssl when missing, and its venv from PyPI.
    static var canRun: Bool { LiveIdentityProvider.canInstall || FileManager.default.fileExists(atPath: venvPython) }
    static var cannotRunComment: Comment {
        Comment(
            rawValue: "python3-venv is not installed and apt-get cannot be used here (run Tests/LiveIdP/passkeys.sh "
                + "install)")
    }
    private static var venvPython: String {
        URL(fileURLWithPath: script).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/passkeys-venv/bin/python").path
    }

    /// Installs (the script does nothing when all is there), starts the world, runs the suite, stops it.
    struct Scope: SuiteTrait, TestScoping {
        var isRecursive: Bool { false }

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let world = PasskeysWorld.shared
            let stopped = try await LiveIdentityProvider.within(
                script: PasskeysWorld.script, directory: world.directory, installed: false,
                environment: ["PASSKEYS_PORT": String(world.port)], performing: function)
            if stopped { _ = try await runProgram("/bin/rm", ["-rf", world.directory]) }
        }
    }
}
