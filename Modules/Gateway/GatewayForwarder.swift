import Foundation
public import HTTPServer
public import Transport

/// What `spconnect gateway` does with one request of a local tool: refuse it unless it carries the gateway's secret,
/// names the gateway as its `Host` and comes from no foreign web page (`Origin`); else send it on to the profile's
/// site with the session's credentials (its cookies from the client's jar, its bearer token or Basic credentials),
/// and hand the answer back with the upstream origin rewritten to the gateway's and the session's own cookies kept
/// out. A session that ended on the way (401, a 403 that says so, a redirect to a sign-in page) is renewed through
/// the profile's renewal — one for any number of requests at once — and the request sent once more.
/// Immutable after init; safe to call from every connection thread at once.
public final class GatewayForwarder: Sendable {
    /// The gateway's own origin (`http://127.0.0.1:PORT`).
    public let gatewayOrigin: String
    /// The site's origin (`https://contoso.sharepoint.com`): every request goes there.
    public let upstreamOrigin: String
    private let admission: GatewayAdmission
    private let session: GatewaySession
    private let scratch: String
    /// The session's one renewal at a time, shared by every request that finds it ended.
    private let renewal: SharedRenewal

    /// Request headers never sent on: hop-by-hop ones, the client's own credentials and cookies, and what the
    /// transport sets itself.
    static let droppedRequestHeaders: Set<String> = [
        "host", "authorization", "cookie", "connection", "keep-alive", "proxy-authorization", "proxy-connection", "te",
        "trailer", "transfer-encoding", "upgrade", "content-length", "origin", "expect", "accept-encoding",
    ]
    /// Response headers never handed back: the session's cookies stay in the session, hop-by-hop ones and the
    /// framing are the gateway's own.
    static let droppedResponseHeaders: Set<String> = [
        "set-cookie", "set-cookie2", "connection", "keep-alive", "transfer-encoding", "content-length",
        "content-encoding", "trailer", "upgrade", "proxy-authenticate", "www-authenticate",
    ]

    /// A forwarder from `gatewayOrigin` (where the gateway listens) to `upstreamOrigin` with `session`, admitting
    /// only requests that present `secret`; answers' bodies wait in `scratch`, a folder only the user can read.
    public init(
        gatewayOrigin: String, upstreamOrigin: String, secret: Secret, session: GatewaySession, scratch: String
    ) {
        self.gatewayOrigin = gatewayOrigin
        self.upstreamOrigin = upstreamOrigin
        admission = GatewayAdmission(gatewayOrigin: gatewayOrigin, secret: secret)
        self.session = session
        renewal = SharedRenewal(session.renew)
        self.scratch = scratch
    }

    /// Why `request` is refused on its head (``GatewayAdmission``), nil when it may go on: the server's admission
    /// check, before any of its body is read.
    public func refusal(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        admission.refusal(request)
    }

    /// The answer to `request`, on the server's connection thread.
    public func answer(_ request: HTTPServerRequest) -> HTTPServerResponse {
        if let refusal = refusal(request) { return refusal }
        return blockingAwait { await self.forward(request) }
    }

    // MARK: Forwarding

    private func forward(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        var renewed = false
        while true {
            let generation = renewal.generation
            let exchange: GatewayExchange
            do {
                let spool = try GatewaySpool(in: scratch)
                exchange = GatewayExchange(try await outgoing(request), client: session.client, spool: spool)
            } catch let error as GatewaySpoolError {
                return Self.text(500, "spconnect gateway: \(error)")
            } catch {
                return Self.text(502, "spconnect gateway: the site could not be reached: \(error)")
            }
            let head: HTTPResponseHead
            switch await exchange.head() {
            case .success(let arrived): head = arrived
            case .failure(let error):
                return Self.text(502, "spconnect gateway: the site could not be reached: \(error)")
            }
            if sessionEnded(head) {
                // The refusal's body is not wanted (and a hostile one might never end).
                await exchange.cancel()
                guard !renewed else {
                    return Self.text(503, "spconnect gateway: the site refused the session again after a renewal")
                }
                renewed = true
                if await renewal.renewed(since: generation) { continue }
                return Self.text(
                    503,
                    "spconnect gateway: the session ended and could not be renewed (run 'spconnect login', or give "
                        + "the gateway a password source: SPCONNECT_PASSWORD_FILE, SPCONNECT_PASSWORD_COMMAND)")
            }
            if let rewrite = linkRewrite(for: head) {
                // The answer names the site's origin in its links: read whole (at most 64 MiB) and rewritten.
                // Waits for the whole body only while it stays under the limit; a larger one streams as it is.
                if await exchange.ended(within: GatewayMultistatus.largestRewritten),
                    let body = exchange.spool.contents(limit: GatewayMultistatus.largestRewritten)
                {
                    var response = answer(head, streaming: exchange)
                    response.body = .bytes(rewrite(body))
                    return response
                }
            }
            return answer(head, streaming: exchange)
        }
    }

