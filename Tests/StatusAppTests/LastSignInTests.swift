import AuthFlow
import Foundation
import SPSim
import TestSupport
import Testing
import Transport

@testable import spconnect_status

/// The last sign-in the store keeps beside the session (written by `spconnect login`, renewals and the app itself)
/// on the page and in `/status.json`, whoever ran it.
@Suite struct LastSignInTests {
    /// Signs in to the fixture's simulator the way `spconnect login` does and saves its record for the profile.
    static func login(_ fixture: StatusFixture, password: String, at: Date) async throws -> SignInRecord {
        let collector = SignInTraceCollector()
        let outcome = await SignIn(
            client: try HTTPClient(),
            configuration: SignInConfiguration(
                siteURL: fixture.simulator.siteURL, username: alice, password: Secret(password),
                policy: SignInPolicy(allowHTTPLoopback: true)),
            options: SignIn.Options(trace: collector.add)
        ).run()
        let record = SignInRecord(outcome: outcome, trace: collector.steps, at: at, source: "spconnect login")
        try SessionStore(directory: fixture.storeDirectory).saveLastSignIn(record, profile: "test")
        return record
    }

    /// A failed login's hints are kept typed and worded by the app, never as the CLI's options.
    @Test func aFailedLoginsHintsAreShownInTheAppsWordsNotTheCLIs() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let outcome = SignInOutcome.unknownPage(
            kind: "other", url: "https://idp.contoso.test/x", dumpPath: nil, hints: [.allowHost("idp.contoso.test")])
        let record = SignInRecord(
            outcome: outcome, trace: [], at: StatusFixture.now.addingTimeInterval(-60), source: "spconnect login")
        try SessionStore(directory: fixture.storeDirectory).saveLastSignIn(record, profile: "test")
        let page = try await fixture.get("/")
        #expect(page.text.contains("If idp.contoso.test is yours, allow credentials to go to it."), "\(page.text)")
        #expect(page.text.contains("Save a redacted copy of the page for a bug report."))
        #expect(!page.text.contains("--allow-host") && !page.text.contains("--dump-pages"))
        let status = try await fixture.get("/status.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any])
        let hints = (json["lastSignIn"] as? [String: Any])?["hints"] as? [String]
        #expect(hints?.first == "if idp.contoso.test is yours, allow credentials to go to it.")
    }

    @Test func thePageShowsTheLoginsTraceWhenTheAppNeverSignedIn() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let before = try await fixture.get("/")
        #expect(!before.text.contains("Last sign-in"), "no record yet")

        let record = try await Self.login(
            fixture, password: alicePassword, at: StatusFixture.now.addingTimeInterval(-120))
        #expect(record.succeeded)
        let page = try await fixture.get("/")
        #expect(page.status == 200)
        #expect(page.text.contains("<h2>Last sign-in</h2>"))
        #expect(page.text.contains("Succeeded 2m ago, by spconnect login: signed in as"))
        let identityProvider = "127.0.0.2:" + (fixture.simulator.identityProviderURL.split(separator: ":").last ?? "")
        #expect(page.text.contains("POST \(identityProvider) (filled UserName and Password"))
        #expect(page.text.contains("<ol class=\"trace\""))
        #expect(!page.text.contains(alicePassword))
        #expect(!page.text.contains("The last sign-in failed"))

        let status = try await fixture.get("/status.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any])
        let signIn = try #require(json["lastSignIn"] as? [String: Any])
        #expect(signIn["ok"] as? Bool == true)
        #expect(signIn["source"] as? String == "spconnect login")
        #expect(signIn["message"] as? String == record.pageMessage)
        let steps = try #require(signIn["steps"] as? [[String: Any]])
        #expect(steps.count == record.steps.count)
        #expect(steps.allSatisfy { ($0["host"] as? String)?.contains("/") == false })
        #expect(steps.contains { ($0["fieldsSent"] as? [String])?.contains("Password") == true })
        #expect(steps.contains { ($0["cookiesSet"] as? [String])?.contains("FedAuth") == true })
        #expect(!status.text.contains(alicePassword))
        for cookie in fixture.session.cookies { #expect(!status.text.contains(cookie.value)) }
    }

    @Test func aFailedLoginShowsItsMessageWhileTheSavedSessionStillWorks() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let record = try await Self.login(fixture, password: "Autumn2025?", at: StatusFixture.now)
        #expect(!record.succeeded)
        let page = try await fixture.get("/")
        #expect(page.text.contains("class=\"state ok\""))
        #expect(page.text.contains("The last sign-in failed"))
        #expect(page.text.contains("Failed just now, by spconnect login: the sign-in was rejected"))
        #expect(!page.text.contains("Autumn2025?"))
        let json = try await fixture.get("/status.json")
        #expect(json.status == 200)
        #expect(json.text.contains("\"ok\": false"))
    }

    @Test func theNewestOfTheAppsOwnAndTheStoredSignInIsShown() async throws {
        let fixture = try await StatusFixture(withPassword: true, password: "Autumn2025?")
        defer { fixture.stop() }
        // The app's own sign-in fails (at the fixture's fixed now) and is saved to the store as well.
        let post = try await fixture.post(
            "/signin", fields: [("csrf", "csrf-token-1")], headers: ["Origin": fixture.baseURL])
        #expect(post.status == 303)
        let stored = try #require(try SessionStore(directory: fixture.storeDirectory).lastSignIn(profile: "test"))
        #expect(!stored.succeeded)
        #expect(stored.at == StatusFixture.now)
        #expect((try await fixture.get("/")).text.contains("The last sign-in failed"))

        // An older record in the store does not hide the app's own newer one...
        _ = try await Self.login(fixture, password: alicePassword, at: StatusFixture.now.addingTimeInterval(-60))
        #expect((try await fixture.get("/")).text.contains("The last sign-in failed"))
        // ...and a newer one (a later `spconnect login`) replaces it on the page.
        _ = try await Self.login(fixture, password: alicePassword, at: StatusFixture.now.addingTimeInterval(1))
        let page = try await fixture.get("/")
        #expect(!page.text.contains("The last sign-in failed"))
        #expect(page.text.contains("Succeeded"))
    }
}
