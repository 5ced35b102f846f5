public import Foundation
public import TransportValues

/// A proven, signed-in session: whose it is, where, how it was obtained, and its cookies, or (app-only and device
/// code sign-ins) its bearer tokens.
///
/// A plain value. Cookie values and tokens never appear in `description`.
public struct Session: Sendable, Equatable, CustomStringConvertible {
    /// The site URL the session is for (`https://contoso.sharepoint.com/sites/team`).
    public var siteURL: String
    /// The sign-in name used (`alice@contoso.com`).
    public var user: String
    /// The name SharePoint reported for the signed-in user by the proof request, when known.
    public var displayName: String?
    /// The flow that produced the session (`entra`, `adfs`, `fba`, ...).
    public var flow: String
    /// When the proof request succeeded.
    public var provedAt: Date
    /// Where the sign-in was allowed to send credentials; reused when the session is renewed.
    public var policy: SignInPolicy
    /// The session's cookies as the jar held them (values are secrets: `Cookie.description` hides them).
    public var cookies: [Cookie]
    /// The cookies the sign-in waited for (`--cookie`); empty for the flow's default. Reused on renewal.
    public var targetCookies: [String]
    /// Whether the sign-in answered "Stay signed in?" with yes (`--stay-signed-in`). Reused on renewal.
    public var staySignedIn: Bool
    /// The login service the legacy route used (`--login-url`), when one was given. Reused on renewal.
    public var loginURL: String?
    /// For a session of any web page (not SharePoint): the URL that proves it (`--proof-url`). Nil for SharePoint.
    public var proofURL: String?
    /// The identity provider's own single-sign-on cookies (Entra's `ESTSAUTHPERSISTENT`, a SAML IdP's session),
    /// kept when the user chose to stay signed in: a renewal replays the sign-in with them and no password, as a
    /// browser does, for as long as the identity provider honours them. Never sent to the site.
    public var identityProviderCookies: [Cookie] = []
    /// Where a renewal finds the password again, as the user chose when signing in; never a password.
    public var renewalPasswordSource = RenewalPasswordSource.unsaved
    /// The bearer tokens of a token session (``TokenSet``); nil for a cookie session. Requests then carry
    /// `Authorization: Bearer` and no cookies.
    public var tokens: TokenSet?

    /// A session from its parts (a sign-in makes one; tests and stores rebuild one).
    public init(
        siteURL: String, user: String, displayName: String? = nil, flow: String, provedAt: Date,
        policy: SignInPolicy = SignInPolicy(), cookies: [Cookie], targetCookies: [String] = [],
        staySignedIn: Bool = false, loginURL: String? = nil, proofURL: String? = nil, tokens: TokenSet? = nil
    ) {
        self.siteURL = siteURL
        self.user = user
        self.displayName = displayName
        self.flow = flow
        self.provedAt = provedAt
        self.policy = policy
        self.cookies = cookies
        self.targetCookies = targetCookies
        self.staySignedIn = staySignedIn
        self.loginURL = loginURL
        self.proofURL = proofURL
        self.tokens = tokens
    }

    /// The configuration that signs this session's user in again the way they signed in: the same site, flow,
    /// policy, target cookies, "Stay signed in?" answer and login service, with `password`.
    public func renewalConfiguration(password: Secret) -> SignInConfiguration {
        SignInConfiguration(
            siteURL: siteURL, username: user, password: password, flow: SignInFlow(rawValue: flow) ?? .auto,
            policy: policy, staySignedIn: staySignedIn, targetCookies: targetCookies, loginURL: loginURL,
            target: proofURL.map { .web(proofURL: $0) } ?? .sharePoint)
    }

    /// Takes over where `earlier` (the session this one renews) gets its password from
    /// (``renewalPasswordSource``): the user chose it at login, and no sign-in learns it again.
    public mutating func keepPasswordSource(of earlier: Session) {
        renewalPasswordSource = earlier.renewalPasswordSource
    }

    /// The earliest expiry among `names` (nil when all are session cookies or none is present).
    public func expiry(of names: [String]) -> Date? {
        cookies.filter { names.contains($0.name) }.compactMap(\.expires).min()
    }

    /// Whether every cookie in `names` is present and none expires within `margin` of `now`.
    /// Session cookies (no expiry) count as valid: the server is the judge, and a 401/403 invalidates them.
    public func isValid(requiring names: [String], at now: Date = Date(), margin: TimeInterval = 60) -> Bool {
        for name in names {
            guard let cookie = cookies.first(where: { $0.name == name }) else { return false }
            if let expires = cookie.expires, expires.timeIntervalSince(now) <= margin { return false }
        }
        return true
    }

    /// Until when the identity provider's session lets a renewal in without a password: the latest expiry of its
    /// persistent cookies; nil when it has none (no cookies, or only cookies that end with the "browser").
    public var identityProviderExpiry: Date? {
        identityProviderCookies.compactMap(\.expires).max()
    }

    /// The session in one line, without any cookie value.
    public var description: String {
        if let tokens { return "Session(\(user) at \(siteURL) via \(flow); \(tokens))" }
        let names = cookies.map(\.name).joined(separator: ", ")
        return "Session(\(user) at \(siteURL) via \(flow); cookies: \(names))"
    }
}

/// Where a renewal of a session finds the user's password again, as the user chose when signing in. The engine only
/// carries it from a session to its renewal; a front end sets it and asks the place it names.
public enum RenewalPasswordSource: Sendable, Equatable {
    /// Nowhere saved: a renewal takes the password from the front end's other sources (or needs none, through the
    /// identity provider's session).
    case unsaved
    /// The command that prints it (its words, as the user gave them).
    case command(String)
    /// The desktop keyring, under the session's site and user.
    case keyring

    /// The command's words, for ``command(_:)``; nil otherwise.
    public var command: String? {
        if case .command(let words) = self { words } else { nil }
    }
}
