import Foundation
import Transport

/// One REST exchange as the site sends it: the parts of an `HTTPRequest` plus how the site may repeat it.
struct Exchange: Sendable {
    var method: String
    var url: String
    var headers: HTTPHeaders
    var body: HTTPRequest.Body = .none
    /// A write: sent with `X-RequestDigest`, refreshed and repeated once on a digest-expired 403.
    var needsDigest = false
    var retry: RetryPolicy
    var responseBody: ResponseBodyDestination = .memory()
    var progress: (@Sendable (TransferProgress) -> Void)?

    /// A GET with `Accept` for the site's flavour and the site's read retry policy.
    static func read(_ site: SharePointSite, _ url: String) -> Exchange {
        Exchange(method: "GET", url: url, headers: ["Accept": site.flavor.mediaType], retry: site.readRetry)
    }

    /// A POST write. `repeatable` writes use the site's write retry policy; the others are never repeated by
    /// Transport (a 429 is then surfaced as `throttled`).
    static func write(
        _ site: SharePointSite, _ url: String, headers extra: [(String, String)] = [], body: HTTPRequest.Body,
        contentType: String?, repeatable: Bool
    ) -> Exchange {
        var headers: HTTPHeaders = ["Accept": site.flavor.mediaType]
        if let contentType { headers.add("Content-Type", contentType) }
        for (name, value) in extra { headers.add(name, value) }
        return Exchange(
            method: "POST", url: url, headers: headers, body: body, needsDigest: true,
            retry: repeatable ? site.writeRetry : .never)
    }
}

extension SharePointSite {
    /// Sends `exchange` and returns its 2xx response, handling reauthentication and digest expiry once each.
    ///
    /// `errorBody` reads the body of a failed response (the default reads the in-memory body; downloads read
    /// their temporary file).
    func perform(
        _ exchange: Exchange, errorBody: (HTTPResponse) -> Data = { Data($0.body) }
    ) async throws(SharePointError) -> HTTPResponse {
        var reauthenticated = false
        var digestRefreshed = false
        while true {
            let auth = try await currentAuthentication(for: exchange.url)
            var request = HTTPRequest(
                method: exchange.method, url: exchange.url, headers: exchange.headers, body: exchange.body,
                auth: auth, retry: exchange.retry, responseBody: exchange.responseBody,
                progress: exchange.progress)
            // A bearer token needs no request digest (SharePoint asks it only of cookie sessions).
            if exchange.needsDigest, !auth.isBearer {
                request.headers.set("X-RequestDigest", try await requestDigest(forceRefresh: digestRefreshed))
            }
            let response: HTTPResponse
            do {
                response = try await client.execute(request)
            } catch {
                var failure = SharePointError(transport: error, url: exchange.url)
                failure.mayHaveBeenWritten = exchange.needsDigest && Self.mayHaveReachedServer(error.kind)
                throw failure
            }
            if (200..<300).contains(response.status) { return response }
            var error = SharePointError(
                status: response.status, headers: response.headers.fields.map { ($0.name, $0.value.headerTrimmed) },
                body: errorBody(response), url: exchange.url)
            error.mayHaveBeenWritten =
                exchange.needsDigest && !(400..<500).contains(response.status) && error.kind != .throttled
            if error.needsReauthentication, !reauthenticated, let reauthenticate {
                reauthenticated = true
                let retry: Bool
                do {
                    retry = try await reauthenticate()
                } catch let signInError {
                    var failed = error
                    failed.message =
                        "Signing in again failed: \(signInError)" + (error.message.map { ". Server: \($0)" } ?? "")
                    throw failed
                }
                if retry {
                    invalidateDigest()
                    continue
                }
            }
            if error.kind == .digestExpired, exchange.needsDigest, !digestRefreshed {
                digestRefreshed = true
                continue
            }
            throw error
        }
    }
}

extension SharePointSite {
    /// Whether a request that failed in Transport with `kind` may have reached the server: every failure but those
    /// that come before anything is sent (the name, the connection, a plain-http hop refused, an unusable request).
    /// A timeout or a cancellation is counted as reached, since it may come after the request was sent.
    static func mayHaveReachedServer(_ kind: TransportError.Kind) -> Bool {
        ![.dns, .connect, .plainHTTPRefused, .invalidRequest].contains(kind)
    }

    /// The credentials for the next request: the provider's (a renewed token when the old one is about to expire),
    /// else the fixed ``authentication``. A failed renewal is `authenticationRequired` with its reason.
    func currentAuthentication(for url: String) async throws(SharePointError) -> Authentication? {
        guard let authenticationProvider else { return authentication }
        do {
            return try await authenticationProvider.currentAuthentication()
        } catch {
            throw SharePointError(
                kind: .authenticationRequired, status: 0, message: "Renewing the access token failed: \(error)",
                url: url)
        }
    }
}

extension Optional where Wrapped == Authentication {
    /// Whether the credentials are a bearer token.
    var isBearer: Bool {
        if case .bearer = self { return true }
        return false
    }
}

extension String {
    /// The value without surrounding spaces and line breaks (Transport before its header fix kept the `\r\n`
    /// that ends a header line), so that it can be parsed and sent back in another header safely.
    var headerTrimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

extension HTTPResponse {
    /// The first value of header `name` (case-insensitive), trimmed of spaces and line breaks.
    func header(_ name: String) -> String? { headers[name]?.headerTrimmed }
}

/// An etag as given by the caller, refused when it could break the request's header block. A bare version number
/// (`3`, as a shell eats the quotes of `"3"`) is the item etag `"3"`.
func checkedEtag(_ etag: String, url: String) throws(SharePointError) -> String {
    var trimmed = etag.headerTrimmed
    if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCIIDigit) { trimmed = "\"" + trimmed + "\"" }
    guard !trimmed.isEmpty, !trimmed.contains(where: { $0.isNewline }) else {
        throw SharePointError(
            kind: .badRequest, status: 0,
            message:
                "The etag \(etag.debugDescription) is not valid: pass the item's etag (e.g. \"\\\"3\\\"\") or \"*\".",
            url: url)
    }
    return trimmed
}

extension Character {
    /// `0`–`9` (not other scripts' digits).
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
