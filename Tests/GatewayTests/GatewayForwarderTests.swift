import Foundation
import Gateway
import HTTPServer
import SPSim
import Synchronization
import TestSupport
import Testing
import Transport

/// The gateway engine in-process: spsim's site signed in with forms (FBA) through one client, a ``GatewayForwarder``
/// on a loopback ``HTTPServer`` lending that session, and a second client, without the session, as the local tool.
/// No spconnect process: what `spconnect gateway` adds (options, the secret file, signals) is tested in CLITests.
@Suite struct GatewayForwarderTests {
    /// A simulator, the session's client signed in to it, and a gateway lending that session.
    struct Fixture {
        let sim: Simulator
        let server: GatewayServer
        let tool: HTTPClient
        /// The client holding the session the gateway lends.
        let session: HTTPClient
        let secret = "gateway-secret-\(UInt64.random(in: 0...UInt64.max))"
        let renewals: RenewalCounter

        init(restAffinityCookie: Bool = false, items: Int = 0, renewalWorks: Bool = true) async throws {
            var options = SimulatorOptions(mode: .fba, items: items)
            options.restAffinityCookie = restAffinityCookie
            sim = try Simulator(options)
            let session = try HTTPClient()
            self.session = session
            #expect(try await formsSignIn(client: session, siteURL: sim.siteURL), "the FBA sign-in the gateway lends")
            let counter = RenewalCounter()
            renewals = counter
            let siteURL = sim.siteURL
            server = try GatewayServer(
                upstreamOrigin: sim.siteURL, secret: Secret(secret),
                session: GatewaySession(client: session) {
                    counter.count()
                    return renewalWorks ? try await formsSignIn(client: session, siteURL: siteURL) : false
                })
            tool = try HTTPClient()
        }

        func stop() async {
            await server.stop()
            await sim.stop()
        }

        /// Runs `body` with a fixture and stops it afterwards, also when `body` throws.
        static func with(
            restAffinityCookie: Bool = false, items: Int = 0, renewalWorks: Bool = true,
            _ body: (Fixture) async throws -> Void
        ) async throws {
            let fixture = try await Fixture(
                restAffinityCookie: restAffinityCookie, items: items, renewalWorks: renewalWorks)
            do {
                try await body(fixture)
            } catch {
                await fixture.stop()
                throw error
            }
            await fixture.stop()
        }

        /// One request of the local tool to the gateway, with the secret as a Basic password unless `headers` say
        /// otherwise.
        func get(_ path: String, headers: [String: String] = [:], secret given: String? = nil) async throws
            -> HTTPResponse
        {
            var all = HTTPHeaders()
            all.add("Authorization", "Basic " + Data("tool:\(given ?? secret)".utf8).base64EncodedString())
            all.add("Accept", "application/json;odata=nometadata")
            for (name, value) in headers { all.set(name, value) }
            return try await tool.execute(
                HTTPRequest(method: "GET", url: server.baseURL + path, headers: all, retry: .never))
        }
    }

    @Test func aRequestWithTheSecretReachesTheSiteAndRefusedOnesAreNeverSent() async throws {
        try await Fixture.with { fixture in
            fixture.sim.clearRequestLog()
            let web = try await fixture.get("/_api/web?$select=Title")
            #expect(web.status == 200 && web.text.contains("SPSim Team"), "\(web.status) \(web.text)")
            #expect(fixture.sim.requestLog().count == 1)

            let authority = String(fixture.server.baseURL.dropFirst("http://".count))
            let refusals: [(String, Int, () async throws -> HTTPResponse)] = [
                ("wrong secret", 401, { try await fixture.get("/_api/web", secret: "wrong") }),
                ("no secret", 401, { try await fixture.get("/_api/web", headers: ["Authorization": "Negotiate x"]) }),
                ("foreign Host", 421, { try await fixture.get("/_api/web", headers: ["Host": "sharepoint.example"]) }),
                (
                    "foreign Origin", 403,
                    { try await fixture.get("/_api/web", headers: ["Origin": "https://evil.example"]) }
                ),
            ]
            for (name, status, send) in refusals {
                let refused = try await send()
                #expect(refused.status == status, "\(name): \(refused.status) \(refused.text)")
                #expect(!refused.text.contains(fixture.secret))
            }
            let gatewayOwnOrigin = try await fixture.get("/_api/web", headers: ["Origin": "HTTP://\(authority)"])
            #expect(gatewayOwnOrigin.status == 200, "the gateway's own origin, in any case, is not a foreign page")
            #expect(fixture.sim.requestLog().count == 2, "a refused request is never sent on")
        }
    }

