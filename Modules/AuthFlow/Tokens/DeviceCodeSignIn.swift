public import Foundation
import JSON
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
        let answer = try DeviceCodeAnswer(start)
        let deviceCode = answer.deviceCode
        var interval = answer.prompt.interval
        let expiresIn = answer.prompt.expiresIn
        prompt(answer.prompt)
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
                    interval = min(interval + slowDownIncrement, DeviceCodeAnswer.longestInterval)
                default:
                    throw error
                }
            }
        }
    }
}

/// The device-code endpoint's answer (RFC 8628 §3.2): the code to poll with and what the user is shown. The
/// interval and lifetime are kept within bounds (a server's 1e300 or -5 would not sleep, or would overflow a
/// deadline).
struct DeviceCodeAnswer {
    /// The longest wait between two polls, in seconds (also after `slow_down`).
    static let longestInterval = 300
    /// The longest lifetime of a device code taken from an answer, in seconds (a day; Entra's is 15 minutes).
    static let longestLifetime = 86_400

    /// The code the token endpoint is polled with (a secret of the flow; never shown).
    var deviceCode: String
    /// What to show the user.
    var prompt: DeviceCodeSignIn.Prompt

    /// Reads the JSON object of the answer; `unexpectedResponse` without a device code, user code and address.
    init(_ object: JSONValue) throws(TokenError) {
        guard let deviceCode = object["device_code"]?.stringValue, let userCode = object["user_code"]?.stringValue,
            let verification = (object["verification_uri"] ?? object["verification_url"])?.stringValue
        else { throw TokenError(.unexpectedResponse, detail: "the device code answer lacks device_code or user_code") }
        self.deviceCode = deviceCode
        let interval = min(max(1, TokenEndpoint.integer(object["interval"]) ?? 5), Self.longestInterval)
        let expiresIn = min(max(1, TokenEndpoint.integer(object["expires_in"]) ?? 900), Self.longestLifetime)
        prompt = DeviceCodeSignIn.Prompt(
            userCode: userCode, verificationURI: verification, message: object["message"]?.stringValue,
            expiresIn: expiresIn, interval: interval)
    }
}