    /// How an answer's body names the site, when it does: a WebDAV multistatus's hrefs, a JSON answer's links.
    private func linkRewrite(for head: HTTPResponseHead) -> (([UInt8]) -> [UInt8])? {
        let (upstream, gateway) = (upstreamOrigin, gatewayOrigin)
        if head.status == 207 { return { GatewayMultistatus.rewritingHrefs($0, from: upstream, to: gateway) } }
        guard head.headers["Content-Encoding"] == nil,
            head.headers["Content-Type"]?.lowercased().contains("json") == true
        else { return nil }
        return { GatewayJSONLinks.rewritingOrigins($0, from: upstream, to: gateway) }
    }

    /// `request` as it goes to the site: its headers without the client's credentials and hop-by-hop ones, the
    /// session's credentials added.
    private func outgoing(_ request: HTTPServerRequest) async throws -> HTTPRequest {
        var headers = HTTPHeaders()
        for (name, value) in request.headers where !Self.droppedRequestHeaders.contains(name.lowercased()) {
            // WebDAV's MOVE and COPY name their target as an absolute URL on the gateway.
            headers.add(
                name,
                name.lowercased() == "destination" ? rewrite(value, from: gatewayOrigin, to: upstreamOrigin) : value)
        }
        var outgoing = HTTPRequest(
            method: request.method, url: upstreamOrigin + request.target, headers: headers,
            body: request.bodyFile.map { .file(path: $0.path) }
                ?? (request.body.isEmpty ? .none : .bytes(request.body)),
            auth: session.authentication,
            redirects: .manual, retry: .never)
        if let credentials = session.renewingCredentials {
            outgoing.auth = try await credentials.currentAuthentication()
        }
        return outgoing
    }

    /// Whether the site answered as it does to a session that ended: 401, a 403 that says so (forms, WebDAV's
    /// `917656`), or a redirect to a sign-in page (another origin, or the site's own sign-in paths).
    func sessionEnded(_ response: HTTPResponseHead) -> Bool {
        if response.status == 401 { return true }
        if response.status == 403,
            response.headers["X-Forms_Based_Auth_Required"] != nil
                || response.headers["X-MSDAVEXT_Error"]?.hasPrefix("917656") == true
        {
            return true
        }
        guard (300..<400).contains(response.status), let location = response.headers["Location"] else { return false }
        let lower = location.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            if !HTTPClient.isSameOrigin(location, upstreamOrigin) { return true }
        }
        return ["/_forms/", "/_login/", "/_trust/", "/authenticate.aspx", "/_windows/"].contains { lower.contains($0) }
    }

    /// The upstream answer as the gateway's: headers filtered and rewritten, the body passed on from the spool as
    /// it arrives (sized when the site said how long it is and sent it as is).
    private func answer(_ upstream: HTTPResponseHead, streaming exchange: GatewayExchange) -> HTTPServerResponse {
        var headers: [(name: String, value: String)] = []
        for (name, value) in upstream.headers where !Self.droppedResponseHeaders.contains(name.lowercased()) {
            let rewritten = ["location", "content-location"].contains(name.lowercased())
            headers.append((name, rewritten ? rewrite(value, from: upstreamOrigin, to: gatewayOrigin) : value))
        }
        let length =
            upstream.headers["Content-Encoding"] == nil ? upstream.headers["Content-Length"].flatMap { Int($0) } : nil
        // The closure holds the exchange: once the server lets it go (the body sent, or the client gone), a transfer
        // still running is cancelled.
        return HTTPServerResponse(
            status: upstream.status, headers: headers, body: .stream(length: length) { exchange.spool.next() })
    }

    /// `value` with a leading `from` origin replaced by `to` (any case), else as it is.
    func rewrite(_ value: String, from: String, to: String) -> String {
        guard value.lowercased().hasPrefix(from.lowercased()) else { return value }
        return to + value.dropFirst(from.count)
    }

    /// A plain-text answer of the gateway's own.
    public static func text(_ status: Int, _ message: String) -> HTTPServerResponse {
        HTTPServerResponse(status: status, contentType: "text/plain; charset=utf-8", text: message + "\n")
    }
}
