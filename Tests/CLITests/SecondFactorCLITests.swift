import Cryptography
import Foundation
import SPSim
import TestSupport
import Testing

/// `spconnect login` through Entra's second factor against spsim's `ConvergedTFA`: a push approved (with the
/// number to enter shown), denied and unanswered; TOTP codes from `--totp-secret-file` and `--otp-command`; an SMS
/// code typed at a prompt under a pseudo-terminal; a wrong code then the right one; and the typed stops when no
/// method can be answered. No code and no secret appears in any output or trace.
@Suite struct SecondFactorCLITests {
    static let password = "Spring2026!"
    /// The RFC 6238 test secret ("12345678901234567890"), base32.
    static let totpSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    static let users: [SimulatedUser] = [
        SimulatedUser(
            email: "push.ok@contoso.test", password: password, displayName: "Push Approves", mfa: true,
            secondFactor: SecondFactorProfile(pendingPolls: 1, numberMatch: 42)),
        SimulatedUser(
            email: "push.deny@contoso.test", password: password, displayName: "Push Denies", mfa: true,
            secondFactor: SecondFactorProfile(push: .deny)),
        SimulatedUser(
            email: "push.silent@contoso.test", password: password, displayName: "Push Silent", mfa: true,
            secondFactor: SecondFactorProfile(push: .noAnswer)),
        SimulatedUser(
            email: "totp@contoso.test", password: password, displayName: "Totp User", mfa: true,
            secondFactor: SecondFactorProfile(methods: ["PhoneAppOTP"], totpSecret: totpSecret)),
        SimulatedUser(
            email: "sms@contoso.test", password: password, displayName: "Sms User", mfa: true,
            secondFactor: SecondFactorProfile(methods: ["OneWaySMS"])),
        SimulatedUser(
            email: "key@contoso.test", password: password, displayName: "Key User", mfa: true,
            secondFactor: SecondFactorProfile(methods: ["FidoKey"])),
    ]

    /// The texts of every file under `folder` (sessions, records, traces).
    static func texts(under folder: String) -> [String] {
        let paths = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
        return paths.compactMap { FileManager.default.contents(atPath: folder + "/" + $0) }.map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    static func fixture(mode: SignInMode = .entra) async throws -> CLIFixture {
        var sessions = EntraSessionOptions()
        sessions.pollIntervalSeconds = 0.05
        return try await CLIFixture(mode: mode, signIn: false, users: users, entraSessions: sessions)
    }

    /// `login` as `user` with `extra` options, the password on standard input, a trace in the state folder.
    static func login(
        _ fixture: CLIFixture, _ user: String, _ extra: [String] = [], environment: [String: String] = [:]
    )
        async throws -> (result: RunResult, trace: String)
    {
        let trace = fixture.state + "/trace-\(UUID().uuidString).jsonl"
        let result = try await fixture.run(
            [
                "login", "--site", fixture.sim.siteURL, "--user", user, "--password-stdin", "--allow-http-loopback",
                "--trace", trace,
            ] + extra, stdin: password + "\n", extra: environment)
        let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        return (result, text)
    }

    @Test func anApprovedPushSignsInAndShowsTheNumberToEnter() async throws {
        let fixture = try await Self.fixture()
        let (run, trace) = try await Self.login(fixture, "push.ok@contoso.test")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Approve the sign-in on your phone: enter 42"), "\(run.stderr)")
        #expect(trace.contains("BeginAuth with PhoneAppNotification"))
        #expect(trace.contains("ProcessAuth"))
        let whoami = try await fixture.run(["whoami"])
        #expect(whoami.status == 0 && whoami.stdout.contains("Push Approves"), "\(whoami.stdout)\(whoami.stderr)")
    }

    @Test func aDeniedPushIsExit4WithItsOwnMessage() async throws {
        let fixture = try await Self.fixture()
        let (run, _) = try await Self.login(fixture, "push.deny@contoso.test")
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stderr.contains("denied on the phone"), "\(run.stderr)")
    }

