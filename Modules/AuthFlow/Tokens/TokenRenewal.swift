import Foundation
public import Transport

/// Keeps a token session's access token fresh: hands out `Authorization: Bearer` for every request, asks Entra for a
/// new token shortly before the current one expires (app-only: a new client assertion from the key file; device
/// code: the refresh token, which rotates), and once more when SharePoint answers 401. Renewed sessions are saved
/// to the store (0600, atomically) so the next run starts with them.
///
/// An actor: concurrent requests that all find the token old share one renewal.
public actor TokenRenewal: AuthenticationProvider {
    private let client: HTTPClient
    private var session: Session
    private let store: SessionStore?
    private let profile: String?
    private var running: Task<Session, any Error>?
    /// Told each renewed session (its new tokens) as soon as it is in place.
    private let onRenewed: (@Sendable (Session) -> Void)?
    /// How many renewals ran (for tests).
    package private(set) var renewals = 0

    /// - Precondition: `session.tokens` is not nil (a cookie session has nothing to renew here).
    public init(
        client: HTTPClient, session: Session, store: SessionStore? = nil, profile: String? = nil,
        onRenewed: (@Sendable (Session) -> Void)? = nil
    ) {
        self.onRenewed = onRenewed
        self.client = client
        self.session = session
        self.store = store
        self.profile = profile
    }

    /// The current session (renewed ones included).
    public var current: Session { session }

    /// The bearer token to send now, renewed first when it is about to expire; nil for a cookie session.
    public func currentAuthentication() async throws -> Authentication? {
        guard let tokens = session.tokens else { return nil }
        if Date() >= tokens.renewAt { try await renew() }
        return session.tokens.map { .bearer($0.accessToken) }
    }

    /// Renews the token after the server refused it (one renewal for concurrent callers); true when renewed.
    public func reauthenticate() async throws -> Bool {
        try await renew()
        return true
    }

    /// Asks for a new token now (coalesced with a renewal already running).
    public func renew() async throws {
        if let running {
            // The renewal already running gives this caller its session too (its own caller may resume first).
            session = try await running.value
            return
        }
        // The new token is saved: a store that would refuse it refuses before the certificate or refresh token is used.
        if let store, let profile { try store.checkBeforeSignIn(profile: profile) }
        let task = Task { [client, session] in try await Self.renewed(session, client: client) }
        running = task
        defer { running = nil }
        let renewed = try await task.value
        renewals += 1
        session = renewed
        onRenewed?(renewed)
        if let store, let profile { try store.save(renewed, profile: profile) }
    }

    /// `session` with new tokens from its token endpoint.
    static func renewed(_ session: Session, client: HTTPClient) async throws(TokenError) -> Session {
        guard let tokens = session.tokens else { throw TokenError(.unexpectedResponse, detail: "not a token session") }
        let authority = EntraAuthority(host: tokens.authority, tenant: tokens.tenant)
        var renewed = session
        let now = Date()
        switch tokens.kind {
        case .appOnly:
            guard let credential = tokens.certificate else {
                throw TokenError(.credentialFile, detail: "the session does not say which certificate signed it in")
            }
            renewed.tokens = try await AppOnlySignIn.requestToken(
                client: client, authority: authority, appId: tokens.appId, scope: tokens.scope, credential: credential,
                policy: session.policy, now: now)
        case .deviceCode:
            guard let refresh = tokens.refreshToken else {
                throw TokenError(.refreshRejected, detail: "no refresh token")
            }
            try authority.check(session.policy)
            let object = try await TokenEndpoint.post(
                [
                    ("grant_type", "refresh_token"), ("client_id", tokens.appId),
                    ("refresh_token", refresh.revealedValue()), ("scope", DeviceCodeSignIn.scopes(tokens.scope)),
                ], to: authority.tokenURL, client: client)
            let response = try TokenEndpoint.tokens(object)
            var next = tokens
            next.accessToken = response.accessToken
            next.refreshToken = response.refreshToken ?? tokens.refreshToken
            next.obtainedAt = now
            next.expiresAt = now.addingTimeInterval(TimeInterval(response.expiresIn))
            renewed.tokens = next
        }
        renewed.provedAt = now
        return renewed
    }
}
