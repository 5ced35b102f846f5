import Foundation
public import TransportValues

/// What the engine asks its driver for when a page wants a one-time code (TOTP, SMS, e-mail, token): the page,
/// the field, what the page calls it, and which attempt this is (a code page shown again after a code means the
/// code was refused). The answer comes back through ``SignInMachine/provide(code:)``.
public struct OneTimeCodeRequest: Sendable, Equatable {
    /// The page asking (query values redacted).
    public var pageURL: String
    /// The code field's name.
    public var fieldName: String
    /// The field's label, placeholder or the page's message, for a prompt.
    public var label: String?
    /// 1 for the first code of this sign-in, 2 after one was refused, …
    public var attempt: Int

    /// Makes a request (tests, custom drivers).
    public init(pageURL: String, fieldName: String, label: String?, attempt: Int) {
        self.pageURL = pageURL
        self.fieldName = fieldName
        self.label = label
        self.attempt = attempt
    }
}

/// Where one-time codes come from for a sign-in: asked once per code page, never stored, never traced.
/// Nil answers mean "no code": the sign-in then ends as an interaction (exit 4) that says how to give one.
public typealias OneTimeCodeSource = @Sendable (OneTimeCodeRequest) async -> Secret?

/// A question for a one-time code waiting for its answer: what was asked, where, and how the code goes back (a
/// page's form filled and submitted, or a second-factor service's call).
struct PendingCode: Sendable {
    var request: OneTimeCodeRequest
    var pageURL: String
    /// What the sign-in says when no code comes (which methods the page offers, what would answer them).
    var withoutCode: SignInOutcome
    /// The request that carries `code`, and the trace's note for it; nil when the code cannot be sent.
    var answer: @Sendable (_ code: String) -> (request: SignInRequest, note: String)?

    /// A code page's form: the code goes into its code field and the form is submitted with its sign-in button.
    init(request: OneTimeCodeRequest, form: PageForm, pageURL: String) {
        self.request = request
        self.pageURL = pageURL
        self.withoutCode = .interactionRequired(
            .mfa, pageId: nil,
            message: "it asks for a one-time code in \"\(request.fieldName)\" and no code source was given",
            hints: [.giveOneTimeCodeSource])
        self.answer = { code in
            guard let field = form.codeField else { return nil }
            let built = form.submission([field: code], form.signInSubmitter)
            var sent = SignInRequest(
                method: built.method, url: built.url, form: built.fields, purpose: .oneTimeCode,
                carriesCredentials: true)
            sent.carriesPassword = true
            return (sent, "filled the one-time code in \(field) of form \(form.label) (attempt \(request.attempt))")
        }
    }

    /// Any other way of sending the code back.
    init(
        request: OneTimeCodeRequest, pageURL: String, withoutCode: SignInOutcome,
        answer: @escaping @Sendable (_ code: String) -> (request: SignInRequest, note: String)?
    ) {
        self.request = request
        self.pageURL = pageURL
        self.withoutCode = withoutCode
        self.answer = answer
    }
}

extension FormsStrategy {
    /// A one-time-code page: asks the driver for a code (the first time, or again after the last was refused),
    /// or gives up after ``SignInBudget/codeAttempts``.
    /// `field` names the input the code goes in when it is not the form's code field (a password-type passcode
    /// input on the page after the password).
    func askCode(_ page: PageFacts, state: inout FlowState, field named: String? = nil) -> StrategyDecision {
        guard var form = page.chosenForm, let field = named ?? page.codeField else {
            return .finish(.interactionRequired(.mfa, pageId: page.title, message: Self.secondFactorWords(page)))
        }
        if !state.budget.mayAskForCode {
            return .finish(
                .invalidCredentials(
                    message: "the one-time code was refused \(state.budget.codesSubmitted) times"
                        + (page.errorText.map { " (\($0))" } ?? ""), code: nil))
        }
        form.codeField = field
        let request = OneTimeCodeRequest(
            pageURL: Redaction.url(page.url), fieldName: field,
            label: state.answerMessage(on: page) ?? page.codeLabel ?? page.title,
            attempt: state.budget.codesSubmitted + 1)
        return .askCode(PendingCode(request: request, form: form, pageURL: page.url))
    }
}

extension SignInMachine {
    /// Answers a ``SignInAction/needCode(_:)``: fills the code page's form with `code` and submits it, or, with
    /// no code, ends the sign-in as an interaction that says how to give one.
    ///
    /// - Precondition: the last action was ``SignInAction/needCode(_:)`` and it has not been answered yet (a driver
    ///   that calls this at any other time has a bug; it is not a sign-in outcome).
    public mutating func provide(code: Secret?) -> SignInAction {
        guard case .awaitingCode(let pending) = phase else {
            preconditionFailure(
                "provide(code:) called without a pending needCode action (the sign-in is \(phase.name))")
        }
        phase = .navigating
        guard let code, !code.revealedValue().isEmpty, let answer = pending.answer(code.revealedValue()) else {
            return settled(.finish(pending.withoutCode))
        }
        state.budget.codeSent()
        return settled(send(answer.request, from: pending.pageURL, note: answer.note))
    }
}
