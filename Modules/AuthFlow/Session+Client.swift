public import Transport

extension Session {
    /// Puts the session's cookies into `client`'s jar, so its requests carry the session.
    public func install(into client: HTTPClient) throws(TransportError) {
        for cookie in cookies { try client.cookies.add(cookie) }
    }

    /// Puts the identity provider's cookies into `client`'s jar, for a renewal without a password.
    public func installIdentityProviderCookies(into client: HTTPClient) throws(TransportError) {
        for cookie in identityProviderCookies { try client.cookies.add(cookie) }
    }
}

extension Session {
    /// The session's cookies a request to `url` would carry, as libcurl matches them (domain, path, `Secure`).
    public func cookies(for url: String) throws(TransportError) -> [Cookie] {
        let client = try HTTPClient()
        try install(into: client)
        return try client.cookies.cookies(for: url)
    }
}

extension Array where Element == Cookie {
    /// The cookies as a `Cookie:` request header line (`Cookie: a=b; c=d`).
    public var cookieHeaderLine: String { "Cookie: " + map { "\($0.name)=\($0.value)" }.joined(separator: "; ") }

    /// The cookies as a Netscape cookie file (curl's `-b FILE`, wget's `--load-cookies`), `comment` on its second
    /// line.
    public func netscapeFile(comment: String) -> String {
        (["# Netscape HTTP Cookie File", "# " + comment] + map(\.netscapeLine)).joined(separator: "\n") + "\n"
    }
}

extension Session {
    /// How each request of a session signs in besides its cookies, by the flow that made it.
    public enum RequestAuthentication: Sendable {
        /// Cookies (or a token session's bearer token) only.
        case cookies
        /// These credentials with every request: HTTP Basic's password, NTLM's, or Kerberos's ticket.
        case everyRequest(Authentication)
        /// HTTP Basic with no password at hand: every request would be refused.
        case passwordNeeded
    }

    /// The HTTP authentication every request of this session carries: Basic sends the password each time (there is
    /// no cookie in its place), Kerberos signs each connection in with the ticket `kinit` keeps (the session's
    /// cookies, if the server set any, go along), NTLM answers each connection's challenge when a password is at
    /// hand (without one, the cookies are used and renewed on a 401 as for the other flows). `password` is asked
    /// only for Basic and NTLM.
    public func requestAuthentication(password: () -> Secret?) -> RequestAuthentication {
        switch flow {
        case SignInFlow.basic.rawValue:
            guard let password = password() else { return .passwordNeeded }
            return .everyRequest(.basic(user: user, password: password))
        case SignInFlow.kerberos.rawValue:
            return .everyRequest(.negotiate)
        case SignInFlow.ntlm.rawValue:
            return password().map { .everyRequest(.ntlm(user: user, password: $0)) } ?? .cookies
        default:
            return .cookies
        }
    }
}
