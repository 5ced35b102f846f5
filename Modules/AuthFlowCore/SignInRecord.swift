public import Foundation
import TransportValues

/// A summary of one sign-in that is safe to keep on disk and show on a status page: when it ended, whether it
/// produced a session, the outcome's sentence and the steps reduced to what holds no secret.
///
/// `SessionStore` keeps the last one per profile (``SessionStore/saveLastSignIn(_:profile:)``), so a status page
/// can show how the last sign-in went whoever ran it. A step keeps the host of its URL only (no path, no query),
/// and names (never values) of cookies and form fields; the message is ``SignInOutcome/message``, whose URLs are
/// redacted. Passwords, cookie values, tokens and query strings never reach a record.
public struct SignInRecord: Sendable, Equatable, Codable {
    /// One step of the sign-in: what was sent to which host, and what the engine saw and decided.
    public struct Step: Sendable, Equatable, Codable {
        /// The step number (the first request is step 0, as in the trace).
        public var step: Int
        /// The HTTP method.
        public var method: String
        /// The host the request went to, with its port when the URL named one (`login.contoso.com`,
        /// `127.0.0.2:8443`); never a path or query.
        public var host: String
        /// Why the engine sent it (the previous step's decision, or `start`).
        public var purpose: String
        /// The HTTP status, when an answer came.
        public var status: Int?
        /// The page kind the engine saw (`credential-form`, `auto-post`, ...), when it read a page.
        public var pageKind: String?
        /// What the engine decided on the answer.
        public var decision: String?
        /// Names (never values) of the cookies the answer set.
        public var cookiesSet: [String]
        /// Names (never values) of the form fields sent.
        public var fieldsSent: [String]

        /// Creates a step.
        public init(
            step: Int, method: String, host: String, purpose: String, status: Int? = nil, pageKind: String? = nil,
            decision: String? = nil, cookiesSet: [String] = [], fieldsSent: [String] = []
        ) {
            self.step = step
            self.method = method
            self.host = host
            self.purpose = purpose
            self.status = status
            self.pageKind = pageKind
            self.decision = decision
            self.cookiesSet = cookiesSet
            self.fieldsSent = fieldsSent
        }

        /// The trace step without its URL's path and query: only the host (and port) is kept.
        public init(_ traceStep: SignInTraceStep) {
            self.init(
                step: traceStep.step, method: traceStep.method, host: Self.host(of: traceStep.url),
                purpose: traceStep.purpose, status: traceStep.status, pageKind: traceStep.pageKind,
                decision: traceStep.decision, cookiesSet: traceStep.cookiesSet, fieldsSent: traceStep.fieldsSent)
        }

        /// `host[:port]` of `url`, or `?` when it has none.
        public static func host(of url: String) -> String {
            guard let parts = URLParts(url), !parts.host.isEmpty else { return "?" }
            return parts.displayAuthority
        }
    }

    /// When the sign-in ended.
    public var at: Date
    /// Whether it produced a session.
    public var succeeded: Bool
    /// The outcome's sentence (``SignInOutcome/message``): what happened and what to do.
    public var message: String
    /// The steps, in order.
    public var steps: [Step]
    /// Who ran the sign-in, in a few words a person reads (`spconnect login`, `spconnect renewal`, `status app`);
    /// nil when the writer did not say (records kept before this field existed read as nil).
    public var source: String?
    /// What the user could change to get further (``SignInOutcome/hints``), typed: each front end words them as its
    /// own settings. Empty in records kept before this field existed.
    public var hints: [SignInHint]

    /// Creates a record.
    public init(
        at: Date, succeeded: Bool, message: String, steps: [Step], source: String? = nil, hints: [SignInHint] = []
    ) {
        self.at = at
        self.succeeded = succeeded
        self.message = message
        self.steps = steps
        self.source = source
        self.hints = hints
    }

    private enum CodingKeys: String, CodingKey { case at, succeeded, message, steps, source, hints }

    /// Reads a record; one written before hints were kept reads with none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            at: try container.decode(Date.self, forKey: .at),
            succeeded: try container.decode(Bool.self, forKey: .succeeded),
            message: try container.decode(String.self, forKey: .message),
            steps: try container.decode([Step].self, forKey: .steps),
            source: try container.decodeIfPresent(String.self, forKey: .source),
            hints: try container.decodeIfPresent([SignInHint].self, forKey: .hints) ?? [])
    }

    /// The record of a sign-in that ended with `outcome` after the steps of `trace` (as ``SignIn/Options/trace``
    /// delivered them), run by `source`.
    public init(outcome: SignInOutcome, trace: [SignInTraceStep], at: Date = Date(), source: String? = nil) {
        var succeeded = false
        if case .signedIn = outcome { succeeded = true }
        self.init(
            at: at, succeeded: succeeded, message: outcome.message, steps: trace.map(Step.init), source: source,
            hints: outcome.hints)
    }
}
