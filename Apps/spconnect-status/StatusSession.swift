import AppSupport
import AuthFlow
import Foundation
import Presentation
import SharePoint
import Transport

/// The session the status app watches: the profile's saved session (read again from the store on every check, so
/// a `spconnect login` elsewhere shows up on reload), one Transport client holding its cookies, the site client,
/// the cached proof request and the last sign-in this app ran. The page shows the newest of that sign-in and the
/// profile's stored last sign-in record (``SessionStore/lastSignIn(profile:)``, kept by `spconnect login` too).
///
/// An actor: page handlers on the server's threads call it through ``blockingAwait(_:)``. It renews the session the
/// way the CLI does (AuthFlow's ``ProfileRenewal``), with this app's rule on top: when SharePoint says the session
/// ended and credentials are available, it signs in again (one sign-in shared by concurrent callers), but not again
/// soon after a failed one; the trace is kept for the page.
actor StatusSession {
    /// What the app was started with.
    struct Configuration: Sendable {
        var profile: String
        var store: SessionStore
        /// The password for a sign-in, asked each time one is needed; nil when none is available.
        var password: @Sendable () -> Secret?
        /// Whether credentials are available at all (shows the "sign in again" button).
        var canSignIn: Bool
        /// The passwords a page must never show, when not just ``password``'s (which a page load must not run:
        /// it may run a command or ask the keyring).
        var knownPasswords: (@Sendable () -> [Secret])? = nil
        /// Why the last ``password`` call gave none, for the page.
        var passwordProblem: (@Sendable () -> String?)? = nil
        var clientConfiguration: HTTPClient.Configuration
        /// How long a proof result is reused before the next page load sends another.
        var proofCacheSeconds: Double = 5
        /// How long after a failed sign-in an ended session is not renewed automatically.
        var renewalPause: TimeInterval = 300
        var now: @Sendable () -> Date = { Date() }
        /// The environment the renewal's password sources are read from (for the page's renewal line).
        var environment: [String: String] = ProcessInfo.processInfo.environment
        /// Where a sign-in's one-time codes come from (`SPCONNECT_OTP_COMMAND`, `SPCONNECT_TOTP_SECRET_FILE`), as
        /// for spconnect's renewals; nil: a second factor ends the sign-in.
        var oneTimeCode: OneTimeCodeSource? = nil
    }

    /// The ``SignInRecord/source`` of the sign-ins this app runs (its button and its renewals).
    static let recordSource = "status app"

    /// The result of the last proof request, and when the page may reuse it.
    struct Proof: Sendable {
        var fact: StatusPages.ProofFact
        var health: StatusPages.Health
        var validUntil: ContinuousClock.Instant
    }

    let configuration: Configuration
    /// The client holding the session's cookies; made again when a session of another site (another plain-http
    /// rule) is adopted.
    private var client: HTTPClient
    private var session: Session?
    private var loadFailure: String?
    private var siteClient: SharePointSite?
    /// The renewal of the adopted session (made again with every session adopted).
    private var renewal: ProfileRenewal?
    private var proof: Proof?
    private var proofTask: Task<Proof, Never>?
    private var lastSignIn: StatusPages.SignInFact?
    private var signInTask: Task<Bool, Never>?

    init(_ configuration: Configuration) throws(TransportError) {
        self.configuration = configuration
        var clientConfiguration = configuration.clientConfiguration
        clientConfiguration.plainHTTP = .never
        self.client = try HTTPClient(configuration: clientConfiguration)
    }

    /// Reads' retries: a page someone waits for answers at once rather than after a minute of backoff (the CLI's
    /// 6 attempts take 8 to 15 s for a site that refuses connections); the per-request timeouts are the CLI's
    /// (Transport's defaults: 15 s to connect, 30 s of a stalled transfer). A reload tries again.
    static let readRetry = RetryPolicy(
        maxAttempts: 2, baseDelay: .milliseconds(200), maxDelay: .seconds(1), maxRetryAfter: .seconds(5))

    /// The client settings for a session of `siteURL`: the app's TLS options and the CLI's plain-http rule
    /// (``PlainHTTPRule/forSession(of:)``: a session made over https is never sent over plain http, not even by a
    /// redirect or a next link).
    func clientConfiguration(forSite siteURL: String) -> HTTPClient.Configuration {
        var clientConfiguration = configuration.clientConfiguration
        clientConfiguration.plainHTTP = .forSession(of: siteURL)
        return clientConfiguration
    }

    // MARK: Facts

    /// The facts of `/` and `/status.json`, sending a proof request unless a recent one can be reused.
    func facts(csrfToken: String) async -> StatusPages.SessionFacts {
        reload()
        var facts = StatusPages.SessionFacts(
            profile: configuration.profile, health: .healthy, canSignIn: configuration.canSignIn, csrfToken: csrfToken)
        facts.lastSignIn = newestSignIn()
        guard let session else {
            facts.health = .unhealthy(
                code: "no-session",
                reason: loadFailure
                    ?? "No saved session for profile '\(configuration.profile)'. Run 'spconnect login --site URL"
                    + " --user NAME\(configuration.profile == "default" ? "" : " --profile " + configuration.profile)'"
                    + " and reload.")
            return facts
        }
        let proof = await currentProof()
        // The proof may have renewed the session: describe the one in use now.
        let current = self.session ?? session
        facts.siteURL = current.siteURL
        facts.user = current.user
        facts.displayName = current.displayName
        facts.flow = current.flow
        facts.provedAt = current.provedAt
        let now = configuration.now()
        facts.lifetime = SessionSummary.lifetimes(current) { end in
            let when = HumanFormat.expiry(end, now: now)
            return when.hasPrefix("in ") ? "ending " + when : when
        }
        // The status app renews from the environment's sources; it has no terminal to ask on.
        facts.renewal = SessionSummary.renewal(current, environment: configuration.environment, terminal: false)
        facts.cookies = current.cookies.map { StatusPages.CookieFact(name: $0.name, expires: $0.expires) }
        facts.proof = proof.fact
        facts.health = proof.health
        facts.lastSignIn = newestSignIn()
        return facts
    }

    /// The newest of the last sign-in this app ran and the one the store keeps for the profile (a `spconnect login`,
    /// a renewal by another command, or this app's own, saved there too). An unreadable record counts as none.
    private func newestSignIn() -> StatusPages.SignInFact? {
        guard let record = try? configuration.store.lastSignIn(profile: configuration.profile) else {
            return lastSignIn
        }
        if let lastSignIn, lastSignIn.at >= record.at { return lastSignIn }
        return record
    }

    /// The site client, or a typed reason why there is none.
    func site() -> Result<SharePointSite, StatusFailure> {
        reload()
        guard let siteClient else {
            return .failure(
                StatusFailure(
                    status: 503, title: "Not signed in",
                    message: loadFailure ?? "No saved session for profile '\(configuration.profile)'."))
        }
        return .success(siteClient)
    }

    /// The site's server-relative path (`/sites/team`, or `/` at the root), when a session is known.
    func siteServerRelativePath() -> String? {
        reload()
        guard let session, let components = URLComponents(string: session.siteURL) else { return nil }
        let path = components.percentEncodedPath.removingPercentEncoding ?? components.path
        return path.isEmpty ? "/" : path
    }

    private func currentProof() async -> Proof {
        if let proof, ContinuousClock.now < proof.validUntil { return proof }
        if let proofTask { return await proofTask.value }
        let task = Task { await self.sendProof() }
        proofTask = task
        let result = await task.value
        proofTask = nil
        proof = result
        return result
    }

    private func sendProof() async -> Proof {
        let started = ContinuousClock.now
        let at = configuration.now()
        let validUntil = started + .milliseconds(Int(configuration.proofCacheSeconds * 1000))
        guard let siteClient else {
            return Proof(
                fact: StatusPages.ProofFact(at: at, latencyMilliseconds: 0, failure: "no session"),
                health: .unhealthy(code: "no-session", reason: "No saved session."), validUntil: validUntil)
        }
        do {
            let user = try await siteClient.currentUser()
            let latency = Self.milliseconds(ContinuousClock.now - started)
            return Proof(
                fact: StatusPages.ProofFact(at: at, latencyMilliseconds: latency, userTitle: user.title),
                health: .healthy, validUntil: validUntil)
        } catch {
            let latency = Self.milliseconds(ContinuousClock.now - started)
            return Proof(
                fact: StatusPages.ProofFact(
                    at: at, latencyMilliseconds: latency, failure: Self.proofFailure(error)),
                health: health(for: error), validUntil: validUntil)
        }
    }

    /// The typed state a failed proof request means.
    private func health(for error: SharePointError) -> StatusPages.Health {
        switch error.kind {
        case .authenticationRequired, .formsAuthRequired:
            if let lastSignIn, !lastSignIn.succeeded {
                return .unhealthy(
                    code: "sign-in-failed",
                    reason: "The session has ended and signing in again failed: " + lastSignIn.message)
            }
            let advice =
                configuration.canSignIn || renewsSilently
                ? "Use \"Sign in again\"."
                : "Run 'spconnect login' (or start the app with SPCONNECT_PASSWORD) and reload."
            return .unhealthy(
                code: "session-gone", reason: "SharePoint no longer accepts the session's cookies. " + advice)
        case .transport:
            return .unhealthy(code: "unreachable", reason: StatusFailure(error, doing: "prove the session").sentence)
        case .accessDenied:
            // A token session: what its token may do and which permission would let it read the site.
            let advice = session.flatMap { SessionSummary.tokenAccessAdvice(error, session: $0) }
            return .unhealthy(
                code: "access-denied",
                reason: StatusFailure(error, doing: "read the site").sentence + (advice.map { " " + $0 } ?? ""))
        default:
            return .unhealthy(code: "error", reason: StatusFailure(error, doing: "prove the session").sentence)
        }
    }

    /// What the session page says after "the proof request failed": the failure's heading and its code line.
    static func proofFailure(_ error: SharePointError) -> String {
        let failure = StatusFailure(error, doing: "prove the session")
        return failure.title + (failure.detail.map { " (" + $0 + ")" } ?? "")
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// The secrets a page must never show: the password (when one is configured) and the jar's cookie values.
    func secretScrubber() -> SecretScrubber {
        var scrubber = SecretScrubber(
            secrets: configuration.knownPasswords?() ?? configuration.password().map { [$0] } ?? [])
        let cookies = (try? client.cookies.all()) ?? []
        scrubber.add(cookies.map(\.value), minimumLength: SecretScrubber.cookieMinimumLength)
        return scrubber
    }

    // MARK: Loading the saved session

    /// Reads the profile's session file again; installs its cookies when it changed (a login elsewhere).
    private func reload() {
        let loaded: Session?
        do {
            loaded = try configuration.store.load(profile: configuration.profile)
            loadFailure = nil
        } catch {
            loadFailure = error.description
            return
        }
        guard let loaded else {
            if session != nil, lastSignIn?.succeeded != true { adopt(nil) }
            return
        }
        if loaded != session { adopt(loaded) }
    }

    private func adopt(_ new: Session?) {
        if let old = session {
            for cookie in old.cookies { try? client.cookies.remove(cookie) }
        }
        session = new
        proof = nil
        guard let new else {
            siteClient = nil
            renewal = nil
            return
        }
        let rule = PlainHTTPRule.forSession(of: new.siteURL)
        if client.configuration.plainHTTP != rule {
            do {
                client = try HTTPClient(configuration: clientConfiguration(forSite: new.siteURL))
                siteClient = nil
            } catch {
                loadFailure = "no HTTP client could be made for the session: \(error.description)"
                siteClient = nil
                return
            }
        }
        let renewal = ProfileRenewal(
            client: client, session: new, store: configuration.store, profile: configuration.profile,
            recordSource: Self.recordSource, password: configuration.password, oneTimeCode: configuration.oneTimeCode,
            now: configuration.now)
        self.renewal = renewal
        if new.tokens != nil {
            // A token session (app-only, device code): every request carries its bearer token, renewed by the
            // session's own certificate or refresh token, never by a password.
            siteClient = SharePointSite(
                client: client, siteURL: new.siteURL, reauthenticate: renewal.reauthenticate,
                readRetry: Self.readRetry, authenticationProvider: renewal.tokens)
            return
        }
        do {
            try new.install(into: client)
        } catch {
            loadFailure = "the session's cookies could not be used: \(error.description)"
        }
        if siteClient?.siteURL != Self.trimmed(new.siteURL) || siteClient?.client !== client
            || siteClient?.authenticationProvider != nil
        {
            // A session of HTTP authentication signs each request in as spconnect's commands do (Basic and NTLM
            // with the password from the app's sources, Kerberos with the ticket kinit keeps).
            var authentication: Authentication?
            switch new.requestAuthentication(password: configuration.password) {
            case .cookies: break
            case .everyRequest(let credentials): authentication = credentials
            case .passwordNeeded:
                // Nothing to sign requests with: the proof fails, and the page's renewal line says what to set.
                break
            }
            siteClient = SharePointSite(
                client: client, siteURL: new.siteURL, authentication: authentication,
                reauthenticate: { try await self.reauthenticate() }, readRetry: Self.readRetry)
        }
    }

    private static func trimmed(_ url: String) -> String {
        var text = url
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    // MARK: Signing in

    /// Signs in again with the saved session's site, user, flow and policy (the "sign in again" button).
    /// Returns whether a new session was installed; the outcome and trace are kept for the page.
    @discardableResult
    func signInAgain() async -> Bool {
        if let signInTask { return await signInTask.value }
        let task = Task { await self.runSignIn() }
        signInTask = task
        let result = await task.value
        signInTask = nil
        return result
    }

    /// Whether the saved session can be renewed without a password, as the CLI renews it: it kept the identity
    /// provider's own session (`login --stay-signed-in`), which the renewal tries first.
    private var renewsSilently: Bool { session?.staySignedIn == true }

    /// Called by the site client on 401/403: sign in again when credentials are available (a password, or the
    /// identity provider's kept session), but not again within
    /// ``Configuration/renewalPause`` of a failed sign-in (reloading the page must not lock the account with a
    /// wrong password; the button still signs in at once).
    func reauthenticate() async throws -> Bool {
        guard configuration.canSignIn || renewsSilently else { return false }
        if let lastSignIn, !lastSignIn.succeeded,
            configuration.now().timeIntervalSince(lastSignIn.at) < configuration.renewalPause
        {
            return false
        }
        return await signInAgain()
    }

    private func runSignIn() async -> Bool {
        reload()
        guard let session else {
            lastSignIn = StatusPages.SignInFact(
                at: configuration.now(), succeeded: false,
                message: "no saved session says which site, user and flow to use; run 'spconnect login' first.",
                steps: [], source: Self.recordSource)
            return false
        }
        guard configuration.canSignIn || renewsSilently, let renewal else {
            lastSignIn = StatusPages.SignInFact(
                at: configuration.now(), succeeded: false,
                message: "no password is available (set SPCONNECT_PASSWORD, SPCONNECT_PASSWORD_FILE or "
                    + "SPCONNECT_PASSWORD_COMMAND, or log in with --password-command or --save-password).", steps: [],
                source: Self.recordSource)
            return false
        }
        // The CLI's renewal (it saves the new session and the record of its sign-in to the store).
        let before = await renewal.lastRecord
        let renewed = (try? await renewal.reauthenticate()) ?? false
        if let record = await renewal.lastRecord { lastSignIn = record }
        if !renewed, await renewal.lastRecord == before, let problem = configuration.passwordProblem?() {
            // No sign-in ran: the password source gave nothing.
            lastSignIn = StatusPages.SignInFact(
                at: configuration.now(), succeeded: false, message: problem + ".", steps: [],
                source: Self.recordSource)
        }
        guard renewed else {
            // The button may be pressed while the session still works: a failed sign-in leaves its cookies in use.
            try? session.install(into: client)
            proof = nil
            return false
        }
        adopt(await renewal.current)
        return true
    }
}
