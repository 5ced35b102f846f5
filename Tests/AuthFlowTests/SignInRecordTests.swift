import AuthFlow
import Foundation
import SPSim
import Testing
import Transport

/// The last sign-in record beside the session file: round trip, mode, independence from the session, and no secret
/// in the file after real sign-ins against the simulator.
@Suite struct SignInRecordTests {
    let directory = NSTemporaryDirectory() + "spconnect-record-\(UUID().uuidString)"

    static let record = SignInRecord(
        at: Date(timeIntervalSince1970: 1_800_000_000.25), succeeded: false,
        message: "the sign-in was rejected: Your password is incorrect (code 50126). Check the user name and password.",
        steps: [
            SignInRecord.Step(
                step: 1, method: "GET", host: "contoso.sharepoint.com", purpose: "start", status: 302,
                decision: "HTTP 302 redirect", cookiesSet: ["SPOIDCRL"]),
            SignInRecord.Step(
                step: 2, method: "POST", host: "127.0.0.2:8443", purpose: "filled UserName and Password", status: 200,
                pageKind: "credential-form", decision: "forms: stop", fieldsSent: ["UserName", "Password", "ctx"]),
        ])

    @Test func roundTripsWithMode0600BesideTheSessionFile() throws {
        let store = SessionStore(directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try store.lastSignIn(profile: "work") == nil)
        try store.saveLastSignIn(Self.record, profile: "work")
        let path = try store.lastSignInPath(for: "work")
        #expect(path == directory + "/work.signin.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names == ["work.signin.json"], "no temporary file left, no session file made")
        #expect(try store.lastSignIn(profile: "work") == Self.record)
        #expect(try store.load(profile: "work") == nil)

        var newer = Self.record
        newer.succeeded = true
        newer.at = newer.at.addingTimeInterval(60)
        try store.saveLastSignIn(newer, profile: "work")
        #expect(try store.lastSignIn(profile: "work") == newer)
        #expect(try store.lastSignIn(profile: "other") == nil)
    }

    @Test func savingARecordLeavesTheSessionFileAloneAndRemoveDeletesBoth() throws {
        let store = SessionStore(directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = Session(
            siteURL: "http://127.0.0.1", user: "alice@contoso.test", flow: "entra",
            provedAt: Date(timeIntervalSince1970: 1_800_000_000),
            cookies: [Cookie(name: "FedAuth", value: "fedauth-value", domain: "127.0.0.1")])
        try store.save(session, profile: "work")
        let before = FileManager.default.contents(atPath: try store.path(for: "work"))
        try store.saveLastSignIn(Self.record, profile: "work")
        #expect(FileManager.default.contents(atPath: try store.path(for: "work")) == before)
        try store.remove(profile: "work")
        #expect(!FileManager.default.fileExists(atPath: try store.path(for: "work")))
        #expect(!FileManager.default.fileExists(atPath: try store.lastSignInPath(for: "work")))
        try store.remove(profile: "work")
    }

    @Test func aCorruptRecordIsATypedErrorAndBadProfilesAreRefused() throws {
        let store = SessionStore(directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "{\"at\": 1}".write(toFile: try store.lastSignInPath(for: "broken"), atomically: true, encoding: .utf8)
        let path = try store.lastSignInPath(for: "broken")
        chmod(path, 0o600)
        #expect {
            _ = try store.lastSignIn(profile: "broken")
        } throws: { error in
            guard case .unreadableSignInRecord(let reported, let reason) = error as? SessionStore.StoreError else {
                return false
            }
            return reported == path && reason.contains("'at'") && "\(error)".contains("only a summary")
                && !"\(error)".contains("session file")
        }
        #expect(throws: SessionStore.StoreError.invalidProfileName("../x")) {
            try store.saveLastSignIn(Self.record, profile: "../x")
        }
    }

