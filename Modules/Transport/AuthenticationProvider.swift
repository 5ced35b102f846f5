/// Where a client gets the credentials for its next request when they change during a run: a bearer token that is
/// renewed before it expires (AuthFlow's token sessions). The Domain layer asks before every request.
///
/// Called from any task; must be safe to call concurrently (coalescing renewals is the implementation's job).
public protocol AuthenticationProvider: Sendable {
    /// The credentials to send now (renewed first when they are about to expire), or nil for none. Throws when
    /// they had to be renewed and could not be.
    func currentAuthentication() async throws -> Authentication?
}
