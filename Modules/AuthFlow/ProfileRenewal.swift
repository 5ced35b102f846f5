public import Foundation
public import Transport

/// How a saved profile's session is renewed when a server says it ended: the one implementation behind every front
/// end (the CLI's commands and the status app), so that they renew alike.
///
/// A token session (app-only, device code) gets a new access token from its own certificate or refresh token
/// (``TokenRenewal``, which also hands out the bearer token of every request: ``tokens``). A cookie session signs
/// in again the way the user signed in (``SessionReauthenticator``: a session another process saved meanwhile, then
/// the identity provider's own session, then the password), one renewal per profile at a time across processes.
/// Renewed sessions, and the record of every sign-in, are saved to the store.
///
/// Putting a cookie session's cookies into the client's jar is the caller's first step (``Session/install(into:)``);
/// ``reauthenticate()`` is what a `SharePointSite` is given as its `reauthenticate` closure.
/// Thread-safety: `Sendable`; concurrent callers of ``reauthenticate()`` share one renewal.
public final class ProfileRenewal: Sendable {
    /// For a token session: the bearer token of every request, renewed shortly before it expires; nil for a cookie
    /// session.
    public var tokens: TokenRenewal? {
        if case .tokens(let renewal) = renewer { return renewal }
        return nil
    }
    private let renewer: Renewer

    /// What renews the session, by its kind.
    private enum Renewer {
        /// A token session: a new access token.
        case tokens(TokenRenewal)
        /// A cookie session: a sign-in again.
        case signIn(SessionReauthenticator)
    }

    /// A renewal of `session`, the session saved as `profile` in `store`, whose requests go through `client`.
    ///
    /// - Parameters:
    ///   - recordSource: who renews, as the ``SignInRecord/source`` of the records (`spconnect renewal`,
    ///     `status app`).
    ///   - password: asked for only when a cookie session has to be signed in again with it; nil means none is
    ///     available (``reauthenticate()`` then answers false unless the identity provider's session is enough).
    ///   - oneTimeCode: where a renewal's one-time codes come from, if anywhere.
    ///   - now: the clock of the records.
    ///   - onRenewed: told each renewed session (new cookies or tokens) as soon as it is in place.
    public init(
        client: HTTPClient, session: Session, store: SessionStore, profile: String, recordSource: String,
        password: @escaping @Sendable () async -> Secret?, oneTimeCode: OneTimeCodeSource? = nil,
        now: @escaping @Sendable () -> Date = { Date() }, onRenewed: (@Sendable (Session) -> Void)? = nil
    ) {
        if session.tokens != nil {
            renewer = .tokens(
                TokenRenewal(client: client, session: session, store: store, profile: profile, onRenewed: onRenewed))
        } else {
            renewer = .signIn(
                SessionReauthenticator(
                    client: client, session: session, store: store, profile: profile, recordSource: recordSource,
                    password: password, oneTimeCode: oneTimeCode, now: now, onRenewed: onRenewed))
        }
    }

    /// Renews the session once (one renewal for concurrent callers): true when new credentials are in place and the
    /// request may be sent again, false when no credentials are available; throws when the renewal failed
    /// (``SessionReauthenticator/Failure``, ``TokenError``, or the store's error when the new session cannot be saved).
    @Sendable public func reauthenticate() async throws -> Bool {
        switch renewer {
        case .tokens(let renewal): return try await renewal.reauthenticate()
        case .signIn(let renewal): return try await renewal.reauthenticate()
        }
    }

    /// The session in use now (the renewed one after a renewal).
    public var current: Session {
        get async {
            switch renewer {
            case .tokens(let renewal): return await renewal.current
            case .signIn(let renewal): return await renewal.current
            }
        }
    }

    /// How the last sign-in a cookie session's renewal ran failed (nil before any, after one that worked, and for a
    /// token session).
    public var lastFailure: SessionReauthenticator.Failure? {
        get async {
            guard case .signIn(let renewal) = renewer else { return nil }
            return await renewal.lastFailure
        }
    }

    /// The record of the last sign-in a cookie session's renewal ran (nil before any, and for a token session).
    public var lastRecord: SignInRecord? {
        get async {
            guard case .signIn(let renewal) = renewer else { return nil }
            return await renewal.lastRecord
        }
    }
}
