import Foundation
public import TransportValues

/// How a sign-in ended. Never a generic failure: each case says what happened and what to do.
public enum SignInOutcome: Sendable {
    /// Signed in, and the session was proven with a signed-in request.
    case signedIn(Session)
    /// The identity provider rejected the user name or password; `message` is the page's own text.
    case invalidCredentials(message: String, code: String?)
    /// A person must act (MFA, Conditional Access, a password change, consent, an unknown interrupt).
    /// For an unknown interrupt, `dumpPath` holds a redacted copy of the page when ``SignIn/Options/dumpPagesDirectory``
    /// asked for one; `hints` says what the user could change (see ``SignInOutcome/hints``, which adds the
    /// hints every such outcome has).
    case interactionRequired(
        InteractionKind, pageId: String?, message: String?, dumpPath: String? = nil, hints: [SignInHint] = [])
    /// A page the engine does not know how to go on from. `dumpPath` holds a redacted copy when asked; `hints`
    /// says what the user could change.
    case unknownPage(kind: String, url: String, dumpPath: String?, hints: [SignInHint] = [])
    /// The flow went round in circles or took more than the allowed number of steps. `dumpPath` holds a
    /// redacted copy of the last page seen when ``SignIn/Options/dumpPagesDirectory`` asked for one.
    case loop(url: String, steps: Int, dumpPath: String? = nil)
    /// A second factor was asked for and did not complete (denied, timed out, wrong code, blocked, not offered).
    case secondFactorFailed(SecondFactorFailure)
    /// The sign-in policy stopped a step (password to a foreign host, plain http, a downgrade, ...).
    case policyRefused(SignInPolicy.Refusal)
    /// The network, TLS or HTTP layer failed.
    case transport(TransportError)

    /// A one-paragraph explanation of what happened. URLs in it have their query values redacted (see
    /// ``Redaction/url(_:)``), so it may be printed, logged or saved as it is. It names no front end's options:
    /// what the user could change is in ``hints``, for the front end to word.
    public var message: String {
        switch self {
        case .signedIn(let session):
            return "signed in as \(session.displayName ?? session.user) at \(session.siteURL) (\(session.flow))."
        case .invalidCredentials(let message, let code):
            // A refusal of another credential (a passkey, a certificate, a Temporary Access Pass) names its code
            // and its way forward itself: the password's advice would mislead.
            let otherCredential = ["passkey", "certificate", "Temporary Access Pass"].contains {
                message.localizedCaseInsensitiveContains($0)
            }
            let named = code.map { message.contains("code \($0)") } ?? true
            return "the sign-in was rejected: \(sentence(message))" + (named ? "" : " (code \(code ?? ""))")
                + (otherCredential ? "." : ". Check the user name and password.")
        case .interactionRequired(let kind, let pageId, let message, let dumpPath, _):
            var text =
                kind.stops
                ? "the identity provider stopped the sign-in" : "the identity provider asks for \(kind.explanation)"
            if let pageId { text += " (page \(pageId))" }
            if let message, !message.isEmpty { text += ": \(sentence(message))" }
            text += kind.advice ?? ". Complete it once in a browser, or use an account or flow without it."
            return text + dumpAdvice(dumpPath)
        case .unknownPage(let kind, let url, let dumpPath, _):
            return "the sign-in reached a page it cannot handle (\(kind)) at \(Redaction.url(url))."
                + dumpAdvice(dumpPath)
        case .loop(let url, let steps, let dumpPath):
            return "the sign-in went round in circles (\(steps) steps, last at \(Redaction.url(url))). "
                + "Check the site URL and flow." + dumpAdvice(dumpPath)
        case .secondFactorFailed(let failure):
            return failure.message
        case .policyRefused(let refusal):
            return refusal.description
        case .transport(let error):
            return error.description
        }
    }
}

/// What kind of interaction an identity provider asked for. An open set (decision 0008's pattern): a rule or
/// strategy that ends a sign-in in a way of its own declares its kind beside it, with the words the outcome's
/// message uses.
public struct InteractionKind: Sendable, Hashable, CustomStringConvertible {
    /// The kind's name (`mfa`, `conditionalAccess`…).
    public let rawValue: String
    /// What the identity provider asks for, as the message words it ("a second factor (MFA)").
    let explanation: String
    /// Whether the identity provider stopped the sign-in rather than asked for something.
    package let stops: Bool
    /// What the message says after the page's words; nil for the usual "complete it once in a browser".
    let advice: String?

    /// A kind named `rawValue`; see each property for the others.
    init(_ rawValue: String, explanation: String, stops: Bool = false, advice: String? = nil) {
        self.rawValue = rawValue
        self.explanation = explanation
        self.stops = stops
        self.advice = advice
    }

    /// Same kind: same ``rawValue``.
    public static func == (lhs: InteractionKind, rhs: InteractionKind) -> Bool { lhs.rawValue == rhs.rawValue }
    /// Hashes the ``rawValue``.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    /// The ``rawValue``.
    public var description: String { rawValue }

