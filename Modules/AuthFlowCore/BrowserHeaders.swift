import Foundation

/// The headers a browser adds to a sign-in's requests, which some servers require: `Accept` for navigations,
/// `Accept-Language`, and `Origin` and `Referer` on form posts. Django's CSRF check refuses an https POST
/// without a `Referer`; some OIDC relying parties answer 401 to a request that does not accept HTML.
///
/// `Referer` follows the policy browsers use by default, strict-origin-when-cross-origin: the full page URL
/// (without its fragment) to the same origin, the origin alone to another, nothing from https to http. A page
/// URL whose query holds a code, token or SAML message is cut to its origin wherever it goes. A plain value.
public struct BrowserHeaders: Sendable, Equatable {
    /// `Accept` sent on navigations (not on the proof's JSON request or a service call that sets its own).
    public var accept: String
    /// `Accept-Language`; nil sends none.
    public var acceptLanguage: String?
    /// Whether `Referer` and `Origin` are sent at all.
    public var sendsReferrer: Bool
    /// A `User-Agent` for the sign-in's requests over the client's own; nil keeps the client's.
    public var userAgent: String?

    /// A Chromium browser's agent, naming SPConnect at its end: identity providers offer WebAuthn (Entra's FIDO view)
    /// only to agents they know can do it (../shared/docs/entra-passwordless.md §2.1, observed), so a sign-in with a
    /// passkey presents this one.
    public static let webAuthnCapableUserAgent =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 SPConnect"

    /// Browser-like defaults: HTML first, `en-US,en;q=0.9`, referrers on.
    public init(
        accept: String = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        acceptLanguage: String? = "en-US,en;q=0.9", sendsReferrer: Bool = true
    ) {
        self.accept = accept
        self.acceptLanguage = acceptLanguage
        self.sendsReferrer = sendsReferrer
    }

    /// The headers to add to a request for `url` with `method`, sent from the page at `referrer` (nil: typed in
    /// or a redirect's start), leaving any header the request already has (`existing` names).
    public func headers(method: String, url: String, referrer: String?, existing: [String]) -> [(String, String)] {
        let present = Set(existing.map { $0.lowercased() })
        var added: [(String, String)] = []
        if !present.contains("accept") { added.append(("Accept", accept)) }
        if let userAgent, !present.contains("user-agent") { added.append(("User-Agent", userAgent)) }
        if let acceptLanguage, !present.contains("accept-language") {
            added.append(("Accept-Language", acceptLanguage))
        }
        guard sendsReferrer, let referrer, let from = URLParts(referrer), let to = URLParts(url) else { return added }
        if from.scheme == "https" && to.scheme == "http" { return added }
        if !present.contains("referer"), let value = Self.referer(of: referrer, sameOrigin: from.origin == to.origin) {
            added.append(("Referer", value))
        }
        if method.uppercased() == "POST" && !present.contains("origin") {
            added.append(("Origin", Self.serializedOrigin(from)))
        }
        return added
    }

    /// The `Referer` value for a page: its URL without the fragment to the same origin (unless its query holds a
    /// secret), else its origin followed by `/`.
    static func referer(of page: String, sameOrigin: Bool) -> String? {
        guard let parts = URLParts(page) else { return nil }
        // The common URL (printable ASCII, no user info: `URLParts` read it on bytes) without Foundation's parser,
        // which loads ICU's tables into every sign-in's memory.
        if !page.contains("@"), URLParts.isPrintableASCII(page) {
            let withoutFragment = String(page.prefix { $0 != "#" })
            let query = withoutFragment.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
            let secret = query.split(separator: "&").contains { pair in
                let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                return Redaction.isSecret(
                    name: (name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name))
            }
            return sameOrigin && !secret ? withoutFragment : serializedOrigin(parts) + "/"
        }
        guard var components = URLComponents(string: page) else { return nil }
        components.fragment = nil
        components.user = nil
        components.password = nil
        // One registry of secret names for traces, redaction and this header (``Redaction/isSecret(name:)``).
        let secret = (components.queryItems ?? []).contains { Redaction.isSecret(name: $0.name) }
        if sameOrigin && !secret, let text = components.string { return text }
        return serializedOrigin(parts) + "/"
    }

    /// `scheme://host[:port]`, the port only when not the scheme's default.
    static func serializedOrigin(_ parts: URLParts) -> String {
        "\(parts.scheme)://\(parts.displayAuthority)"
    }
}
