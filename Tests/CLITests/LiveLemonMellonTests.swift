import Cryptography
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect login --url` against two more worlds of real software (Tests/LiveIdP/lemonmellon.sh): LemonLDAP::NG's
/// portal protecting test1.example.test through its Apache handler, LemonLDAP as SAML IdP of a SimpleSAMLphp SP, and
/// Apache mod_auth_mellon in front of a SimpleSAMLphp IdP, all on 127.0.0.30-34 over https. The world is installed
/// (apt, when missing), started once for this run on a port of its own and stopped by PID when the suite ends.
/// Skipped, saying why, only where it cannot be installed.
///
/// Each case is one of the sign-in stories the engine must read right: a portal's parent-domain SSO cookie, a
/// TOTP answered or missing, a second factor to register, an error given only as a message key.
@Suite(
    .serialized, .enabled(if: LemonMellonWorld.canRun, LemonMellonWorld.cannotRunComment), LemonMellonWorld.Scope())
struct LiveLemonMellonTests {
    let world = LemonMellonWorld.shared

    /// What one `login --url` run left behind: its result, its state folder and the secrets it was given.
    struct Run {
        let result: RunResult
        let state: String
        let started: Date
        let ended: Date
        var environment: [String: String] { ["XDG_STATE_HOME": state, "HOME": state] }
        var session: String { state + "/spconnect/sessions/default.cookies" }
    }

    /// Runs `spconnect login --url URL --user USER` in a fresh state folder, the password in `SPCONNECT_PASSWORD`
    /// (or, with `passwordCommand`, from `--password-command`), tracing and dumping the pages.
    func login(_ url: String, _ user: String, _ password: String, passwordCommand: Bool = false, _ extra: [String] = [])
        async throws -> Run
    {
        let state = try temporaryDirectory("lemonmellon")
        var environment = ["XDG_STATE_HOME": state, "HOME": state]
        var arguments = [
            "login", "--url", url, "--user", user, "--cacert", world.caFile, "--trace", state + "/trace.jsonl",
            "--dump-pages", state + "/dumps",
        ]
        if passwordCommand {
            let file = state + "/password"
            try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: file))
            chmod(file, 0o600)
            arguments += ["--password-command", "cat '\(file)'"]
        } else {
            environment["SPCONNECT_PASSWORD"] = password
        }
        let started = Date()
        let result = try await runSpconnect(arguments + extra, environment: environment)
        return Run(result: result, state: state, started: started, ended: Date())
    }

    /// The text of every file under `folder` (none when it does not exist).
    func texts(under folder: String) -> [(String, String)] {
        let names = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
        return names.compactMap { name in
            FileManager.default.contents(atPath: folder + "/" + name).map {
                (name, String(decoding: $0, as: UTF8.self))
            }
        }
    }

    /// No secret of the run in its standard output and error, trace or page dumps: not `passwords`, not the TOTP
    /// secret nor any code it made around the run, not a cookie value of the saved session nor a session id the
    /// servers handed out meanwhile.
    func expectNothingLeaked(
        _ run: Run, passwords: [String], totpSecret: String? = nil, sessionMade: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var secrets = passwords.map { ("a password", $0) }
        if let totpSecret {
            secrets.append(("the TOTP secret", totpSecret))
            if let generator = try? TOTP(text: totpSecret) {
                var moment = run.started.addingTimeInterval(-60)
                while moment <= run.ended.addingTimeInterval(60) {
                    secrets.append(("a TOTP code", generator.code(at: moment)))
                    moment = moment.addingTimeInterval(30)
                }
            }
        }
        let sessions =
            world.cookieValues(sessionFile: run.session).map { ("a cookie value", $0) }
            + world.serverSessionIDs(since: run.started).map { ("a server session id", $0) }
        // A run that made a session gives this check cookie values to look for, or it would prove nothing.
        #expect(!sessionMade || !sessions.isEmpty, "no cookie value to look for", sourceLocation: sourceLocation)
        secrets += sessions
        let places =
            [("stdout", run.result.stdout), ("stderr", run.result.stderr)]
            + texts(under: run.state + "/dumps").map { ("dump " + $0.0, $0.1) }
            + [("trace", (try? String(contentsOfFile: run.state + "/trace.jsonl", encoding: .utf8)) ?? "")]
        for (place, text) in places {
            for (what, secret) in secrets where !secret.isEmpty && text.contains(secret) {
                Issue.record("\(place) holds \(what)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Exports the saved session (`spconnect cookies --format netscape`) and fetches `url` with it by `curl -b`.
    func curlWithSession(_ run: Run, _ url: String) async throws -> String {
        let export = try await runSpconnect(["cookies", "--format", "netscape"], environment: run.environment)
        let file = run.state + "/exported.cookies"
        try Data(export.stdout.utf8).write(to: URL(fileURLWithPath: file))
        return try await runProgram("/usr/bin/curl", ["-s", "--cacert", world.caFile, "-b", file, url])
    }

    func anonymousStatus(_ url: String) async throws -> String {
        try await runProgram(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", world.caFile, url])
    }

    // MARK: LemonLDAP::NG portal and handler

    @Test func lemonLDAPRightPasswordSignsInAndCurlOpensTheSiteWithTheSession() async throws {
        let run = try await login(world.test1URL, "dwho", "dwho")
        defer { try? FileManager.default.removeItem(atPath: run.state) }
        #expect(try await anonymousStatus(world.test1URL) == "302")
        // The portal's SSO cookie is set by auth.example.test for the parent domain; test1 sets none.
        #expect(run.result.status == 0, "\(run.result.stderr)")
        let page = try await curlWithSession(run, world.test1URL)
        #expect(page.contains("Hello, dwho"), "curl -b with the exported session: \(page.prefix(200))")
        // The demo passwords are the user names, which the output may name; the secrets here are the cookies.
        expectNothingLeaked(run, passwords: [], sessionMade: true)
    }

    @Test func lemonLDAPWrongPasswordIsRejectedWithThePortalsMessage() async throws {
        let run = try await login(world.test1URL, "dwho", "lemon-wrong-8")
        defer { try? FileManager.default.removeItem(atPath: run.state) }
        #expect(run.result.status == 3, "\(run.result.stderr)")
        expectThePortalsMessage(run.result.stderr)
        expectNothingLeaked(run, passwords: ["lemon-wrong-8"])
    }

    /// The portal's page carries only the message key (`<span trmsg="5">`); its script shows "Wrong credentials".
    /// The key is what there is to quote.
    func expectThePortalsMessage(_ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let named = stderr.contains("the identity provider's message 5")
        #expect(named, "\(stderr)", sourceLocation: sourceLocation)
    }

    @Test func lemonLDAPTOTPIsAnsweredFromTheSecretFile() async throws {
        let secret = try world.rtylerSecret()
        let run = try await login(world.test1URL, "rtyler", "rtyler", ["--totp-secret-file", world.rtylerSecretFile])
        defer { try? FileManager.default.removeItem(atPath: run.state) }
        #expect(run.result.status == 0, "\(run.result.stderr)")
        let page = try await curlWithSession(run, world.test1URL)
        #expect(page.contains("Hello, rtyler"), "curl -b with the exported session: \(page.prefix(200))")
        expectNothingLeaked(run, passwords: [], totpSecret: secret, sessionMade: true)
    }

    @Test func lemonLDAPTOTPWithoutACodeSourceNeedsInteraction() async throws {
        let secret = try world.rtylerSecret()
        let run = try await login(world.test1URL, "rtyler", "rtyler")
        defer { try? FileManager.default.removeItem(atPath: run.state) }
        #expect(run.result.status == 4, "\(run.result.stderr)")
        #expect(run.result.stderr.contains("--totp-secret-file"), "\(run.result.stderr)")
        expectNothingLeaked(run, passwords: [], totpSecret: secret)
    }

    @Test func lemonLDAPSecondFactorToRegisterNeedsInteraction() async throws {
        let run = try await login(world.test1URL, "msmith", "msmith")
        defer { try? FileManager.default.removeItem(atPath: run.state) }
        #expect(run.result.status == 4, "\(run.result.stderr)")
        // Exit 4 is any stop that needs a person: the reason must be this one, a second factor to register.
        #expect(run.result.stderr.contains("set up a second factor"), "\(run.result.stderr)")
        expectNothingLeaked(run, passwords: [])
    }

    // MARK: LemonLDAP::NG as SAML IdP of a SimpleSAMLphp SP

    @Test func lemonLDAPAsSAMLIdentityProviderSignsInToTheServiceProvider() async throws {
        let run = try await login(world.lemonSAMLProtectedURL, "dwho", "dwho")
        defer { try? FileManager.default.removeItem(atPath: run.state) }
        #expect(run.result.status == 0, "\(run.result.stderr)")
        let page = try await curlWithSession(run, world.lemonSAMLProtectedURL)
        #expect(page.contains("Hello, dwho"), "curl -b with the exported session: \(page.prefix(200))")
        expectNothingLeaked(run, passwords: [], sessionMade: true)
    }

    @Test func lemonLDAPAsSAMLIdentityProviderRejectsAWrongPassword() async throws {
        let run = try await login(world.lemonSAMLProtectedURL, "dwho", "lemon-wrong-9")
        defer { try? FileManager.default.removeItem(atPath: run.state) }
        #expect(run.result.status == 3, "\(run.result.stderr)")
        expectThePortalsMessage(run.result.stderr)
        expectNothingLeaked(run, passwords: ["lemon-wrong-9"])
    }

    // MARK: mod_auth_mellon in front of SimpleSAMLphp

    @Test func mellonRightPasswordSignsInAndCurlOpensThePageWithTheSession() async throws {
        let run = try await login(world.mellonProtectedURL, "carol", "carol-pass-4", passwordCommand: true)
        defer { try? FileManager.default.removeItem(atPath: run.state) }
        #expect(try await anonymousStatus(world.mellonProtectedURL) == "303")
        #expect(run.result.status == 0, "\(run.result.stderr)")
        let page = try await curlWithSession(run, world.mellonProtectedURL)
        #expect(page.contains("Hello, carol"), "curl -b with the exported session: \(page.prefix(200))")
        expectNothingLeaked(run, passwords: ["carol-pass-4"], sessionMade: true)
    }

    @Test func mellonWrongPasswordIsRejectedWithTheIdentityProvidersWords() async throws {
        let run = try await login(world.mellonProtectedURL, "carol", "mellon-wrong-6", passwordCommand: true)
        defer { try? FileManager.default.removeItem(atPath: run.state) }
        #expect(run.result.status == 3, "\(run.result.stderr)")
        #expect(run.result.stderr.contains("Incorrect username or password"), "\(run.result.stderr)")
        expectNothingLeaked(run, passwords: ["mellon-wrong-6"])
    }
}

/// The world of Tests/LiveIdP/lemonmellon.sh for this test process: installed when missing, started when the suite
/// starts (on a port of its own), stopped by PID (the script's `stop`, which also removes its /etc/hosts names) when
/// the suite ends.
final class LemonMellonWorld: Sendable {
    static let shared = LemonMellonWorld()

    let directory: String
    let port: Int
    var caFile: String { directory + "/ca.pem" }
    var test1URL: String { "https://test1.example.test:\(port)/" }
    var lemonSAMLProtectedURL: String { "https://127.0.0.32:\(port)/protected/" }
    var mellonProtectedURL: String { "https://127.0.0.34:\(port)/protected/" }
    var rtylerSecretFile: String { directory + "/rtyler.totp" }

    static let script: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("Tests/LiveIdP/lemonmellon.sh").path
    }()

    private init() {
        directory = NSTemporaryDirectory() + "spc-lemonmellon-" + UUID().uuidString
        // Not the port LiveIdentityProviderTests picks (20000 + pid % 20000): its world may run at the same time.
        port = 40_000 + Int(getpid() % 20_000)
    }

    func rtylerSecret() throws -> String {
        try String(contentsOfFile: rtylerSecretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The values of the cookies in a session file (Netscape format; `#HttpOnly_` lines too; none when absent).
    func cookieValues(sessionFile: String) -> [String] {
        guard let text = try? String(contentsOfFile: sessionFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            var line = Substring(line)
            if line.hasPrefix("#HttpOnly_") { line = line.dropFirst("#HttpOnly_".count) }
            if line.hasPrefix("#spconnect-idp ") { line = line.dropFirst("#spconnect-idp ".count) }
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count >= 7 && fields[6].count >= 8 ? String(fields[6]) : nil
        }
    }

    /// The session ids the servers made since `date` — each one a cookie value some browser was given: LemonLDAP's
    /// SSO sessions (files named by the id) and the SimpleSAMLphp instances' PHP sessions (`sess_ID`).
    func serverSessionIDs(since date: Date) -> [String] {
        let folders = [directory + "/ll/sessions", directory + "/idp/sessions", directory + "/llsp/sessions"]
        return folders.flatMap { folder -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return names.compactMap { name in
                let path = folder + "/" + name
                guard
                    let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate]
                        as? Date, modified >= date.addingTimeInterval(-2), name != "lock"
                else { return nil }
                let id = name.hasPrefix("sess_") ? String(name.dropFirst(5)) : name
                return id.count >= 16 ? id : nil
            }
        }
    }

    /// Installed already, or installable here (apt-get, as root or with sudo; /etc/hosts needs the same). Starts
    /// nothing.
    static var canRun: Bool { isInstalled || LiveIdentityProvider.canInstall }
    static var cannotRunComment: Comment {
        Comment(
            rawValue: "LemonLDAP::NG, mod_auth_mellon and SimpleSAMLphp are not installed and apt-get cannot be used "
                + "here (run Tests/LiveIdP/lemonmellon.sh install)")
    }
    private static var isInstalled: Bool {
        let files = [
            "/usr/share/lemonldap-ng/portal/htdocs/index.fcgi", "/var/lib/lemonldap-ng/conf/lmConf-1.json",
            "/usr/lib/apache2/modules/mod_auth_mellon.so", "/usr/lib/apache2/modules/mod_perl.so",
            "/usr/lib/apache2/modules/mod_fcgid.so", "/usr/share/simplesamlphp/www/_include.php",
        ]
        return files.allSatisfy { FileManager.default.fileExists(atPath: $0) }
            && FileManager.default.isExecutableFile(atPath: "/usr/sbin/apache2")
    }

    /// Runs the suite inside the world: installs and starts it first, stops it after, whatever happened.
    struct Scope: SuiteTrait, TestScoping {
        var isRecursive: Bool { false }

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let world = LemonMellonWorld.shared
            let stopped = try await LiveIdentityProvider.within(
                script: LemonMellonWorld.script, directory: world.directory, installed: LemonMellonWorld.isInstalled,
                environment: ["LM_PORT": String(world.port)], performing: function)
            // The state goes with the world; rm, not FileManager: the folder holds mod_fcgid's sockets.
            if stopped { _ = try await runProgram("/bin/rm", ["-rf", world.directory]) }
        }
    }
}