    /// A second factor the engine could not answer.
    public static let mfa = InteractionKind("mfa", explanation: "a second factor (MFA)")
    /// A Conditional Access step (a compliant device, a location, a policy).
    public static let conditionalAccess = InteractionKind(
        "conditionalAccess", explanation: "a Conditional Access step")
    /// A forced password change.
    public static let passwordChange = InteractionKind("passwordChange", explanation: "a password change")
    /// Consent to an application, or a notice whose way on leaves the allowed hosts.
    public static let consent = InteractionKind("consent", explanation: "consent to an application")
    /// An interruption the engine does not know.
    public static let unknownInterrupt = InteractionKind(
        "unknownInterrupt", explanation: "an interaction this engine does not know")
    /// The account is federated: its organisation's own identity provider signs it in, and the engine could
    /// not get there (Entra's `AADSTS50107` for a password posted to Entra directly).
    public static let federatedSignIn = InteractionKind(
        "federatedSignIn",
        explanation: "a sign-in at the organisation's own identity provider (a federated account)",
        advice: ". This is not a wrong password: the engine could not follow Entra to the organisation's sign-in page.")
    /// The identity provider stopped the sign-in with an error that is not about the password (a guest from
    /// another tenant, a user not assigned to the application, a reply address, an expired flow, an unknown
    /// code); the message carries the provider's text and code.
    public static let identityProviderError = InteractionKind(
        "identityProviderError", explanation: "nothing: it stopped the sign-in with an error", stops: true,
        advice: ". This is not about the password: the error says what is wrong, and may need the "
            + "tenant's administrator (an invitation, an assignment to the application) or a new sign-in.")
    /// A renewal without a password (``SignInConfiguration/silent``) reached a page that asks for credentials:
    /// the identity provider's own session has ended.
    public static let credentialsNeeded = InteractionKind("credentialsNeeded", explanation: "the password again")
}

/// Where the redacted copy of the page went, when one was saved.
private func dumpAdvice(_ dumpPath: String?) -> String {
    dumpPath.map { " A redacted copy of the page is in \($0); attach it to a bug report." } ?? ""
}

/// `text` without a final full stop, so a message can go on after it; a page's text longer than
/// ``longestQuotedText`` characters (a stack trace an error page shows, say) is cut at a word and ends with "…":
/// the message says what happened, the dump of the page keeps the rest.
private func sentence(_ text: String) -> String {
    var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.count > longestQuotedText {
        let cut = trimmed.prefix(longestQuotedText)
        trimmed = String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + " …"
    }
    while trimmed.hasSuffix(".") { trimmed.removeLast() }
    return trimmed
}

/// The most characters of a page's own text an outcome's message quotes.
private let longestQuotedText = 300

extension SignInOutcome {
    /// The same outcome with `scrubber`'s secrets removed from every text that came from a server (page
    /// messages, names, URLs, libcurl's detail).
    package func scrubbed(by scrubber: SecretScrubber) -> SignInOutcome {
        guard !scrubber.isEmpty else { return self }
        let scrub = scrubber.scrub
        switch self {
        case .signedIn(var session):
            session.displayName = session.displayName.map(scrub)
            return .signedIn(session)
        case .invalidCredentials(let message, let code):
            return .invalidCredentials(message: scrub(message), code: code.map(scrub))
        case .interactionRequired(let kind, let pageId, let message, let dumpPath, let hints):
            return .interactionRequired(
                kind, pageId: pageId.map(scrub), message: message.map(scrub), dumpPath: dumpPath,
                hints: hints.map { $0.scrubbed(by: scrubber) })
        case .unknownPage(let kind, let url, let dumpPath, let hints):
            return .unknownPage(
                kind: scrub(kind), url: scrub(url), dumpPath: dumpPath, hints: hints.map { $0.scrubbed(by: scrubber) })
        case .loop(let url, let steps, let dumpPath):
            return .loop(url: scrub(url), steps: steps, dumpPath: dumpPath)
        case .secondFactorFailed(let failure):
            return .secondFactorFailed(failure.scrubbed(by: scrub))
        case .policyRefused(let refusal):
            return .policyRefused(refusal.scrubbed(by: scrubber))
        case .transport(let error):
            return .transport(
                TransportError(
                    kind: error.kind, detail: scrub(error.detail), url: error.url.map(scrub),
                    message: scrub(error.message)))
        }
    }
}

extension SignInHint {
    /// The same hint with `scrubber`'s secrets removed from the host it names.
    package func scrubbed(by scrubber: SecretScrubber) -> SignInHint {
        guard case .allowHost(let host) = self else { return self }
        return .allowHost(scrubber.scrub(host))
    }
}

extension SignInPolicy.Refusal {
    /// The same refusal with `scrubber`'s secrets removed from its URLs and hosts.
    package func scrubbed(by scrubber: SecretScrubber) -> SignInPolicy.Refusal {
        let scrub = scrubber.scrub
        switch self {
        case .passwordInURL(let action): return .passwordInURL(action: scrub(action))
        case .notHTTP(let action): return .notHTTP(action: scrub(action))
        case .plainHTTP(let action): return .plainHTTP(action: scrub(action))
        case .foreignHost(let action, let formHost):
            return .foreignHost(action: scrub(action), formHost: scrub(formHost))
        case .downgrade(let from, let to): return .downgrade(from: scrub(from), to: scrub(to))
        }
    }
}

extension SignInTraceStep {
    /// The same step with `scrubber`'s secrets removed from its texts.
    package func scrubbed(by scrubber: SecretScrubber) -> SignInTraceStep {
        guard !scrubber.isEmpty else { return self }
        var step = self
        step.url = scrubber.scrub(url)
        step.purpose = scrubber.scrub(purpose)
        step.pageKind = pageKind.map(scrubber.scrub)
        step.decision = decision.map(scrubber.scrub)
        step.cookiesSet = cookiesSet.map(scrubber.scrub)
        step.fieldsSent = fieldsSent.map(scrubber.scrub)
        return step
    }
}
