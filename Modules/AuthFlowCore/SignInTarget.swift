import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a sign-in is for: where it starts, which cookies mean "signed in", and how the session is proven.
///
/// ``sharePoint`` is the SharePoint preset: start at `/_layouts/15/Authenticate.aspx` (or the flow's own entry),
/// wait for `FedAuth` (and `rtFa` online), prove with `/_api/web/currentuser`. ``web(proofURL:)`` is any page
/// behind single sign-on (SAML, WS-Federation, OIDC `form_post`, plain forms): start at the configuration's URL,
/// follow the sign-in wherever it goes, and call it signed in only when `proofURL` answers 2xx on its own origin
/// with the session's cookies. A cookie appearing is only a reason to try the proof.
public enum SignInTarget: Sendable, Equatable {
    /// A SharePoint site (the configuration's `siteURL`).
    case sharePoint
    /// Any web page behind single sign-on, proven by a GET of `proofURL` (often the start URL itself).
    case web(proofURL: String)

    /// The proof URL of a web target; nil for SharePoint.
    public var proofURL: String? {
        if case .web(let url) = self { return url }
        return nil
    }
}

/// Cookie-name patterns as `--cookie` takes them: exact names or shell globs (`_shibsession_*`).
enum CookiePatterns {
    /// Whether `name` matches `pattern` (fnmatch(3) rules: `*`, `?`, `[…]`).
    static func matches(_ name: String, pattern: String) -> Bool {
        guard pattern.contains(where: { "*?[".contains($0) }) else { return name == pattern }
        return fnmatch(pattern, name, 0) == 0
    }

    /// Whether every pattern is matched by one of `names`.
    static func allMatched(_ patterns: [String], by names: [String]) -> Bool {
        patterns.allSatisfy { pattern in names.contains { matches($0, pattern: pattern) } }
    }
}
