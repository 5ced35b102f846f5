import Foundation
import JSON
import Transport

/// An Entra tenant's OAuth 2.0 endpoints (v2.0): where tokens and device codes are asked for.
///
/// A plain value. Only https, or plain http to a loopback address when the sign-in policy allows it, is used: the
/// requests carry client assertions and refresh tokens.
public struct EntraAuthority: Sendable, Equatable {
    /// The host, e.g. `https://login.microsoftonline.com` (no trailing slash).
    public var host: String
    /// The tenant GUID or domain (`contoso.onmicrosoft.com`); not `common` for app-only.
    public var tenant: String

    /// Entra ID's public cloud.
    public static let publicCloud = "https://login.microsoftonline.com"

    /// The authority of `tenant` on `host` (a trailing slash is dropped).
    public init(host: String = EntraAuthority.publicCloud, tenant: String) {
        var trimmed = host
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.host = trimmed
        self.tenant = tenant
    }

    /// `{host}/{tenant}/oauth2/v2.0/token`: also the `aud` of a client assertion.
    public var tokenURL: String { "\(host)/\(tenant)/oauth2/v2.0/token" }
    /// `{host}/{tenant}/oauth2/v2.0/devicecode`.
    public var deviceCodeURL: String { "\(host)/\(tenant)/oauth2/v2.0/devicecode" }

    /// Throws `insecureAuthority` unless the host is https, or http on loopback with `policy.allowHTTPLoopback`.
    func check(_ policy: SignInPolicy) throws(TokenError) {
        do {
            try policy.checkCredentialTransport(to: tokenURL)
        } catch {
            let loopback =
                policy.allowHTTPLoopback
                ? "plain http is allowed to a loopback address only"
                : "plain http is allowed only to a loopback address, with --allow-http-loopback"
            throw TokenError(
                .insecureAuthority, detail: "\(Redaction.url(tokenURL)) (use the https authority; \(loopback))")
        }
    }
}

/// A successful token response (RFC 6749 §5.1).
struct TokenResponse {
    var accessToken: Secret
    var expiresIn: Int
    var refreshToken: Secret?
    var scope: String?
}

/// One form POST to a token or device-code endpoint through Transport, and the reading of its answer.
enum TokenEndpoint {
    /// POSTs `form` to `url` and returns the JSON object of a 2xx answer; a 4xx/5xx error body becomes a
    /// ``TokenError`` with the server's codes (`classify` picks the reason). Nothing of the form is ever part of an
    /// error.
    static func post(_ form: [(name: String, value: String)], to url: String, client: HTTPClient)
        async throws(TokenError)
        -> JSONValue
    {
        let request = HTTPRequest(
            method: "POST", url: url, headers: ["Accept": "application/json"], body: .form(form),
            retry: RetryPolicy(maxAttempts: 3, maxRetryAfter: .seconds(60), retryNonIdempotent: true))
        let response: HTTPResponse
        do {
            response = try await client.execute(request)
        } catch {
            throw TokenError(.transport(carrying: error.kind), detail: error.message)
        }
        return try answer(status: response.status, body: response.body, url: url)
    }

    /// The JSON object of a 2xx answer; an error answer as a ``TokenError`` with the server's codes, anything else
    /// as `unexpectedResponse`. What ``post(_:to:client:)`` does with the bytes it got.
    static func answer(status: Int, body: [UInt8], url: String) throws(TokenError) -> JSONValue {
        let parsed = try? JSONValue.parse(bytes: body)
        let object = parsed?.objectValue == nil ? nil : parsed
        guard (200..<300).contains(status) else {
            guard let object, let code = object["error"]?.stringValue else {
                throw TokenError(.unexpectedResponse, detail: "HTTP \(status) from \(Redaction.url(url))")
            }
            let codes = object["error_codes"]?.arrayValue?.compactMap { integer($0) } ?? []
            let text = object["error_description"]?.stringValue.map(firstLine)
            throw TokenError(classify(code, codes), serverError: code, serverCodes: codes, detail: text)
        }
        guard let object else {
            throw TokenError(.unexpectedResponse, detail: "HTTP \(status) without a JSON object")
        }
        return object
    }

    /// The token response in `object`, or `unexpectedResponse` without an access token, or with a token that
    /// cannot travel in a header (see ``TokenShape``). `expires_in` is clamped to ``TokenShape/lifetimes``.
    static func tokens(_ object: JSONValue) throws(TokenError) -> TokenResponse {
        guard let access = object["access_token"]?.stringValue, !access.isEmpty else {
            throw TokenError(.unexpectedResponse, detail: "the answer has no access_token")
        }
        try TokenShape.check(access, named: "access_token")
        let refresh = object["refresh_token"]?.stringValue
        if let refresh { try TokenShape.check(refresh, named: "refresh_token") }
        let lifetime = integer(object["expires_in"]) ?? 3599
        return TokenResponse(
            accessToken: Secret(access), expiresIn: TokenShape.lifetimes.clamp(lifetime),
            refreshToken: refresh.map(Secret.init), scope: object["scope"]?.stringValue)
    }

    /// A number or a numeric string (Entra has sent both), saturated to Int's range; nil for anything else
    /// (a fraction is rounded down, a non-finite number is nil).
    static func integer(_ value: JSONValue?) -> Int? {
        if let whole = value?.int64Value { return Int(clamping: whole) }
        // A fraction, a number past Int64, or a numeric string that is not a whole number.
        guard let double = value?.doubleValue, double.isFinite else { return nil }
        if double >= Double(Int.max) { return Int.max }
        if double <= Double(Int.min) { return Int.min }
        return Int(double.rounded(.down))
    }

    /// Entra's descriptions carry `Trace ID: … Correlation ID: … Timestamp: …` on later lines: the first says it.
    private static func firstLine(_ text: String) -> String {
        String(text.split(whereSeparator: \.isNewline).first ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// The reason for an error answer: by AADSTS code first, then by the OAuth `error`.
    static func classify(_ error: String, _ codes: [Int]) -> TokenError.Reason {
        let byCode: [Int: TokenError.Reason] = [
            700027: .certificateNotRegistered, 700016: .appNotFound, 7000215: .invalidSecret, 700024: .clockSkew,
            70011: .invalidScope, 500011: .invalidScope, 7000218: .notPublicClient, 53003: .blockedByPolicy,
            530035: .blockedByPolicy, 70019: .codeExpired, 700082: .refreshRejected, 70043: .refreshRejected,
        ]
        for code in codes { if let reason = byCode[code] { return reason } }
        switch error {
        case "authorization_declined", "access_denied": return .declined
        case "expired_token": return .codeExpired
        case "invalid_grant": return .refreshRejected
        default: return .refused
        }
    }
}
