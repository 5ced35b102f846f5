/// Where one sign-in is, with the data only that phase needs. The machine moves through them as its driver feeds
/// it; feeding it in the wrong phase is the driver's bug, stopped by a precondition, never a sign-in outcome.
enum SignInPhase: Sendable {
    /// Before ``SignInMachine/start()``.
    case idle
    /// A request of the sign-in is out; its answer goes to the redirect, challenge and page rules.
    case navigating
    /// A proof request is out (see ``ProofAttempt``).
    case proving(ProofAttempt)
    /// A one-time-code page waits for the driver's ``SignInMachine/provide(code:)``.
    case awaitingCode(PendingCode)
    /// The sign-in ended with an outcome; nothing more may be fed.
    case finished

    /// The phase's name, for precondition messages.
    var name: String {
        switch self {
        case .idle: "idle"
        case .navigating: "navigating"
        case .proving: "proving"
        case .awaitingCode: "awaiting a one-time code"
        case .finished: "finished"
        }
    }
}

/// One proof of the session, across the same-origin redirects it follows.
struct ProofAttempt: Sendable {
    /// The most same-origin redirects one proof follows.
    static let maximumHops = 5

    /// Same-origin redirects followed so far.
    var hops = 0
    /// The answer a cookie-triggered proof interrupted, and the request it answered: where the sign-in goes on when
    /// the proof lands on a sign-in page (the proof was a guess; the page received before it is the one to read).
    var interrupted: (response: SignInResponse, request: SignInRequest?)?
    /// The proof was asked by a page of the target that reads like an error after the credentials went: when it
    /// fails, that page is read as it is (the target's pages are judged by whether the session opens the target,
    /// and only then by their words).
    var fallsBackToPage = false
}
