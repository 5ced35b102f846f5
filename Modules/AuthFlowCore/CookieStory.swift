import TransportValues

/// The target's cookies as the sign-in went: which the target would get now (the jar's own matching: its host's
/// cookies and a parent domain's, set by whichever host), and which it already had when the credentials first went.
/// A session is what appeared or changed since: a framework's cookie set on the first visit of the login page is
/// not one until the sign-in replaces it.
///
/// A plain value the machine keeps; fed by every answer and told when credentials are sent.
struct CookieStory: Sendable {
    /// The cookies the target would get after the last answer.
    private(set) var current: [Cookie] = []
    /// The cookies the target had when the credentials first went; nil before any went.
    private(set) var beforeCredentials: Set<Identity>?

    /// A cookie as a browser tells two apart: name, domain, path and value (a new value is a new cookie).
    struct Identity: Hashable, Sendable {
        let name: String
        let domain: String
        let path: String
        let value: String

        init(_ cookie: Cookie) {
            name = cookie.name
            domain = cookie.domain
            path = cookie.path
            value = cookie.value
        }
    }

    /// Whether credentials (a password, a user name, a code) were sent during this sign-in.
    var credentialsWent: Bool { beforeCredentials != nil }

    /// Notes what the target would get after an answer.
    mutating func received(_ siteCookies: [Cookie]) { current = siteCookies }

    /// Notes that credentials go now: the first time, the target's present cookies are what the sign-in found, not
    /// its result (a later step, a code after the password, keeps that baseline: a cookie the password step set is
    /// still the sign-in's).
    mutating func credentialsSent() {
        if beforeCredentials == nil { beforeCredentials = Set(current.map(Identity.init)) }
    }

    /// The names of the target's cookies that appeared or changed since the credentials first went (every cookie it gets,
    /// when none went: a sign-in through the identity provider's own session), in the jar's order, once each.
    var sessionCookieNames: [String] {
        var names: [String] = []
        for cookie in current where !(beforeCredentials?.contains(Identity(cookie)) ?? false) {
            if !names.contains(cookie.name) { names.append(cookie.name) }
        }
        return names
    }
}
