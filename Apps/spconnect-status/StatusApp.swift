import AppSupport
import Foundation
import HTTPServer
import Presentation
import SharePoint
import Transport

/// The status app's request handling: routes, the access token, the cross-site checks on the sign-in POST,
/// security headers on every response. Reusable: `spconnect status --serve` can build one and hand
/// ``handle(_:)`` to an ``HTTPServer`` (see ``StatusServer``).
///
/// Thread-safety: `handle(_:)` is called on the server's connection threads, concurrently; state lives in the
/// ``StatusSession`` actor and the ``ThumbnailCache``.
final class StatusApp: Sendable {
    let session: StatusSession
    let thumbnails: ThumbnailCache
    /// The per-process token the sign-in form carries.
    let csrfToken: String
    /// When set, every request must carry `?token=` with this value (the app listens beyond loopback).
    let accessToken: String?
    /// The `Host` headers the app answers to (its names with its port); others are refused, so a page of another
    /// site cannot reach the app through a DNS name rebound to 127.0.0.1. Nil accepts any (the access token guards).
    let hosts: HostCheck?
    let clock: @Sendable () -> Date

    /// Items per page on `/lists/NAME`.
    let pageSize: Int
    /// The columns `--columns` asks for (internal or display names), or nil for each list's default view.
    let columns: [String]?
    /// `--refresh`: the session page reloads itself after this many seconds; nil for never.
    let refreshSeconds: Int?
    /// Downloads through the app (`/download`).
    let downloads: Downloads
    /// Most pictures shown in one gallery.
    static let galleryLimit = 200

    init(
        session: StatusSession, accessToken: String?, hostNames: Set<String>?,
        thumbnails: ThumbnailCache = ThumbnailCache(),
        csrfToken: String = randomToken(), pageSize: Int = 30, columns: [String]? = nil, refreshSeconds: Int? = nil,
        downloads: Downloads = Downloads(), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.pageSize = pageSize
        self.columns = columns
        self.refreshSeconds = refreshSeconds
        self.downloads = downloads
        self.session = session
        self.accessToken = accessToken
        self.hosts = hostNames.map(HostCheck.init(names:))
        self.thumbnails = thumbnails
        self.csrfToken = csrfToken
        self.clock = now
    }

    var links: StatusPages.Links { StatusPages.Links(token: accessToken) }

    // MARK: Entry point

    /// Answers one request; every response carries the security headers.
    func handle(_ request: HTTPServerRequest) -> HTTPServerResponse {
        var response = route(request)
        let contentType = response.headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        // Pages quote servers (errors, titles, sign-in messages): a server may echo the password or a cookie.
        if contentType.hasPrefix("text/html") || contentType.hasPrefix("application/json"),
            case .bytes(let body) = response.body
        {
            let scrubber = blockingAwait { await self.session.secretScrubber() }
            response.body = .bytes(Array(scrubber.scrub(String(decoding: body, as: UTF8.self)).utf8))
        }
        var policy = StatusPages.headerContentSecurityPolicy
        // Pictures and downloads are not pages: opened directly, nothing in them (an SVG's script) may run.
        if !contentType.hasPrefix("text/html") && !contentType.hasPrefix("application/json") { policy += "; sandbox" }
        response.headers += [
            ("Content-Security-Policy", policy), ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
        ]
        if !response.headers.contains(where: { $0.name.lowercased() == "cache-control" }) {
            response.headers.append(("Cache-Control", "no-store"))
        }
        return response
    }

