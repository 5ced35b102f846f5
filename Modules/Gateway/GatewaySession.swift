public import Transport

/// The signed-in session a gateway lends: the client that holds its cookies, the credentials each request carries,
/// and how to renew it when the site says it ended. A plain value; the app builds it from a saved profile.
public struct GatewaySession: Sendable {
    /// The client every forwarded request goes through (its cookie jar is the session's).
    public let client: HTTPClient
    /// Credentials sent with every request when the session is not a cookie one (HTTP Basic, NTLM, Negotiate).
    public let authentication: Authentication?
    /// Credentials renewed as they expire (a bearer token), asked for before every request; wins over
    /// ``authentication``.
    public let renewingCredentials: (any AuthenticationProvider)?
    /// Signs in again once; true when the session works again. Called once for any number of requests refused at
    /// the same time.
    public let renew: @Sendable () async throws -> Bool

    /// A session over `client`, renewed by `renew`.
    public init(
        client: HTTPClient, authentication: Authentication? = nil,
        renewingCredentials: (any AuthenticationProvider)? = nil, renew: @escaping @Sendable () async throws -> Bool
    ) {
        self.client = client
        self.authentication = authentication
        self.renewingCredentials = renewingCredentials
        self.renew = renew
    }
}