    @Test func theSourceIsKeptAndARecordWithoutOneStillReads() throws {
        let store = SessionStore(directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var record = Self.record
        record.source = "spconnect login"
        try store.saveLastSignIn(record, profile: "work")
        #expect(try store.lastSignIn(profile: "work")?.source == "spconnect login")
        let older = #"{"at":"2026-11-28T10:00:00.000Z","message":"Signed in.","steps":[],"succeeded":true}"#
        try older.write(toFile: try store.lastSignInPath(for: "work"), atomically: true, encoding: .utf8)
        chmod(try store.lastSignInPath(for: "work"), 0o600)
        let read = try #require(try store.lastSignIn(profile: "work"))
        #expect(read.source == nil && read.succeeded && read.message == "Signed in." && read.hints.isEmpty)
    }

    /// The record keeps the outcome's hints typed, in the engine's words with no front end's option, and reads
    /// them back as they were.
    @Test func hintsAreKeptTypedAndWordedByNoFrontEnd() throws {
        let store = SessionStore(directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = SignInOutcome.unknownPage(
            kind: "other", url: "https://idp.contoso.test/x", dumpPath: nil,
            hints: [.allowHost("idp.contoso.test"), .tryFlows([.adfs, .forms]), .chooseSecondFactorMethod([.totp])])
        let record = SignInRecord(
            outcome: outcome, trace: [], at: Date(timeIntervalSince1970: 1_800_000_000.25), source: "spconnect login")
        #expect(record.hints == outcome.hints && record.hints.last == .savePages)
        try store.saveLastSignIn(record, profile: "work")
        let read = try #require(try store.lastSignIn(profile: "work"))
        #expect(read == record)
        let text = try String(contentsOfFile: try store.lastSignInPath(for: "work"), encoding: .utf8)
        #expect(text.contains(#"{"hint":"allowHost","host":"idp.contoso.test"}"#), "\(text)")
        #expect(!text.contains("--"), "a command-line option in the record: \(text)")
    }

    @Test func aTraceStepKeepsOnlyItsHost() throws {
        let line = """
            {"cookiesSet":["MSISAuth"],"decision":"forms: next","fieldsSent":["UserName","Password"],"method":"POST",\
            "pageKind":"auto-post","purpose":"filled UserName and Password","status":200,"step":3,\
            "url":"http://127.0.0.2:8443/adfs/ls/?wa=wsignin1.0&wctx=<redacted>"}
            """
        let step = try JSONDecoder().decode(SignInTraceStep.self, from: Data(line.utf8))
        let reduced = SignInRecord.Step(step)
        #expect(reduced.host == "127.0.0.2:8443")
        #expect(reduced.cookiesSet == ["MSISAuth"])
        #expect(reduced.fieldsSent == ["UserName", "Password"])
        #expect(
            SignInRecord.Step.host(of: "https://login.microsoftonline.com/common/oauth2/authorize?code=x")
                == "login.microsoftonline.com")
        #expect(SignInRecord.Step.host(of: "not a url") == "?")
    }

    /// Signs in against the simulator as `spconnect login` does, saves the record, and returns the file's text.
    func signInAndRecord(mode: SignInMode, password: String) async throws -> (SignInOutcome, String, Simulator) {
        let simulator = try Simulator(SimulatorOptions(mode: mode))
        let client = try HTTPClient()
        let collector = SignInTraceCollector()
        let outcome = await SignIn(
            client: client,
            configuration: SignInConfiguration(
                siteURL: simulator.siteURL, username: "alice@contoso.test", password: Secret(password),
                policy: SignInPolicy(allowHTTPLoopback: true)),
            options: SignIn.Options(trace: collector.add)
        ).run()
        let store = SessionStore(directory: directory)
        try store.saveLastSignIn(SignInRecord(outcome: outcome, trace: collector.steps), profile: "default")
        let text = try String(contentsOfFile: try store.lastSignInPath(for: "default"), encoding: .utf8)
        return (outcome, text, simulator)
    }

    @Test(arguments: [SignInMode.entra, .adfs, .fba])
    func theFileHoldsNoPasswordCookieValueOrQuery(mode: SignInMode) async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (outcome, text, simulator) = try await signInAndRecord(mode: mode, password: "Spring2026!")
        defer { simulator.stop() }
        guard case .signedIn(let session) = outcome else {
            Issue.record("\(mode): \(outcome.message)")
            return
        }
        let record = try #require(try SessionStore(directory: directory).lastSignIn(profile: "default"))
        #expect(record.succeeded)
        #expect(record.message == outcome.message)
        #expect(record.steps.count > 2)
        #expect(record.steps.allSatisfy { !$0.host.contains("/") && !$0.host.contains("?") })
        #expect(record.steps.contains { $0.fieldsSent.contains { $0.lowercased().contains("pass") } })
        #expect(record.steps.contains { $0.cookiesSet.contains("FedAuth") })
        #expect(!text.contains("Spring2026!"))
        for cookie in session.cookies { #expect(!text.contains(cookie.value), "\(cookie.name)'s value leaked") }
        let log = simulator.requestLog()
        for request in log where !request.query.isEmpty {
            #expect(!text.contains(request.query), "a query string leaked: \(request.query)")
        }
        for field in log.flatMap(\.formFields) where field.value.count >= 16 && field.value != "alice@contoso.test" {
            #expect(!text.contains(field.value), "the value of \(field.name) leaked")
        }
        #expect(text.range(of: #"\?[\w.%-]+="#, options: .regularExpression) == nil, "no query string at all")
    }

    @Test func aWrongPasswordIsRecordedAsFailedWithoutThePassword() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (outcome, text, simulator) = try await signInAndRecord(mode: .entra, password: "Autumn2025?")
        defer { simulator.stop() }
        guard case .invalidCredentials = outcome else {
            Issue.record("expected invalidCredentials, got \(outcome.message)")
            return
        }
        let record = try #require(try SessionStore(directory: directory).lastSignIn(profile: "default"))
        #expect(!record.succeeded)
        #expect(record.message.contains("Check the user name and password"))
        #expect(!record.steps.isEmpty)
        #expect(!text.contains("Autumn2025"))
    }
}