    @Test func anUnansweredPushTimesOut() async throws {
        let fixture = try await Self.fixture()
        let (run, _) = try await Self.login(fixture, "push.silent@contoso.test")
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stderr.contains("was not approved within"), "\(run.stderr)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/oathtool"), "needs oathtool"))
    func totpCodesFromASecretFileAndFromACommandSignIn() async throws {
        let fixture = try await Self.fixture()
        let secretFile = fixture.state + "/totp-secret"
        _ = FileManager.default.createFile(
            atPath: secretFile, contents: Data(Self.totpSecret.utf8), attributes: [.posixPermissions: 0o600])
        let fromFile = try await Self.login(fixture, "totp@contoso.test", ["--totp-secret-file", secretFile])
        #expect(fromFile.result.status == 0, "\(fromFile.result.stderr)")
        #expect(fromFile.trace.contains("EndAuth with the totp code"))

        // The secret goes to oathtool on its standard input, never on a command line.
        let command = "oathtool --totp -b - < '\(secretFile)'"
        let fromCommand = try await Self.login(
            fixture, "totp@contoso.test", ["--mfa-method", "totp", "--otp-command", command])
        #expect(fromCommand.result.status == 0, "\(fromCommand.result.stderr)")
        // The codes of this run's time steps (either may have been sent), and the secret: in no output, trace,
        // session file or sign-in record.
        let now = Date()
        let generator = try TOTP(text: Self.totpSecret)
        let codes = [-30.0, 0, 30].map { generator.code(at: now.addingTimeInterval($0)) }
        var everything = [fromFile, fromCommand].map { $0.result.stdout + $0.result.stderr + $0.trace }
        everything += Self.texts(under: fixture.state).filter { !$0.hasPrefix(Self.totpSecret) }
        for text in everything {
            #expect(!text.contains(Self.totpSecret))
            for code in codes { #expect(!text.contains(code), "a one-time code is in an output or a file") }
        }
    }

    @Test func aWrongCodeThenTheRightOneSignsIn() async throws {
        let fixture = try await Self.fixture()
        let counter = fixture.state + "/asked"
        // The first code is wrong, the second is the one the text message gave.
        let command =
            "if [ -e '\(counter)' ]; then echo \(SecondFactorProfile.phoneCode); else touch '\(counter)'; echo 000111; fi"
        let (run, trace) = try await Self.login(fixture, "sms@contoso.test", ["--otp-command", command])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(trace.contains("attempt 2"), "\(trace)")
        let everything = run.stdout + run.stderr + trace
        #expect(!everything.contains(SecondFactorProfile.phoneCode) && !everything.contains("000111"))

        // Always wrong: the service's limit ends it, exit 4, in its words; no loop, no retry beyond the limit.
        let (wrong, wrongTrace) = try await Self.login(fixture, "sms@contoso.test", ["--otp-command", "echo 000111"])
        #expect(wrong.status == 4, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("too many times"), "\(wrong.stderr)")
        #expect(!wrongTrace.contains("attempt 4"))
    }

    @Test func anSMSCodeTypedAtAPromptUnderAPseudoTerminalSignsIn() async throws {
        let fixture = try await Self.fixture()
        let passwordFile = fixture.state + "/password"
        _ = FileManager.default.createFile(
            atPath: passwordFile, contents: Data((Self.password + "\n").utf8), attributes: [.posixPermissions: 0o600])
        // A small pty driver: answers the first prompt that asks for a code, then returns spconnect's output.
        let driver = """
            import os, pty, select, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            out, answered, deadline = b"", False, time.time() + 60
            while time.time() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if fd in ready:
                    try:
                        data = os.read(fd, 4096)
                    except OSError:
                        break
                    if not data:
                        break
                    out += data
                    if not answered and b"code" in out.lower():
                        os.write(fd, b"\(SecondFactorProfile.phoneCode)\\n")
                        answered = True
            _, status = os.waitpid(pid, 0)
            sys.stdout.buffer.write(out)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let output = fixture.state + "/pty-output"
        let status = await spawnToExit(
            "/usr/bin/env",
            [
                "python3", "-c", driver, spconnectPath, "login", "--site", fixture.sim.siteURL, "--user",
                "sms@contoso.test", "--password-file", passwordFile, "--allow-http-loopback",
            ],
            environment: fixture.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }, standardOutput: output)
        let text = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        #expect(status == 0, "\(text)")
        #expect(text.contains("One-time code (the code sent by text message)"), "\(text)")
        #expect(text.contains("Signed in as Sms User"), "\(text)")
    }

    @Test func withoutACodeSourceItNamesTheMethodsAndTheFlagsThatAnswerThem() async throws {
        let fixture = try await Self.fixture()
        let (run, _) = try await Self.login(fixture, "push.ok@contoso.test", ["--mfa-method", "sms"])
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stderr.contains("the code sent by text message"), "\(run.stderr)")
        #expect(run.stderr.contains("offers push, sms"), "\(run.stderr)")
        #expect(run.stderr.contains("--otp-command") && run.stderr.contains("--mfa-method push"), "\(run.stderr)")
    }

    @Test func aMethodTheAccountLacksOrCannotBeAnsweredIsSaid() async throws {
        let fixture = try await Self.fixture()
        let voice = try await Self.login(fixture, "push.ok@contoso.test", ["--mfa-method", "voice"])
        #expect(voice.result.status == 4, "\(voice.result.stderr)")
        #expect(voice.result.stderr.contains("does not offer voice"), "\(voice.result.stderr)")
        let key = try await Self.login(fixture, "key@contoso.test")
        #expect(key.result.status == 4, "\(key.result.stderr)")
        #expect(key.result.stderr.contains("FidoKey"), "\(key.result.stderr)")
        let unknown = try await Self.login(fixture, "push.ok@contoso.test", ["--mfa-method", "smoke"])
        #expect(unknown.result.status == 2, "\(unknown.result.stderr)")
    }

    /// ADFS's and SharePoint forms' own code pages after the password (generic one-time-code forms, read by their
    /// signals): a wrong code shows the page again and the next code signs in; without a code source it is exit 4.
    @Test(arguments: [SignInMode.adfs, .fba])
    func aFormsIdentityProviderAsksForACodeOnItsOwnPage(mode: SignInMode) async throws {
        let fixture = try await Self.fixture(mode: mode)
        let counter = fixture.state + "/asked"
        let command =
            "if [ -e '\(counter)' ]; then echo \(SecondFactorProfile.phoneCode); else touch '\(counter)'; echo 000111; fi"
        let (run, trace) = try await Self.login(fixture, "sms@contoso.test", ["--otp-command", command])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(trace.contains("VerificationCode") && trace.contains("attempt 2"), "\(trace)")
        let (none, _) = try await Self.login(fixture, "sms@contoso.test")
        #expect(none.status == 4, "\(none.stderr)")
        #expect(none.stderr.contains("one-time code") && none.stderr.contains("--otp-command"), "\(none.stderr)")
    }
}
