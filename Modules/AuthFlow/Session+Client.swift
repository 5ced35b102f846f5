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
