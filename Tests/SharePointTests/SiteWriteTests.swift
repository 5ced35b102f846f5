import Foundation
import SPSim
import SharePoint
import Testing
import Transport

extension SiteClientTests {
    @Suite struct Writes {
        @Test(arguments: [ODataFlavor.noMetadata, .verbose])
        func addUpdateDeleteWithEtags(flavor: ODataFlavor) async throws {
            let fixture = try SiteFixture(mode: .basic, flavor: flavor)
            defer { fixture.sim.stop() }
            let site = fixture.site
            let list = ListPath.title("Tasks")

            let added = try await site.addItem(to: list, fields: [("Title", "Written by the client"), ("Priority", 2)])
            #expect(added.id == 21)
            #expect(added.etag == "\"1\"")
            #expect(added["Title"]?.stringValue == "Written by the client")

            let read = try await site.item(in: list, id: added.id)
            let etag = try #require(read.etag)
            let newEtag = try await site.updateItem(in: list, id: added.id, fields: [("Title", "Changed")], etag: etag)
            #expect(newEtag == "\"2\"")
            #expect(try await site.item(in: list, id: added.id)["Title"]?.stringValue == "Changed")

            let stale = await sharePointError {
                _ = try await site.updateItem(in: list, id: added.id, fields: [("Title", "Lost update")], etag: etag)
            }
            #expect(stale?.kind == .preconditionFailed)
            #expect(stale?.status == 412)
            #expect(stale?.url?.hasSuffix("getbytitle('Tasks')/items(21)") == true)
            #expect(try await site.item(in: list, id: added.id)["Title"]?.stringValue == "Changed")

            let injected = await sharePointError {
                _ = try await site.updateItem(
                    in: list, id: added.id, fields: [("Title", "x")], etag: "\"2\"\r\nX-Evil: 1")
            }
            #expect(injected?.kind == .badRequest)
            #expect(injected?.status == 0)

            let staleDelete = await sharePointError { try await site.deleteItem(in: list, id: added.id, etag: etag) }
            #expect(staleDelete?.kind == .preconditionFailed)
            try await site.deleteItem(in: list, id: added.id, etag: try #require(newEtag))
            let gone = await sharePointError { _ = try await site.item(in: list, id: added.id) }
            #expect(gone?.kind == .itemNotFound)

            // The update tunnels through POST with MERGE and IF-MATCH, and every write carried the digest.
            let writes = fixture.logged("/items", method: "POST")
            #expect(writes.count == 5)
            #expect(writes.allSatisfy { $0.headerNames.map { $0.lowercased() }.contains("x-requestdigest") })
            // One digest for all writes (cached per web).
            #expect(fixture.logged("/_api/contextinfo").count == 1)
            if flavor == .verbose {
                // The entity type was read once from the list, for `__metadata.type`.
                #expect(
                    fixture.logged("getbytitle('Tasks')", method: "GET").filter {
                        $0.query.contains("ListItemEntityTypeFullName")
                    }.count == 1)
            }
        }

        @Test func expiredDigestIsRefreshedOnceAndTheWriteRetried() async throws {
            let fixture = try SiteFixture(mode: .basic)
            defer { fixture.sim.stop() }
            fixture.site.cacheDigest("0xDEAD,01 Jan 2026 00:00:00 -0000", validFor: .seconds(3600))
            let item = try await fixture.site.addItem(to: .title("Projects"), fields: [("Title", "After refresh")])
            #expect(item["Title"]?.stringValue == "After refresh")
            let log = fixture.sim.requestLog().filter { $0.path.hasPrefix("/_api") }
            #expect(log.map(\.status) == [403, 200, 201])
            #expect(log.map { $0.path.lowercased() }[1] == "/_api/contextinfo")

            // Anonymous users cannot write: access denied straight away, no digest loop.
            let anonymous = try SiteFixture(mode: .anonymous)
            defer { anonymous.sim.stop() }
            let refused = await sharePointError {
                _ = try await anonymous.site.addItem(to: .title("Projects"), fields: [("Title", "x")])
            }
            #expect(refused?.kind == .accessDenied)
        }

