public import Foundation
public import Transport

/// Delegated sign-in with the OAuth 2.0 device authorization grant (RFC 8628) for a public-client app: asks for a
/// code, hands it to ``prompt`` (the user enters it on another device), polls at the server's interval (5 s more
/// after each `slow_down`) until the user approved, declined or the code expired, and returns a token ``Session``
/// with a refresh token.
///
/// A plain value; ``run(now:)`` may be called from any task and is cancellable while it waits.
public struct DeviceCodeSignIn: Sendable {
    /// What the user needs to sign in: the code, where to enter it, Entra's own sentence, and the lifetime.
    public struct Prompt: Sendable, Equatable {
        /// The code to enter.
        public var userCode: String
        /// Where to enter it.
        public var verificationURI: String
        /// Entra's own sentence saying both.
        public var message: String?
        /// Seconds the code stays valid.
        public var expiresIn: Int
        /// Seconds between polls, as Entra asks.
        public var interval: Int
    }

    /// The Transport client the endpoints are asked through.
    public var client: HTTPClient
    /// The SharePoint site; its origin is the resource the token is for.
    public var siteURL: String
    /// The public-client app registration's client id.
    public var appId: String
    /// The tenant: a GUID or domain, or `organizations`; nil discovers it from the site's Bearer challenge.
    public var tenant: String?
    /// The Entra host (default the public cloud).
    public var authorityHost: String
    /// Plain http only to loopback, and only when allowed (simulators).
    public var policy: SignInPolicy
    /// Told the code once it is issued (the CLI prints it on standard error).
    public var prompt: @Sendable (Prompt) -> Void
    /// Added to the interval after each `slow_down` (RFC 8628: 5 s).
    public var slowDownIncrement: Int

    /// A device-code sign-in of `appId` to `siteURL`; `prompt` is told the code once it is issued.
    public init(
        client: HTTPClient, siteURL: String, appId: String, tenant: String? = nil,
        authorityHost: String = EntraAuthority.publicCloud, policy: SignInPolicy = SignInPolicy(),
        slowDownIncrement: Int = 5, prompt: @escaping @Sendable (Prompt) -> Void
    ) {
        self.client = client
        self.siteURL = siteURL
        self.appId = appId
        self.tenant = tenant
        self.authorityHost = authorityHost
        self.policy = policy
        self.slowDownIncrement = slowDownIncrement
        self.prompt = prompt
    }

    /// The poll intervals believed, in seconds: RFC 8628's default is 5; a longer one still ends at the code's expiry.
    static let pollIntervals = 1...600
    /// The code lifetimes believed, in seconds (Entra issues 15 minutes).
    static let codeLifetimes = 1...3600

    /// The delegated scopes asked for: everything consented for the site's resource, plus a refresh token.
    static func scopes(_ resourceScope: String) -> String { resourceScope + " offline_access" }

    /// Runs the flow to its end.
    public func run(now: Date = Date()) async throws(TokenError) -> Session {
        let tenant = try await TenantDiscovery.resolve(self.tenant, siteURL: siteURL, client: client)
        let authority = EntraAuthority(host: authorityHost, tenant: tenant)
        try authority.check(policy)
        let scope = try SharePointResource.scope(for: siteURL)
        let start = try await TokenEndpoint.post(
            [("client_id", appId), ("scope", Self.scopes(scope))], to: authority.deviceCodeURL, client: client)
        guard let deviceCode = start["device_code"] as? String, let userCode = start["user_code"] as? String,
            let verification = (start["verification_uri"] ?? start["verification_url"]) as? String
        else { throw TokenError(.unexpectedResponse, detail: "the device code answer lacks device_code or user_code") }
        var interval = Self.pollIntervals.clamp(TokenEndpoint.integer(start["interval"]) ?? 5)
        let expiresIn = Self.codeLifetimes.clamp(TokenEndpoint.integer(start["expires_in"]) ?? 900)
        prompt(
            Prompt(
                userCode: userCode, verificationURI: verification, message: start["message"] as? String,
                expiresIn: expiresIn, interval: interval))
        // Every wait ends by the code's expiry, whatever interval or `slow_down` the server asks for: one last poll
        // at the expiry, then the code is called expired.
        let expiry = ContinuousClock.now + .seconds(expiresIn)
        while true {
            let remaining = ContinuousClock.now.duration(to: expiry)
            guard remaining > .zero else {
                throw TokenError(.codeExpired, detail: "nobody entered it within its \(expiresIn) s")
            }
            do {
                try await Task.sleep(for: min(.seconds(interval), remaining))
            } catch {
                throw TokenError(.codeExpired, detail: "the wait for the device code was cancelled")
            }
            do {
                let object = try await TokenEndpoint.post(
                    [
                        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("client_id", appId),
                        ("device_code", deviceCode),
                    ], to: authority.tokenURL, client: client)
                let response = try TokenEndpoint.tokens(object)
                let obtained = Date()
                let tokens = TokenSet(
                    kind: .deviceCode, appId: appId, tenant: tenant, authority: authority.host, scope: scope,
                    accessToken: response.accessToken, obtainedAt: obtained,
                    expiresAt: obtained.addingTimeInterval(TimeInterval(response.expiresIn)),
                    refreshToken: response.refreshToken)
                let user = tokens.claims.userName ?? "device-code user"
                return Session(
                    siteURL: siteURL, user: user, flow: TokenSet.Kind.deviceCode.rawValue, provedAt: obtained,
                    policy: policy, cookies: [], tokens: tokens)
            } catch {
                switch error.serverError {
                case "authorization_pending":
                    continue
                case "slow_down":
                    interval = Self.pollIntervals.clamp(interval + slowDownIncrement)
                default:
                    throw error
                }
            }
        }
    }
}
