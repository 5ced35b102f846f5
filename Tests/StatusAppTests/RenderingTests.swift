import Foundation
import Presentation
import Testing

@testable import spconnect_status

/// The renderers alone, with hostile text in every field a server or identity provider controls.
@Suite struct RenderingTests {
    static let hostile = "<script>alert(1)</script>\"'&"
    static let now = Date(timeIntervalSince1970: 1_795_953_600)

    static var facts: StatusPages.SessionFacts {
        StatusPages.SessionFacts(
            profile: "p", siteURL: "javascript:alert(1)", user: hostile, displayName: hostile, flow: hostile,
            provedAt: now.addingTimeInterval(-60),
            cookies: [StatusPages.CookieFact(name: hostile, expires: now.addingTimeInterval(-5))],
            proof: StatusPages.ProofFact(at: now, latencyMilliseconds: 3, failure: hostile),
            lastSignIn: StatusPages.SignInFact(
                at: now, succeeded: false, message: hostile,
                steps: [
                    StatusPages.TraceFact(
                        step: 0, method: "GET", host: hostile, purpose: hostile, status: 200, pageKind: hostile,
                        decision: hostile)
                ]),
            health: .unhealthy(code: "session-gone", reason: hostile), canSignIn: true, csrfToken: "\"><x")
    }

    @Test func hostileFactsAreTextOnTheSessionPage() {
        let page = StatusPages.sessionPage(Self.facts, links: StatusPages.Links(), now: Self.now)
        #expect(!page.contains("<script"))
        #expect(!page.contains("href=\"javascript:"))
        #expect(page.contains("<a href=\"#\">javascript:alert(1)</a>"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"))
        #expect(page.contains("value=\"&quot;&gt;&lt;x\""))
        #expect(page.contains("expired 5s ago"))
        #expect(page.contains("The session has ended"))
        #expect(page.contains("The last sign-in failed"))
    }

    @Test func hostileFactsStayValidJSON() throws {
        let text = StatusPages.statusJSON(Self.facts, now: Self.now)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["user"] as? String == Self.hostile)
        #expect(json["state"] as? String == "session-gone")
        #expect(json["healthy"] as? Bool == false)
        let cookies = try #require(json["cookies"] as? [[String: Any]])
        #expect(cookies.first?["secondsLeft"] as? Int == -5)
        #expect(!text.contains("csrf"), "the CSRF token is for the form only")
    }

    @Test func otherPagesEscapeTitlesAndLinkWithTheToken() {
        let links = StatusPages.Links(token: "t&k")
        let lists = StatusPages.listsPage(
            [StatusPages.ListRow(title: Self.hostile, itemCount: 1, lastModified: nil, isPictureLibrary: true)],
            links: links, now: Self.now)
        #expect(!lists.contains("<script"))
        #expect(lists.contains("href=\"/photos/%3Cscript%3Ealert%281%29%3C%2Fscript%3E%22%27%26?token=t%26k\""))
        let gallery = StatusPages.galleryPage(
            library: Self.hostile,
            photos: [StatusPages.Photo(title: Self.hostile, serverRelativeURL: "/P/a.png", size: 2048, created: nil)],
            links: links)
        #expect(!gallery.contains("<script"))
        #expect(gallery.contains("src=\"/thumb?url=%2FP%2Fa.png&amp;token=t%26k\""))
        #expect(gallery.contains("2.0 KB"))
        let error = StatusPages.errorPage(
            StatusFailure(
                status: 502, title: Self.hostile, message: Self.hostile, detail: Self.hostile,
                onward: StatusFailure.Onward(label: Self.hostile, path: "/lists/x")),
            links: links)
        #expect(!error.contains("<script"))
        #expect(error.contains("href=\"/lists/x?token=t%26k\""))
        #expect(error.contains("<meta http-equiv=\"Content-Security-Policy\""))
    }
}
