public import Foundation
public import Transport

/// Renews a session when the server says it has ended (401, or 403 with `X-Forms_Based_Auth_Required`):
/// signs in again the way the user signed in (``Session/renewalConfiguration(password:)``: site, user, flow, policy, target
/// cookies, "Stay signed in?" answer, login service), puts the new cookies into the client's jar,
/// and saves the new session to the store, with a ``SignInRecord`` of the renewal (succeeded or not) beside it.
///
/// An actor: concurrent callers (parallel downloads that all hit the expiry) share one sign-in. Front ends renew a
/// saved profile through ``ProfileRenewal``, which picks this for a cookie session.
public actor SessionReauthenticator {
    /// Errors of a renewal that was tried and failed.
    public struct Failure: Error, CustomStringConvertible {
        /// How the renewal's sign-in ended.
        public let outcome: SignInOutcome
        /// The renewal's failure in one sentence.
        public var description: String { "the session ended and signing in again failed: " + outcome.message }
    }

    private let client: HTTPClient
    private var session: Session
    private let store: SessionStore?
    private let profile: String?
    private let password: @Sendable () async -> Secret?
    /// Where a renewal's one-time codes come from, if anywhere.
    private let oneTimeCode: OneTimeCodeSource?
    private let recordSource: String
    private let now: @Sendable () -> Date
    private var running: Task<Bool, any Error>?
    /// How many sign-ins this object ran (for tests).
    package private(set) var renewals = 0
    /// The record of the last sign-in this object ran (also saved to the store, when there is one).
    public private(set) var lastRecord: SignInRecord?
    /// How the last renewal failed, when it did (nil after one that worked): front ends tell a refused password
    /// (``SignInOutcome/invalidCredentials(message:code:)``) from a session that merely ended.
    public private(set) var lastFailure: Failure?

    /// Told each renewed session as soon as it is in place.
    private let onRenewed: (@Sendable (Session) -> Void)?

    /// - Parameters:
    ///   - password: asked for only when a renewal is needed; nil means no credentials are available,
    ///     and `reauthenticate()` then answers false.
    ///   - recordSource: the ``SignInRecord/source`` of the renewals' records (who renewed the session).
    ///   - now: the clock of the records' ``SignInRecord/at``.
    ///   - onRenewed: told each renewed session as soon as it is in place (an app remembers its new secrets to keep
    ///     them out of its messages).
    public init(
        client: HTTPClient, session: Session, store: SessionStore? = nil, profile: String? = nil,
        recordSource: String = "renewal", password: @escaping @Sendable () async -> Secret?,
        oneTimeCode: OneTimeCodeSource? = nil, now: @escaping @Sendable () -> Date = { Date() },
        onRenewed: (@Sendable (Session) -> Void)? = nil
    ) {
        self.now = now
        self.onRenewed = onRenewed
        self.oneTimeCode = oneTimeCode
        self.client = client
        self.session = session
        self.store = store
        self.profile = profile
        self.password = password
        self.recordSource = recordSource
    }

    /// The current session (renewed ones included).
    public var current: Session { session }

    /// Signs in again (one sign-in for concurrent callers); true when a new session is in the jar, false when no
    /// password is available; throws ``Failure`` when the sign-in failed.
    public func reauthenticate() async throws -> Bool {
        if let running { return try await running.value }
        let task = Task { try await renew() }
        running = task
        defer { running = nil }
        do {
            let renewed = try await task.value
            lastFailure = nil
            return renewed
        } catch let failure as Failure {
            lastFailure = failure
            throw failure
        }
    }

    /// Whether a saved session proven at `saved` is newer than the one in hand, proven at `current`: by more than a
    /// millisecond, since the session file keeps the time as seconds since 1970 and reading it back can give a time
    /// one rounding step later than the one saved (about one save in four) — the same session, not a newer one.
    static func isNewer(_ saved: Date, than current: Date) -> Bool {
        saved.timeIntervalSince(current) > 0.001
    }

    private func renew() async throws -> Bool {
        // One renewal per profile at a time, across processes: who waited takes the session the first one saved.
        let lock: RenewalLock? =
            if let store, let profile { await RenewalLock.acquire(profile: profile, in: store) } else { nil }
        defer { withExtendedLifetime(lock) {} }
        for cookie in session.cookies { try? client.cookies.remove(cookie) }
        if let store, let profile, let saved = try? store.load(profile: profile),
            Self.isNewer(saved.provedAt, than: session.provedAt), saved.siteURL == session.siteURL
        {
            try saved.install(into: client)
            session = saved
            return true
        }
        // The renewed session is saved: a store that would refuse it refuses before any cookie or password is sent.
        if let store, let profile { try store.checkBeforeSignIn(profile: profile) }
        // First as a browser would: the identity provider's own session, and no password at all.
        if !session.identityProviderCookies.isEmpty {
            try? session.installIdentityProviderCookies(into: client)
            var silent = session.renewalConfiguration(password: Secret(""))
            silent.silent = true
            switch try await signIn(silent) {
            case .signedIn: return true
            case .interactionRequired(.credentialsNeeded, _, _, _, _): break
            case let other: throw Failure(outcome: other)
            }
        }
        // A Kerberos session signs in again with the ticket alone (kinit keeps it fresh), never a password.
        let needsPassword = session.flow != SignInFlow.kerberos.rawValue
        guard let secret = needsPassword ? await password() : Secret("") else { return false }
        switch try await signIn(session.renewalConfiguration(password: secret)) {
        case .signedIn: return true
        case let other: throw Failure(outcome: other)
        }
    }

    /// Runs one sign-in; keeps its record and, when it succeeded, the new session (in memory and in the store).
    private func signIn(_ configuration: SignInConfiguration) async throws -> SignInOutcome {
        let collector = SignInTraceCollector()
        let outcome = await SignIn(
            client: client, configuration: configuration,
            options: SignIn.Options(trace: collector.add, oneTimeCode: oneTimeCode)
        ).run()
        renewals += 1
        // A status page shows how the last sign-in went; failing to keep the summary does not fail the renewal.
        let record = SignInRecord(
            outcome: outcome, trace: collector.steps, at: now(),
            source: recordSource + (configuration.silent ? " (identity-provider session)" : ""))
        lastRecord = record
        guard case .signedIn(var renewed) = outcome else {
            if let store, let profile { try? store.saveLastSignIn(record, profile: profile) }
            return outcome
        }
        renewed.keepPasswordSource(of: session)
        session = renewed
        onRenewed?(renewed)
        if let store, let profile {
            try store.save(renewed, profile: profile)
            try? store.saveLastSignIn(record, profile: profile)
        }
        return outcome
    }
}
