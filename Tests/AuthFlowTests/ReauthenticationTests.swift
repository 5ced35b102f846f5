import Foundation
import SPSim
import TestSupport
import Testing
import Transport

@testable import AuthFlow
@testable import AuthFlowCore

@Suite struct ReauthenticationTests {
    static func web(_ client: HTTPClient, _ site: String) async throws -> Int {
        try await client.execute(
            HTTPRequest(
                url: site + "/_api/web?$select=Title", headers: ["Accept": "application/json;odata=nometadata"])
        ).status
    }

    @Test func anExpiredSessionIsRenewedOnceEvenWhenManyAskAtOnce() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra))
        defer { simulator.stop() }
        guard let session = try await aliceSession(simulator) else { return }
        let directory = NSTemporaryDirectory() + "spconnect-reauth-\(UUID().uuidString)"
        let store = SessionStore(directory: directory)
        try store.save(session, profile: "p")

        // A fresh process: a new client whose jar is filled from the saved session.
        let client = try HTTPClient()
        let saved = try #require(try store.load(profile: "p"))
        try saved.install(into: client)
        #expect(try await Self.web(client, simulator.siteURL) == 200)

        simulator.expireSessions()
        #expect(try await Self.web(client, simulator.siteURL) == 403)

        let renewer = SessionReauthenticator(
            client: client, session: saved, store: store, profile: "p",
            password: { Secret(SimulatorSignInTests.password) })
        let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<5 { group.addTask { try await renewer.reauthenticate() } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers == Array(repeating: true, count: 5))
        #expect(await renewer.renewals == 1)
        #expect(try await Self.web(client, simulator.siteURL) == 200)
        let stored = try #require(try store.load(profile: "p"))
        #expect(
            stored.cookies.first { $0.name == "FedAuth" }?.value != saved.cookies.first { $0.name == "FedAuth" }?.value)
        // The renewal is the profile's last sign-in now.
        let record = try #require(try store.lastSignIn(profile: "p"))
        #expect(record.succeeded && record.source == "renewal")
        #expect(record.steps.contains { $0.host.hasPrefix("127.0.0.2:") })
    }

    /// A session read back from its file can carry a time one rounding step after the one saved: that is the same
    /// session, and a second renewal in one process must sign in again rather than take it for a newer one.
    @Test func aSessionReadBackIsNotNewerThanTheOneSaved() async throws {
        let drifting = try #require(
            (0..<10_000).lazy.map { Date(timeIntervalSinceReferenceDate: 8e8 + Double($0) * 0.000_123_7) }
                .first { Date(timeIntervalSince1970: $0.timeIntervalSince1970) > $0 })
        let readBack = Date(timeIntervalSince1970: drifting.timeIntervalSince1970)
        #expect(readBack > drifting, "a time that reads back later")
        #expect(!SessionReauthenticator.isNewer(readBack, than: drifting))
        #expect(SessionReauthenticator.isNewer(drifting.addingTimeInterval(1), than: drifting))

        // End to end: two expiries in one process, two renewals, each a real sign-in.
        let simulator = try Simulator(SimulatorOptions(mode: .entra))
        defer { simulator.stop() }
        guard let session = try await aliceSession(simulator) else { return }
        let store = SessionStore(directory: try temporaryDirectory("reauth-twice"))
        try store.save(session, profile: "p")
        let client = try HTTPClient()
        let saved = try #require(try store.load(profile: "p"))
        try saved.install(into: client)
        let renewer = SessionReauthenticator(
            client: client, session: saved, store: store, profile: "p",
            password: { Secret(SimulatorSignInTests.password) })
        for round in 1...2 {
            simulator.expireSessions()
            #expect(try await renewer.reauthenticate())
            #expect(try await Self.web(client, simulator.siteURL) == 200, "after renewal \(round)")
        }
        #expect(await renewer.renewals == 2)
    }

    /// A session signed in with `--cookie rtFa` and `--stay-signed-in`, saved and loaded by a later process,
    /// is renewed the same way: the renewal waits for the same cookie, and goes through the identity provider's own
    /// session (kept in the file) without posting the password or meeting "Stay signed in?" again.
    @Test func aRenewalSignsInTheWayTheUserDid() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra))
        defer { simulator.stop() }
        let run = try await SimulatorSignInTests.signIn(
            simulator, user: "alice@contoso.test", staySignedIn: true, targetCookies: ["rtFa"])
        guard case .signedIn(let session) = run.outcome else {
            Issue.record("\(run.outcome.message)")
            return
        }
        let directory = NSTemporaryDirectory() + "spconnect-reauth-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SessionStore(directory: directory)
        try store.save(session, profile: "p")
        let saved = try #require(try store.load(profile: "p"))
        #expect(saved.targetCookies == ["rtFa"] && saved.staySignedIn)
        #expect(saved.identityProviderCookies.map(\.name) == ["ESTSAUTHPERSISTENT"])

        let client = try HTTPClient()
        try saved.install(into: client)
        simulator.expireSessions()
        #expect(try await Self.web(client, simulator.siteURL) == 403)
        let renewer = SessionReauthenticator(
            client: client, session: saved, store: store, profile: "p",
            password: { Secret(SimulatorSignInTests.password) })
        #expect(try await renewer.reauthenticate())
        #expect(try await Self.web(client, simulator.siteURL) == 200)
        let kmsiAnswers = simulator.requestLog().compactMap { request in
            request.formFields.first { $0.name == "LoginOptions" && request.path.hasSuffix("/kmsi") }?.value
        }
        #expect(kmsiAnswers == ["1"])
        #expect(simulator.passwordSignIns(for: "alice@contoso.test") == 1)
        let renewed = try #require(try store.load(profile: "p"))
        #expect(renewed.targetCookies == ["rtFa"] && renewed.staySignedIn)
        #expect(await renewer.current.targetCookies == ["rtFa"])
    }

    @Test func withoutCredentialsTheRenewalDeclinesAndWrongOnesThrow() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .fba))
        defer { simulator.stop() }
        let session = Session(
            siteURL: simulator.siteURL, user: "alice@contoso.test", flow: "fba", provedAt: Date(),
            policy: SignInPolicy(allowHTTPLoopback: true), cookies: [])
        let client = try HTTPClient()
        let declining = SessionReauthenticator(client: client, session: session, password: { nil })
        #expect(try await declining.reauthenticate() == false)
        let directory = NSTemporaryDirectory() + "spconnect-reauth-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SessionStore(directory: directory)
        let wrong = SessionReauthenticator(
            client: client, session: session, store: store, profile: "p", password: { Secret("wrong") })
        await #expect(throws: SessionReauthenticator.Failure.self) { try await wrong.reauthenticate() }
        // The failure is recorded for the status page; the (absent) session file is not written.
        let record = try #require(try store.lastSignIn(profile: "p"))
        #expect(!record.succeeded)
        #expect(record.message.contains("Check the user name and password"))
        #expect(try store.load(profile: "p") == nil)
    }
}

@Suite struct SavedSessionTests {
    @Test func theRealCurlReadsTheWebWithASavedSignedInSession() async throws {
        let simulator = try Simulator(SimulatorOptions(mode: .entra))
        defer { simulator.stop() }
        guard let session = try await aliceSession(simulator) else { return }
        let store = SessionStore(directory: NSTemporaryDirectory() + "spconnect-curl-\(UUID().uuidString)")
        try store.save(session, profile: "curl")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = [
            "-s", "-w", "\n%{http_code}", "-b", try store.path(for: "curl"), "-H",
            "Accept: application/json;odata=nometadata", simulator.siteURL + "/_api/web?$select=Title",
        ]
        let output = String(decoding: try await runCollectingOutput(process).output, as: UTF8.self)
        #expect(output.hasSuffix("\n200"))
        #expect(output.contains(#""Title""#))
    }
}

/// Alice signed in to `simulator` through the entra flow, or nil with the failure recorded.
func aliceSession(_ simulator: Simulator) async throws -> Session? {
    let run = try await SimulatorSignInTests.signIn(simulator, user: "alice@contoso.test")
    guard case .signedIn(let session) = run.outcome else {
        Issue.record("\(run.outcome.message)")
        return nil
    }
    return session
}
