import Foundation
import Testing
import Transport

@testable import AuthFlow
@testable import AuthFlowCore

/// `SignInMachine` driven as a plain value, with no network and no clock but the one it is given: a corpus sign-in
/// page, the identity provider's answer and the proof are fed in by hand, and copies of the machine taken midway go
/// on independently (each strategy's state travels with its copy).
@Suite struct MachineValueTests {
    typealias Corpus = CorpusEngineTests

    static let site = "https://contoso.sharepoint.test"
    /// A fixed clock, far from now, so that a session stamped by the system clock would show.
    static let clock = Date(timeIntervalSince1970: 1_700_000_000)

    static func machine() -> SignInMachine {
        SignInMachine(
            SignInConfiguration(siteURL: site, username: "alice@contoso.test", password: Secret(Corpus.password)),
            now: { clock })
    }

    /// The identity provider's answer to the credentials: back to the site with its session cookies set.
    static func backToTheSite(from url: String) -> SignInResponse {
        SignInResponse(
            url: url, status: 302, headers: [("Location", site + "/")], location: site + "/", body: [],
            siteCookies: [
                Cookie(name: "FedAuth", value: "77u/PD94bWwgdmVyc2lvbj0iMS4w", domain: "contoso.sharepoint.test")
            ])
    }

    static func proofAnswer(_ url: String) -> SignInResponse {
        SignInResponse(
            url: url, status: 200, headers: [("Content-Type", "application/json")], location: nil,
            body: Array(#"{"Title":"Alice Example","LoginName":"i:0#.f|membership|alice@contoso.test"}"#.utf8),
            siteCookies: [
                Cookie(name: "FedAuth", value: "77u/PD94bWwgdmVyc2lvbj0iMS4w", domain: "contoso.sharepoint.test")
            ])
    }

    /// The first page of the corpus whose manifest calls it a one-step credential form.
    static func credentialPage() throws -> SignInResponse {
        let entry = try #require(
            Corpus.entries.first {
                $0.kind == "credential-form" && $0.password_field != nil && $0.username_field != nil
            },
            "the corpus has no credential form")
        return try Corpus.response(entry)
    }

    @Test func aRecordedSignInReplaysToASessionStampedByTheGivenClock() throws {
        var machine = Self.machine()
        guard case .send(let first) = machine.start() else {
            Issue.record("no first request")
            return
        }
        #expect(first.url.hasPrefix(Self.site + "/_layouts/15/Authenticate.aspx"))
        let page = try Self.credentialPage()
        guard case .send(let credentials) = machine.receive(page) else {
            Issue.record("the credential page was not filled")
            return
        }
        #expect(credentials.purpose == .credentials)
        guard case .send(let redirect) = machine.receive(Self.backToTheSite(from: credentials.url)) else {
            Issue.record("the redirect back was not followed")
            return
        }
        guard case .send(let proof) = machine.receive(Self.backToTheSite(from: redirect.url)) else {
            Issue.record("no proof request")
            return
        }
        #expect(proof.purpose == .proof)
        guard case .finish(.signedIn(let session)) = machine.receive(Self.proofAnswer(proof.url)) else {
            Issue.record("not signed in")
            return
        }
        #expect(session.provedAt == Self.clock)
        #expect(session.displayName == "Alice Example")
        #expect(machine.trace.count == 4)
    }

    @Test func copiesTakenMidwayGoOnIndependently() throws {
        var machine = Self.machine()
        _ = machine.start()
        let page = try Self.credentialPage()
        _ = machine.receive(page)
        // Two futures from the same point: in one the form comes back (a wrong password), in the other the
        // identity provider sends the browser home.
        var refused = machine
        var accepted = machine
        guard case .finish(.invalidCredentials) = refused.receive(page) else {
            Issue.record("the same form back after the password is not a rejection")
            return
        }
        guard case .send(let next) = accepted.receive(Self.backToTheSite(from: page.url)) else {
            Issue.record("the accepted copy did not go on")
            return
        }
        // The answer set the session cookie: the accepted copy proves it; the refused one sent nothing more.
        #expect(next.purpose == .proof)
        #expect(machine.trace.count == 2)
        #expect(refused.trace.count == 2)
        #expect(accepted.trace.count == 3)
        #expect(refused.trace.last?.decision?.contains("stop") == true, "\(refused.trace.last?.decision ?? "")")
    }
}
