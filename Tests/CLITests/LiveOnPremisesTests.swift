import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect login --url` against on-premises software nobody here wrote (Tests/LiveIdP/onprem.sh): an MIT
/// Kerberos KDC with Apache mod_auth_gssapi (a ticket, a keytab, the Basic fallback), an NTLM site whose NTLM is
/// pyspnego's, and two web applications with form sign-ins, Jupyter Server (it answers a wrong password with 401 and
/// the form) and Django's admin. Everything on 127.0.0.40-45; the world is installed when missing, started for this
/// run on ports of its own, and stopped by PID when the suite ends (issue #37). Every session `login` saves is then
/// used by `whoami` and, where it is a cookie, by `curl -b`.
@Suite(.serialized, .enabled(if: OnPremisesWorld.canRun, OnPremisesWorld.cannotRunComment), OnPremisesWorld.Scope())
struct LiveOnPremisesTests {
    let world = OnPremisesWorld.shared

    /// One run's private state folder and environment: its own sessions, and its own Kerberos cache (`ticket`: a
    /// cache file that exists after kinit; nil: a cache name that does not exist, so no ticket).
    struct Account {
        let state: String
        let environment: [String: String]
    }

    func account(kerberos: Bool) throws -> Account {
        let state = try temporaryDirectory("onprem")
        let cache = kerberos ? state + "/krb5cc" : state + "/no-such-cache"
        return Account(
            state: state,
            environment: [
                "XDG_STATE_HOME": state, "HOME": state, "KRB5_CONFIG": try world.value("ONPREM_KRB5_CONFIG"),
                "KRB5CCNAME": "FILE:" + cache,
            ])
    }

    /// `kinit` into the account's cache: with alice's password (on standard input), or from the keytab.
    func kinit(_ account: Account, keytab: Bool = false) async throws {
        let command =
            keytab
            ? "kinit -kt \"$ONPREM_SVC_KEYTAB\" \"$ONPREM_SVC_PRINCIPAL\""
            : "kinit \"$ONPREM_ALICE_PRINCIPAL\" < \"$ONPREM_ALICE_PASSWORD_FILE\" > /dev/null"
        let status = await spawnToExit(
            "/bin/sh", ["-c", ". '\(world.directory)/onprem.env'; " + command],
            environment: ProcessInfo.processInfo.environment.merging(account.environment) { $1 })
        try #require(status == 0, "kinit failed (\(status))")
    }

    func login(_ account: Account, _ url: String, _ user: String, password: String? = nil, _ extra: [String] = [])
        async throws -> RunResult
    {
        var environment = account.environment
        if let password { environment["SPCONNECT_PASSWORD"] = password }
        return try await runSpconnect(
            [
                "login", "--url", url, "--user", user, "--cacert", try world.value("ONPREM_CA"), "--dump-pages",
                account.state + "/dumps",
            ] + extra,
            environment: environment)
    }

    func whoami(_ account: Account, password: String? = nil) async throws -> RunResult {
        var environment = account.environment
        if let password { environment["SPCONNECT_PASSWORD"] = password }
        return try await runSpconnect(["whoami", "--cacert", try world.value("ONPREM_CA")], environment: environment)
    }

    /// `curl -b` with the session `cookies --format netscape` exports: the body of `url`.
    func curlWithSession(_ account: Account, _ url: String) async throws -> String {
        let export = try await runSpconnect(["cookies", "--format", "netscape"], environment: account.environment)
        let file = account.state + "/exported.cookies"
        try Data(export.stdout.utf8).write(to: URL(fileURLWithPath: file))
        return try await runProgram(
            "/usr/bin/curl", ["-s", "--cacert", try world.value("ONPREM_CA"), "-b", file, url])
    }

    /// No password in the run's output or dumps.
    func expectNoPassword(_ result: RunResult, _ password: String, _ account: Account) {
        #expect(!result.stdout.contains(password) && !result.stderr.contains(password), "the password was printed")
        let dumps = (try? FileManager.default.contentsOfDirectory(atPath: account.state + "/dumps")) ?? []
        for name in dumps {
            let text = (try? String(contentsOfFile: account.state + "/dumps/" + name, encoding: .utf8)) ?? ""
            #expect(!text.contains(password), "dump \(name) holds the password")
        }
    }

    // MARK: Kerberos (SPNEGO) with Apache mod_auth_gssapi

    @Test func aKerberosTicketSignsInWithoutAPasswordAndTheSessionIsUsedAfterwards() async throws {
        let account = try account(kerberos: true)
        defer { try? FileManager.default.removeItem(atPath: account.state) }
        try await kinit(account)
        let url = try world.value("ONPREM_KERBEROS_URL")
        let result = try await login(account, url, try world.value("ONPREM_ALICE_PRINCIPAL"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(kerberos)"), "\(result.stdout)")
        let who = try await whoami(account)
        #expect(who.status == 0, "whoami: \(who.stderr)")
        // mod_auth_gssapi's session cookie opens the page on its own, the way curl -b sends it.
        let page = try await curlWithSession(account, url)
        #expect(page.contains("Hello alice@SPCONNECT.TEST"), "curl -b: \(page.prefix(200))")
    }

    @Test func aKeytabSignsInAnUnattendedJobWithNoPasswordAtAll() async throws {
        let account = try account(kerberos: true)
        defer { try? FileManager.default.removeItem(atPath: account.state) }
        try await kinit(account, keytab: true)
        let result = try await login(
            account, try world.value("ONPREM_KERBEROS_WHOAMI_URL"), try world.value("ONPREM_SVC_PRINCIPAL"),
            ["--flow", "kerberos"])
        #expect(result.status == 0, "\(result.stderr)")
        let who = try await whoami(account)
        #expect(who.status == 0, "whoami: \(who.stderr)")
    }

    @Test func withoutATicketTheBasicFallbackSignsInAndAWrongPasswordIsExit3() async throws {
        let account = try account(kerberos: false)
        defer { try? FileManager.default.removeItem(atPath: account.state) }
        let url = try world.value("ONPREM_KERBEROS_URL")
        let password = try world.secret("ONPREM_ALICE_PASSWORD_FILE")
        let result = try await login(account, url, "alice", password: password)
        #expect(result.status == 0, "\(result.stderr)")
        let who = try await whoami(account, password: password)
        #expect(who.status == 0, "whoami of a Basic session: \(who.stderr)")
        let wrong = try await login(account, url, "alice", password: "not-" + password)
        #expect(wrong.status == 3, "\(wrong.stderr)")
        expectNoPassword(result, password, account)
    }

    // MARK: NTLM (pyspnego's acceptor)

    @Test func ntlmSignsInAndWhoamiUsesTheSession() async throws {
        let account = try account(kerberos: false)
        defer { try? FileManager.default.removeItem(atPath: account.state) }
        let url = try world.value("ONPREM_NTLM_URL")
        let password = try world.secret("ONPREM_NTLM_PASSWORD_FILE")
        let result = try await login(account, url, "alice", password: password)
        #expect(result.status == 0, "\(result.stderr)")
        let who = try await whoami(account, password: password)
        #expect(who.status == 0, "whoami of an NTLM session: \(who.stderr)")
        let page = try await curlWithSession(account, try world.value("ONPREM_NTLM_WHOAMI_URL"))
        #expect(page.contains("alice"), "curl -b: \(page.prefix(200))")
        let wrong = try await login(account, url, "alice", password: "not-" + password)
        #expect(wrong.status == 3, "\(wrong.stderr)")
        expectNoPassword(wrong, "not-" + password, account)
    }

    // MARK: Web applications with form sign-ins

    @Test func jupyterServerSignsInAndAWrongPasswordAnsweredWith401IsExit3InItsOwnWords() async throws {
        let account = try account(kerberos: false)
        defer { try? FileManager.default.removeItem(atPath: account.state) }
        let url = try world.value("ONPREM_JUPYTER_PROTECTED_URL")
        let password = try world.secret("ONPREM_JUPYTER_PASSWORD_FILE")
        let wrong = try await login(account, url, "alice", password: "not-" + password)
        #expect(wrong.status == 3, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("Invalid credentials"), "\(wrong.stderr)")
        let result = try await login(account, url, "alice", password: password)
        #expect(result.status == 0, "\(result.stderr)")
        let page = try await curlWithSession(account, url)
        #expect(page.contains("README.txt"), "curl -b: \(page.prefix(200))")
        let who = try await whoami(account)
        #expect(who.status == 0, "whoami: \(who.stderr)")
        expectNoPassword(result, password, account)
    }

    @Test func djangoAdminSignsInAndAWrongPasswordIsExit3InItsOwnWords() async throws {
        let account = try account(kerberos: false)
        defer { try? FileManager.default.removeItem(atPath: account.state) }
        let url = try world.value("ONPREM_DJANGO_URL")
        let password = try world.secret("ONPREM_DJANGO_PASSWORD_FILE")
        let wrong = try await login(account, url, "alice", password: "not-" + password)
        #expect(wrong.status == 3, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("correct username and password"), "\(wrong.stderr)")
        let result = try await login(account, url, "alice", password: password)
        #expect(result.status == 0, "\(result.stderr)")
        let page = try await curlWithSession(account, url)
        #expect(page.contains("Site administration"), "curl -b: \(page.prefix(300))")
        expectNoPassword(result, password, account)
    }
}

/// The world of Tests/LiveIdP/onprem.sh for this test process: installed when missing, started when the suite starts
/// (on ports of its own), stopped by PID when it ends.
final class OnPremisesWorld: Sendable {
    static let shared = OnPremisesWorld()

    let directory: String
    let port: Int

    static let script: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("Tests/LiveIdP/onprem.sh").path
    }()

    private init() {
        directory = NSTemporaryDirectory() + "spc-onprem-" + UUID().uuidString
        // Not the ports of the other worlds (20000 + and 40000 + pid % 20000): six from here.
        port = 60_000 + Int(getpid() % 5_000)
    }

    /// A variable of the world's `onprem.env` (`NAME='value'` lines).
    func value(_ name: String) throws -> String {
        let text = try String(contentsOfFile: directory + "/onprem.env", encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix(name + "=") {
            var value = line.dropFirst(name.count + 1)
            if value.hasPrefix("'") && value.hasSuffix("'") && value.count >= 2 { value = value.dropFirst().dropLast() }
            return String(value)
        }
        throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(name) not in onprem.env"])
    }

    /// The first line of the file a variable names (a password the world made).
    func secret(_ fileVariable: String) throws -> String {
        try String(contentsOfFile: try value(fileVariable), encoding: .utf8)
            .split(separator: "\n").first.map(String.init) ?? ""
    }

    static var canRun: Bool { isInstalled || LiveIdentityProvider.canInstall }
    static var cannotRunComment: Comment {
        Comment(
            rawValue: "the KDC, Apache mod_auth_gssapi and python3-venv are not installed and apt-get cannot be used "
                + "here (run Tests/LiveIdP/onprem.sh install)")
    }
    private static var isInstalled: Bool {
        ["/usr/sbin/krb5kdc", "/usr/bin/kinit", "/usr/lib/apache2/modules/mod_auth_gssapi.so", "/usr/sbin/apache2"]
            .allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }

    /// Installs (always: the script also makes its Python venv, and does nothing when all is there), starts the
    /// world, runs the suite, stops it.
    struct Scope: SuiteTrait, TestScoping {
        var isRecursive: Bool { false }

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let world = OnPremisesWorld.shared
            let stopped = try await LiveIdentityProvider.within(
                script: OnPremisesWorld.script, directory: world.directory, installed: false,
                environment: ["ONPREM_PORT": String(world.port)], performing: function)
            if stopped { _ = try await runProgram("/bin/rm", ["-rf", world.directory]) }
        }
    }
}
