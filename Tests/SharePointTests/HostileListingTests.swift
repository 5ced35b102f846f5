import Foundation
import SharePoint
import Synchronization
import TestSupport
import Testing
import Transport

/// Listings against a raw loopback server that never lets them end, or sends them elsewhere: each stops with an
/// error that says why, after a bounded number of requests, and no request leaves the site's origin.
@Suite struct HostileListingTests {
    /// A site client on `baseURL` with a digest already cached (so a POST is the only request).
    static func site(_ baseURL: String) throws -> SharePointSite {
        let site = SharePointSite(
            client: try HTTPClient(), siteURL: baseURL + "/", readRetry: RetryPolicy(maxAttempts: 1),
            writeRetry: RetryPolicy(maxAttempts: 1))
        site.cacheDigest("0x1,01 Jan 2026 00:00:00 -0000", validFor: .seconds(3600))
        return site
    }

    static func json(_ body: String) -> RawHTTPSite.Answer {
        .bytes(RawHTTPSite.response(status: 200, contentType: "application/json;odata=nometadata", body: body))
    }

    /// A change log whose full pages go back and forth between two tokens: before, read for ever.
    @Test(.timeLimit(.minutes(1))) func aChangeLogThatGoesBackIsAnError() async throws {
        let calls = Mutex(0)
        let server = try RawHTTPSite { _ in
            let number = calls.withLock {
                $0 += 1
                return $0
            }
            let token = "1;3;6f1e0b3a-0000-4000-8000-000000000001;638000000000000000;\(number % 2 == 0 ? 20 : 10)"
            let change = #"{"ChangeType":2,"ItemId":1,"ChangeToken":{"StringValue":"\#(token)"}}"#
            return Self.json(#"{"value":[\#(change),\#(change)]}"#)
        }
        defer { server.stop() }
        let site = try Self.site(server.baseURL)
        let error = await sharePointError {
            _ = try await site.allChanges(in: .title("Tasks"), since: nil, fetchLimit: 2)
        }
        #expect(error?.message?.contains("went back") == true, "\(String(describing: error))")
        #expect(calls.withLock { $0 } <= 3)
    }

    /// A next link to another origin would carry the site's credentials there: it is not followed.
    @Test(.timeLimit(.minutes(1))) func aNextLinkToAnotherOriginIsNotFollowed() async throws {
        let server = try RawHTTPSite { _ in
            Self.json(#"{"value":[{"Id":1,"Title":"a"}],"odata.nextLink":"http://127.0.0.9:1/_api/steal"}"#)
        }
        defer { server.stop() }
        let site = SharePointSite(
            client: try HTTPClient(), siteURL: server.baseURL + "/",
            authentication: .basic(user: "alice", password: Secret("p4ss")), readRetry: RetryPolicy(maxAttempts: 1))
        var pages = site.items(in: .title("Tasks")).makeAsyncIterator()
        let first = try await pages.next()
        #expect(first?.items.count == 1, "the page that carried the link keeps its items")
        let error = await sharePointError { _ = try await pages.next() }
        #expect(error?.message?.contains("another site") == true, "\(String(describing: error))")
        #expect(server.requests.count == 1)
    }

    /// Empty pages, each with a new next link, without end: the listing stops after the limit.
    @Test(.timeLimit(.minutes(2))) func emptyPagesWithoutEndStop() async throws {
        let calls = Mutex(0)
        let base = Mutex("")
        let server = try RawHTTPSite { _ in
            let number = calls.withLock {
                $0 += 1
                return $0
            }
            let link = base.withLock { $0 } + "/_api/web/lists/getbytitle('Tasks')/items?p=\(number)"
            return Self.json(#"{"value":[],"odata.nextLink":"\#(link)"}"#)
        }
        base.withLock { $0 = server.baseURL }
        defer { server.stop() }
        let site = try Self.site(server.baseURL)
        let error = await sharePointError {
            for try await _ in site.items(in: .title("Tasks")) {}
        }
        #expect(error?.message?.contains("without an item") == true, "\(String(describing: error))")
        #expect((1000...1001).contains(calls.withLock { $0 }))
    }
}
