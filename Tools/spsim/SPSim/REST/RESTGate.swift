import Foundation
import HTTPServer

/// The front door of `/_api`: injected throttling (`Faults.swift`), the authentication gate (cookies, bearer tokens, NTLM,
/// Basic), the request digest writes need, and the effective method of a request.
extension SimulatorCore {
    func restEndpoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let flavour = Flavour(accept: request.header("Accept"))
        // Throttling faults first: they hit before authentication, as at the front door.
        if let fault = injectedAPIFault(request, flavour: flavour) { return fault }
        if request.path.lowercased() == "/_api/sp.oauth.nativeclient/authenticate" {
            return nativeClientAuthenticate(request)
        }
        // An Entra access token (JWT) is checked the way SharePoint checks it; the password grant's opaque tokens
        // and cookies go the older way.
        var verdict: BearerVerdict?
        if let token = bearerToken(request), !token.isEmpty, state.withLock({ $0.accessTokens[token] == nil }) {
            verdict = bearerVerdict(token, request: request, flavour: flavour)
        }
        var app: String?
        var delegated: Int?
        switch verdict {
        case .refused(let response): return response
        case .app(let id, _): app = id
        case .user(let index): delegated = index
        case nil: break
        }
        let user = app == nil ? delegated ?? authenticatedUser(request) : nil
        if user == nil, app == nil, bearerToken(request) != nil {
            return bearerChallenge("Invalid JWT token. The token is expired or not issued by this tenant.")
        }
        if user == nil, app == nil, wantsWindowsChallenge(request) { return windowsChallenge() }
        if user == nil, app == nil, options.mode != .anonymous {
            var error = RESTError(
                status: 403, code: "-2147024891, System.UnauthorizedAccessException",
                message: "Access denied. You do not have permission to perform this action or access this resource.")
            error.headers = unauthenticatedHeaders(path: rawPath(request))
            return errorResponse(error, flavour: flavour)
        }
        do {
            let query = try QueryOptions(request.query)
            // A site collection's request passed this (the root's) gates; its own core answers it.
            let core = siteCollection(forAPIPath: request.path) ?? self
            let context = RESTContext(
                flavour: flavour, site: core.siteURL, query: query, request: request, user: user, app: app)
            var response = try core.route(context)
            if options.restAffinityCookie {
                let value = String(UInt64.random(in: 1...UInt64.max), radix: 16)
                response.headers.append(("Set-Cookie", "SPAffinity=\(value); path=/; secure; HttpOnly"))
            }
            return response
        } catch let error as RESTError {
            return errorResponse(error, flavour: flavour)
        } catch {
            return errorResponse(RESTError.argument("\(error)"), flavour: flavour)
        }
    }

    /// The effective method (`X-HTTP-Method` on POST wins).
    func effectiveMethod(_ request: HTTPServerRequest) -> String {
        if request.method == "POST", let override = request.header("X-HTTP-Method") { return override.uppercased() }
        if request.method == "PATCH" { return "MERGE" }
        return request.method.uppercased()
    }

    /// Writes need a valid, unexpired `X-RequestDigest` (anonymous users cannot write at all).
    func requireDigest(_ context: RESTContext) throws {
        if options.mode == .anonymous, context.user == nil {
            throw RESTError(
                status: 403, code: "-2147024891, System.UnauthorizedAccessException",
                message: "Access denied. You do not have permission to perform this action or access this resource.")
        }
        // No digest with OAuth.
        if context.user != nil || context.app != nil, bearerToken(context.request) != nil { return }
        let digest = context.request.header("X-RequestDigest") ?? ""
        let now = nowEpoch()
        let valid = state.withLock { ($0.digests[digest] ?? 0) > now }
        guard valid else {
            throw RESTError(
                status: 403, code: "-2130575252, Microsoft.SharePoint.SPException",
                message:
                    "The security validation for this page is invalid and might be corrupted. Please use your web browser's Back button to try your operation again."
            )
        }
    }
}