        @Test func digestIsRefreshedBeforeItExpires() async throws {
            var faults = FaultSpec()
            faults.digestLifetimeSeconds = 3
            let fixture = try SiteFixture(mode: .basic, faults: faults, digestRefreshMargin: .seconds(2))
            defer { fixture.sim.stop() }
            _ = try await fixture.site.addItem(to: .title("Projects"), fields: [("Title", "one")])
            _ = try await fixture.site.addItem(to: .title("Projects"), fields: [("Title", "two")])
            #expect(fixture.logged("/_api/contextinfo").count == 1)
            try await Task.sleep(for: .milliseconds(1200))
            _ = try await fixture.site.addItem(to: .title("Projects"), fields: [("Title", "three")])
            #expect(fixture.logged("/_api/contextinfo").count == 2)
            #expect(fixture.sim.requestLog().allSatisfy { $0.status != 403 }, "refreshed before the server refused it")
        }

        /// 503s without `Retry-After`: the client's own exponential back-off, then the answer.
        @Test func throttlingWithoutRetryAfterBacksOffAndSucceeds() async throws {
            let faults = try FaultSpec(parsing: "status503=2,noRetryAfter")
            let fixture = try SiteFixture(
                mode: .anonymous, faults: faults,
                readRetry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(200)))
            defer { fixture.sim.stop() }
            let start = ContinuousClock.now
            #expect(try await fixture.site.web().title == "SPSim Team")
            #expect(fixture.logged("/_api/web").map(\.status) == [503, 503, 200])
            // Half of 200 ms, then half of 400 ms, at least (the jitter).
            #expect(ContinuousClock.now - start >= .milliseconds(300))
        }

        /// 429 with Retry-After: reads are retried by Transport, then surfaced as throttled; a non-repeatable
        /// write (add item) is not repeated; a safe write (MERGE with IF-MATCH) is.
        @Test func throttlingHonoursRetryAfter() async throws {
            var faults = FaultSpec()
            faults.status429 = 2
            faults.retryAfterSeconds = 1
            let fixture = try SiteFixture(mode: .anonymous, faults: faults, readRetry: RetryPolicy(maxAttempts: 3))
            defer { fixture.sim.stop() }
            let start = ContinuousClock.now
            let web = try await fixture.site.web()
            #expect(web.title == "SPSim Team")
            #expect(fixture.logged("/_api/web").map(\.status) == [429, 429, 200])
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(1900), "waited Retry-After (1 s) twice")

            var exhausted = FaultSpec()
            exhausted.status503 = 5
            exhausted.retryAfterSeconds = 1
            let busy = try SiteFixture(mode: .anonymous, faults: exhausted, readRetry: RetryPolicy(maxAttempts: 2))
            defer { busy.sim.stop() }
            let error = await sharePointError { _ = try await busy.site.lists() }
            #expect(error?.kind == .throttled)
            #expect(error?.kind.retryAfter == 1)
            #expect(error?.isRetryable == true)
            #expect(busy.logged("/_api/web/lists").map(\.status) == [503, 503])

            var once = FaultSpec()
            once.status429 = 1
            once.retryAfterSeconds = 1
            let writes = try SiteFixture(mode: .basic, faults: once)
            defer { writes.sim.stop() }
            writes.site.cacheDigest("0xBAD,01 Jan 2026 00:00:00 -0000", validFor: .seconds(3600))
            let throttledAdd = await sharePointError {
                _ = try await writes.site.addItem(to: .title("Projects"), fields: [("Title", "maybe twice")])
            }
            #expect(throttledAdd?.kind == .throttled)
            #expect(throttledAdd?.kind.retryAfter == 1)
            #expect(writes.logged("/items", method: "POST").count == 1, "creating an item is never repeated")