    private func route(_ request: HTTPServerRequest) -> HTTPServerResponse {
        if let hosts, !hosts.accepts(request.header("Host") ?? "") {
            return failure(
                StatusFailure(
                    status: 421, title: "Unknown host",
                    message: "This app answers to \(hosts.accepted.joined(separator: " and ")) only: open the URL "
                        + "it printed when it started."))
        }
        if let accessToken {
            guard let given = request.queryValue("token"), Self.constantTimeEqual(given, accessToken) else {
                return failure(
                    StatusFailure(
                        status: 403, title: "Access token required",
                        message: "Open the URL the app printed when it started (it carries ?token=…)."))
            }
        }
        let path = request.path
        switch (request.method, path) {
        case ("GET", "/"), ("HEAD", "/"):
            return html(
                200, StatusPages.sessionPage(facts(), links: links, now: clock(), refreshSeconds: refreshSeconds))
        case ("GET", "/status.json"):
            let facts = facts()
            return HTTPServerResponse(
                status: facts.health.isHealthy ? 200 : 503, contentType: "application/json; charset=utf-8",
                text: StatusPages.statusJSON(facts, now: clock()))
        case ("POST", "/signin"):
            return signIn(request)
        case ("GET", "/lists"):
            return listsPage()
        case ("GET", "/thumb"):
            return thumbnail(request)
        case ("GET", "/download"):
            return download(request)
        case ("GET", _) where path.hasPrefix("/lists/") && path.count > "/lists/".count:
            return itemsPage(
                String(path.dropFirst("/lists/".count)), after: request.queryValue("after").flatMap { Int($0) },
                page: request.queryValue("page").flatMap { Int($0) })
        case ("GET", _) where path.hasPrefix("/photos/") && path.count > "/photos/".count:
            return galleryPage(String(path.dropFirst("/photos/".count)))
        case (let method, _) where !["GET", "HEAD", "POST"].contains(method):
            var response = failure(StatusFailure(status: 405, title: "Method not allowed", message: "Use GET."))
            response.headers.append(("Allow", "GET, HEAD, POST"))
            return response
        default:
            return failure(StatusFailure(status: 404, title: "Not found", message: "There is no page at this address."))
        }
    }

    // MARK: Pages

    private func facts() -> StatusPages.SessionFacts {
        let session = self.session
        let token = csrfToken
        return blockingAwait { await session.facts(csrfToken: token) }
    }

    /// The sign-in POST: refused (403) unless it comes from this app's own page (same origin, the form's token).
    private func signIn(_ request: HTTPServerRequest) -> HTTPServerResponse {
        if let refusal = crossSiteRefusal(request) { return failure(refusal) }
        let session = self.session
        guard session.configuration.canSignIn else {
            return failure(
                StatusFailure(
                    status: 409, title: "No credentials",
                    message: "Start the app with SPCONNECT_PASSWORD or SPCONNECT_PASSWORD_FILE to sign in from here."))
        }
        _ = blockingAwait { await session.signInAgain() }
        // Post/redirect/get: a reload of the result does not post again.
        return HTTPServerResponse(status: 303, headers: [("Location", links.href("/")), ("Content-Length", "0")])
    }

    /// Why a state-changing request is refused, or nil when it is from the app's own page: `Origin` (when sent)
    /// must be this app's origin, `Sec-Fetch-Site` (when sent) `same-origin`, and the form must carry the token.
    func crossSiteRefusal(_ request: HTTPServerRequest) -> StatusFailure? {
        let refused = { (why: String) in StatusFailure(status: 403, title: "Cross-site request refused", message: why) }
        if let origin = request.header("Origin") {
            let expected = "http://" + (request.header("Host") ?? "")
            guard origin == expected else { return refused("The request came from another site (\(origin)).") }
        }
        if let site = request.header("Sec-Fetch-Site"), site != "same-origin" {
            return refused("The browser says the request came from another site (\(site)).")
        }
        guard let given = request.formValue("csrf"), Self.constantTimeEqual(given, csrfToken) else {
            return refused("The form's token is missing or wrong; reload the page and try again.")
        }
        return nil
    }

    // MARK: Helpers

    func html(_ status: Int, _ text: String) -> HTTPServerResponse {
        HTTPServerResponse(status: status, contentType: "text/html; charset=utf-8", text: text)
    }

    func failure(_ failure: StatusFailure) -> HTTPServerResponse {
        html(failure.status, StatusPages.errorPage(failure, links: links))
    }

    /// Runs `body` with the site client (or fails with why there is none), from a server thread.
    func withSite<T: Sendable>(
        _ body: @escaping @Sendable (SharePointSite) async -> Result<T, StatusFailure>
    ) -> Result<T, StatusFailure> {
        let session = self.session
        return blockingAwait {
            switch await session.site() {
            case .failure(let failure): return .failure(failure)
            case .success(let site): return await body(site)
            }
        }
    }

    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}

/// 32 random bytes as hex, from the system's generator.
func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in
        let byte = UInt8.random(in: 0...255, using: &generator)
        return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }.joined()
}
