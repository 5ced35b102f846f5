extension SharePointSite {
    /// The Domain's reauthentication seam: what a site calls when the server says the session ended (401, or 403
    /// with `X-Forms_Based_Auth_Required`), before it sends the request once more.
    ///
    /// Sign in again and put the new credentials where the site's requests find them (the client's cookie jar,
    /// or the ``SharePointSite/authenticationProvider``'s token); return true when the request should be sent
    /// again, false when it is no use (no credentials are available), and throw when signing in again failed (the
    /// error's text goes into the ``SharePointError``'s message). Called from any task, possibly by several at once:
    /// coalescing them into one sign-in is the implementation's job. A closure rather than a protocol, so that the
    /// module that renews sessions (AuthFlow, which serves any web target) and this one need not know each other:
    /// the apps pass AuthFlow's `ProfileRenewal.reauthenticate` (docs/decisions/0007-reauthentication-seam.md).
    public typealias Reauthentication = @Sendable () async throws -> Bool
}