            writes.sim.clearRequestLog()
            let throttledAgain = try SiteFixture(mode: .basic, faults: once)
            defer { throttledAgain.sim.stop() }
            throttledAgain.site.cacheDigest("0xBAD,01 Jan 2026 00:00:00 -0000", validFor: .seconds(3600))
            _ = try await throttledAgain.site.updateItem(in: .title("Projects"), id: 1, fields: [("Title", "Safe")])
            let log = throttledAgain.sim.requestLog().map { "\($0.status) \($0.path.lowercased())" }
            #expect(
                log == [
                    "429 /_api/web/lists/getbytitle('projects')/items(1)",
                    "403 /_api/web/lists/getbytitle('projects')/items(1)", "200 /_api/contextinfo",
                    "204 /_api/web/lists/getbytitle('projects')/items(1)",
                ])
        }
    }

    @Suite struct Reauthentication {
        /// The FedAuth expires between two pages: one sign-in, the same next link again, and the listing goes on;
        /// also when the refused page was requested ahead, while the caller was reading the one before.
        @Test(arguments: [false, true])
        func expiredCookieMidListingSignsInOnceAndContinues(readingAhead: Bool) async throws {
            let sim = try Simulator(SimulatorOptions(mode: .fba, items: 1000))
            defer { sim.stop() }
            let client = try HTTPClient()
            #expect(try await SOAPReauthenticator.login(client: client, siteURL: sim.siteURL))
            let reauth = SOAPReauthenticator(client: client, siteURL: sim.siteURL)
            let site = SharePointSite(
                client: client, siteURL: sim.siteURL, reauthenticate: { try await reauth.reauthenticate() })
            let listing = site.items(in: .title("Big"), query: ODataQuery(top: 100))
            var iterator = (readingAhead ? listing.readingAhead() : listing).makeAsyncIterator()
            var ids: [Int] = []
            var pages = 0
            while let page = try await iterator.next() {
                pages += 1
                ids += page.items.map(\.id)
                if pages == 3 { sim.expireSessions() }
            }
            #expect(ids == Array(1...1000))
            #expect(reauth.calls == 1)
            let requests = sim.requestLog().filter { $0.path.lowercased().contains("/items") }
            #expect(requests.map(\.status).filter { $0 == 403 }.count == 1)
            #expect(requests.count == 11)
            // The refused page was asked for again with the very same link.
            let refused = try #require(requests.firstIndex { $0.status == 403 })
            #expect(requests[refused].query == requests[refused + 1].query)
            #expect(requests[refused].cookies["FedAuth"] != requests[refused + 1].cookies["FedAuth"])
        }

        @Test func aSecondRefusalFailsClearly() async throws {
            let sim = try Simulator(SimulatorOptions(mode: .fba))
            defer { sim.stop() }
            let client = try HTTPClient()
            let reauth = SOAPReauthenticator(
                client: client, siteURL: sim.siteURL, password: "wrong", claimSuccess: true)
            let site = SharePointSite(
                client: client, siteURL: sim.siteURL, reauthenticate: { try await reauth.reauthenticate() })
            let error = await sharePointError { _ = try await site.web() }
            guard error?.kind == .formsAuthRequired, let login = error?.kind.loginURL else {
                Issue.record("expected formsAuthRequired, got \(String(describing: error))")
                return
            }
            #expect(login.hasPrefix(sim.siteURL + "/_forms/default.aspx"))
            #expect(reauth.calls == 1)
            #expect(error?.needsReauthentication == true)
            #expect(error?.description.contains("spconnect login") == true)
            #expect(sim.requestLog().filter { $0.path == "/_api/web" }.count == 2)

            // Without a reauthenticator: one request, the same clear error.
            let plain = SharePointSite(client: try HTTPClient(), siteURL: sim.siteURL)
            let unauthenticated = await sharePointError { _ = try await plain.currentUser() }
            #expect(unauthenticated?.description.contains("spconnect login") == true)
            #expect(unauthenticated?.needsReauthentication == true)

            // A reauthenticator that throws: its reason is in the message.
            let throwing = SOAPReauthenticator(client: client, siteURL: sim.siteURL, fail: true)
            let failing = SharePointSite(
                client: client, siteURL: sim.siteURL, reauthenticate: { try await throwing.reauthenticate() })
            let signInFailed = await sharePointError { _ = try await failing.web() }
            #expect(
                signInFailed?.message?.contains("Signing in again failed: the identity provider is unreachable") == true
            )
            #expect(throwing.calls == 1)
        }

        @Test func writesAfterReauthenticationUseAFreshDigest() async throws {
            let sim = try Simulator(SimulatorOptions(mode: .fba))
            defer { sim.stop() }
            let client = try HTTPClient()
            #expect(try await SOAPReauthenticator.login(client: client, siteURL: sim.siteURL))
            let reauth = SOAPReauthenticator(client: client, siteURL: sim.siteURL)
            let site = SharePointSite(
                client: client, siteURL: sim.siteURL, reauthenticate: { try await reauth.reauthenticate() })
            _ = try await site.addItem(to: .title("Projects"), fields: [("Title", "before")])
            sim.expireSessions()
            let item = try await site.addItem(to: .title("Projects"), fields: [("Title", "after")])
            #expect(item["Title"]?.stringValue == "after")
            #expect(reauth.calls == 1)
            #expect(sim.requestLog().filter { $0.path == "/_api/contextinfo" }.count == 2)
        }
    }
}
