public import Foundation
public import Transport

/// App-only sign-in with a certificate (OAuth 2.0 client credentials, RFC 7523 client assertion): asks the tenant's
/// token endpoint for `{site origin}/.default` and returns a token ``Session``. SharePoint accepts only
/// certificate-based app-only tokens, so no client secret is ever offered.
///
/// A plain value; ``run(now:)`` may be called from any task. The session is not proven here: the caller reads the
/// site with it (SharePoint says why it refuses a token; Entra does not).
public struct AppOnlySignIn: Sendable {
    /// The Transport client the token endpoint and the tenant discovery are asked through.
    public var client: HTTPClient
    /// The SharePoint site; its origin is the resource the token is for.
    public var siteURL: String
    /// The app registration's client id.
    public var appId: String
    /// The tenant; nil to discover it from the site's `WWW-Authenticate: Bearer realm="…"` challenge.
    public var tenant: String?
    /// The Entra host (default the public cloud).
    public var authorityHost: String
    /// The certificate and key files the client assertion is signed with.
    public var credential: CertificateCredential
    /// Plain http only to loopback, and only when allowed (simulators).
    public var policy: SignInPolicy

    /// An app-only sign-in of `appId` to `siteURL` with `credential`; ``run()`` performs it.
    public init(
        client: HTTPClient, siteURL: String, appId: String, tenant: String? = nil,
        authorityHost: String = EntraAuthority.publicCloud, credential: CertificateCredential,
        policy: SignInPolicy = SignInPolicy()
    ) {
        self.client = client
        self.siteURL = siteURL
        self.appId = appId
        self.tenant = tenant
        self.authorityHost = authorityHost
        self.credential = credential
        self.policy = policy
    }

    /// Signs in: discovers the tenant when needed, loads the certificate and key, builds the assertion, asks for
    /// the token. The session's `user` is `app:APPID`, its flow `app-only`.
    public func run(now: Date = Date()) async throws(TokenError) -> Session {
        let tenant = try await TenantDiscovery.resolve(self.tenant, siteURL: siteURL, client: client)
        let authority = EntraAuthority(host: authorityHost, tenant: tenant)
        let scope = try SharePointResource.scope(for: siteURL)
        let tokens = try await Self.requestToken(
            client: client, authority: authority, appId: appId, scope: scope, credential: credential, policy: policy,
            now: now)
        return Session(
            siteURL: siteURL, user: "app:" + appId, displayName: nil, flow: TokenSet.Kind.appOnly.rawValue,
            provedAt: now, policy: policy, cookies: [], tokens: tokens)
    }

    /// An app-only access token for another resource than the site (`https://graph.microsoft.com/.default`), with
    /// the same app, tenant and certificate: for a call the site's token cannot make. Nothing is kept.
    public func accessToken(scope: String, now: Date = Date()) async throws(TokenError) -> Secret {
        let tenant = try await TenantDiscovery.resolve(self.tenant, siteURL: siteURL, client: client)
        let tokens = try await Self.requestToken(
            client: client, authority: EntraAuthority(host: authorityHost, tenant: tenant), appId: appId,
            scope: scope, credential: credential, policy: policy, now: now)
        return tokens.accessToken
    }

    /// One client-credentials request: the token set it gives (also what a renewal runs).
    static func requestToken(
        client: HTTPClient, authority: EntraAuthority, appId: String, scope: String, credential: CertificateCredential,
        policy: SignInPolicy, now: Date = Date()
    ) async throws(TokenError) -> TokenSet {
        try authority.check(policy)
        let assertion = try LoadedCertificateCredential(credential).assertion(
            clientId: appId, audience: authority.tokenURL, now: now)
        let object = try await TokenEndpoint.post(
            [
                ("grant_type", "client_credentials"), ("client_id", appId), ("scope", scope),
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                ("client_assertion", assertion.revealedValue()),
            ], to: authority.tokenURL, client: client)
        let response = try TokenEndpoint.tokens(object)
        return TokenSet(
            kind: .appOnly, appId: appId, tenant: authority.tenant, authority: authority.host, scope: scope,
            accessToken: response.accessToken, obtainedAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(response.expiresIn)), certificate: credential)
    }
}

/// The SharePoint resource a site's tokens are for: its origin (`https://contoso.sharepoint.com`).
enum SharePointResource {
    /// `{scheme}://{host}[:port]/.default`.
    static func scope(for siteURL: String) throws(TokenError) -> String {
        try origin(of: siteURL) + "/.default"
    }

    /// `{scheme}://{host}[:port]` of `siteURL`.
    static func origin(of siteURL: String) throws(TokenError) -> String {
        guard let url = URLComponents(string: siteURL), let scheme = url.scheme, let host = url.host, !host.isEmpty
        else { throw TokenError(.invalidScope, detail: "\(siteURL) is not an absolute site URL") }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}

/// Reads the tenant id from SharePoint's bearer challenge: `GET {site}/_vti_bin/client.svc` with an empty
/// `Authorization: Bearer` answers 401 with `WWW-Authenticate: Bearer realm="{tenant id}",client_id=…`.
public enum TenantDiscovery {
    /// The tenant id the site names, or `tenantNotDiscovered`.
    public static func tenant(of siteURL: String, client: HTTPClient) async throws(TokenError) -> String {
        var base = siteURL
        while base.hasSuffix("/") { base.removeLast() }
        let request = HTTPRequest(url: base + "/_vti_bin/client.svc", headers: ["Authorization": "Bearer"])
        let response: HTTPResponse
        do {
            response = try await client.execute(request)
        } catch {
            throw TokenError(.transport(carrying: error.kind), detail: error.message)
        }
        for challenge in response.headers.values(for: "WWW-Authenticate") {
            if let realm = realm(in: challenge) { return realm }
        }
        throw TokenError(
            .tenantNotDiscovered, detail: "HTTP \(response.status) from \(base)/_vti_bin/client.svc had no Bearer realm"
        )
    }

    /// `given` when there is one, else the tenant the site names.
    static func resolve(_ given: String?, siteURL: String, client: HTTPClient) async throws(TokenError) -> String {
        if let given { return given }
        return try await tenant(of: siteURL, client: client)
    }

    /// The `realm` parameter of a `Bearer` challenge, when it is not empty.
    public static func realm(in challenge: String) -> String? {
        let trimmed = challenge.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.lowercased().hasPrefix("bearer"),
            let start = trimmed.range(of: "realm=\"", options: .caseInsensitive)
        else { return nil }
        let value = trimmed[start.upperBound...].prefix { $0 != "\"" }
        return value.isEmpty ? nil : String(value)
    }
}
