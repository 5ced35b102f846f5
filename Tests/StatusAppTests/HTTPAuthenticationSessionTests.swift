import Foundation
import SPSim
import TestSupport
import Testing

@testable import spconnect_status

/// A session made by HTTP authentication holds no cookie to lend: the status app signs each request in as
/// spconnect's commands do (AuthFlow's `Session.requestAuthentication`), and says how it would renew.
@Suite struct HTTPAuthenticationSessionTests {
    @Test func aBasicSessionReadsTheListsWithThePasswordOnEveryRequest() async throws {
        let fixture = try await StatusFixture(mode: .basic, withPassword: true)
        defer { fixture.stop() }
        #expect(fixture.session.flow == "basic")
        let lists = try await fixture.get("/lists")
        #expect(lists.status == 200, "\(lists.text.prefix(600))")
        #expect(lists.text.contains("Tasks"), "\(lists.text.prefix(600))")
        let page = try await fixture.get("/")
        #expect(page.text.contains("Signed in as"), "\(page.text.prefix(800))")
        // The page names where a renewal's password would come from; this test's environment has no source.
        #expect(page.text.contains("HTTP Basic sends the password with every request"), "\(page.text.prefix(1200))")
        for text in [lists.text, page.text] { #expect(!text.contains(alicePassword)) }
    }

    @Test func aBasicSessionWithoutAPasswordIsNotSignedIn() async throws {
        let fixture = try await StatusFixture(mode: .basic, withPassword: false)
        defer { fixture.stop() }
        let status = try await fixture.get("/status.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any])
        #expect(json["healthy"] as? Bool == false, "\(json)")
        #expect((json["renewal"] as? String)?.contains("none possible") == true, "\(json)")
    }
}