    /// A JSON answer's links to the site come back naming the gateway, so paging stays behind the secret; the
    /// site's own cookies (spsim's affinity cookie: the positive control checks the site sets it) stay out.
    @Test func linksNameTheGatewayAndTheSitesCookiesStayInTheSession() async throws {
        try await Fixture.with(restAffinityCookie: true, items: 7) { fixture in
            let page = try await fixture.get("/_api/web/lists/getbytitle('Big')/items?$select=Id&$top=3")
            #expect(page.status == 200, "\(page.text)")
            #expect(page.headers["Set-Cookie"] == nil, "the site's Set-Cookie never reaches the tool")
            #expect(!page.text.contains(fixture.sim.siteURL), "\(page.text)")
            let object = try #require(JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
            let next = try #require(object["odata.nextLink"] as? String)
            #expect(next.hasPrefix(fixture.server.baseURL + "/"), "\(next)")
            let second = try await fixture.get(String(next.dropFirst(fixture.server.baseURL.count)))
            #expect(second.status == 200 && second.text.contains("\"Id\":4"), "\(second.text)")

            // The positive control: asked directly with the session, the site does set its cookie.
            let direct = try await fixture.session.execute(
                HTTPRequest(method: "GET", url: fixture.sim.siteURL + "/_api/web", headers: [:], retry: .never))
            #expect(direct.status == 200 && direct.headers["Set-Cookie"]?.contains("SPAffinity=") == true)
        }
    }

    /// Eight requests refused at once after the session ended: one renewal between them, each sent again.
    @Test func anEndedSessionIsRenewedOnceForEveryRequestInFlight() async throws {
        try await Fixture.with { fixture in
            #expect(try await fixture.get("/_api/web").status == 200)
            fixture.sim.expireSessions()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await fixture.get("/_api/web").status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 8), "\(statuses)")
            #expect(fixture.renewals.value == 1)
        }
    }

    @Test func aSessionThatCannotBeRenewedIsA503WithTheReason() async throws {
        try await Fixture.with(renewalWorks: false) { fixture in
            fixture.sim.expireSessions()
            let gone = try await fixture.get("/_api/web")
            #expect(gone.status == 503 && gone.text.contains("could not be renewed"), "\(gone.status) \(gone.text)")
            #expect(fixture.renewals.value == 1)
        }
    }
}

/// Counts the gateway's renewals.
final class RenewalCounter: Sendable {
    private let calls = Mutex(0)
    func count() { calls.withLock { $0 += 1 } }
    var value: Int { calls.withLock { $0 } }
}

/// Sites that answer without end: the gateway never waits for a body it does not need.
@Suite struct GatewayEndlessAnswerTests {
    /// A 401 whose body never ends (a hostile or broken site): the refusal's body is dropped, the renewal tried, and
    /// the client answered 503 at once; before, the gateway waited for that body forever.
    @Test(.timeLimit(.minutes(2)))
    func anEndlessRefusalIsNotWaitedFor() async throws {
        let site = try HTTPServer(address: "127.0.0.1", port: 0) { _ in
            HTTPServerResponse(
                status: 401, headers: [("Content-Type", "text/html")],
                body: .stream(length: nil) {
                    usleep(2_000)
                    return .data(Array(repeating: UInt8(ascii: "x"), count: 4096))
                })
        }
        let renewals = RenewalCounter()
        let gateway = try GatewayServer(
            upstreamOrigin: site.baseURL, secret: Secret("s3cret"),
            session: GatewaySession(client: try HTTPClient()) {
                renewals.count()
                return false
            })
        var timeouts = HTTPTimeouts()
        timeouts.total = .seconds(90)
        let answer: HTTPResponse
        do {
            answer = try await HTTPClient().execute(
                HTTPRequest(
                    method: "GET", url: gateway.baseURL + "/_api/web",
                    headers: ["Authorization": "Bearer s3cret"], timeouts: timeouts, retry: .never))
        } catch {
            await gateway.stop()
            await site.stop()
            throw error
        }
        #expect(answer.status == 503 && answer.text.contains("could not be renewed"), "\(answer.status)")
        #expect(renewals.value == 1)
        await gateway.stop()
        await site.stop()
    }
}
