import Foundation
public import Transport

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

/// A code page waiting for its code: the form to fill and the request made of it.
struct PendingCode: Sendable {
    var request: OneTimeCodeRequest
    var form: PageForm
    var pageURL: String
}

extension FormsStrategy {
    /// The most codes one sign-in sends before it calls them refused.
    static let maximumCodeAttempts = 3

    /// A one-time-code page: asks the driver for a code (the first time, or again after the last was refused),
    /// or gives up after ``maximumCodeAttempts``.
    func askCode(_ page: PageFacts, state: inout FlowState) -> StrategyDecision {
        guard let form = page.chosenForm, let field = page.codeField else {
            return .finish(.interactionRequired(.mfa, pageId: page.title, message: Self.secondFactorWords(page)))
        }
        if state.codesSubmitted >= Self.maximumCodeAttempts {
            return .finish(
                .invalidCredentials(
                    message: "the one-time code was refused \(state.codesSubmitted) times"
                        + (page.errorText.map { " (\($0))" } ?? ""), code: nil))
        }
        let request = OneTimeCodeRequest(
            pageURL: Redaction.url(page.url), fieldName: field, label: page.errorText ?? page.codeLabel,
            attempt: state.codesSubmitted + 1)
        return .askCode(PendingCode(request: request, form: form, pageURL: page.url))
    }
}

extension SignInMachine {
    /// Answers a ``SignInAction/needCode(_:)``: fills the code page's form with `code` and submits it, or, with
    /// no code, ends the sign-in as an interaction that says how to give one.
    public mutating func provide(code: Secret?) -> SignInAction {
        guard let pending = pendingCode else { return .finish(.loop(url: configuration.siteURL, steps: steps)) }
        pendingCode = nil
        guard let code, !code.revealedValue().isEmpty, let field = pending.form.codeField else {
            return .finish(
                .interactionRequired(
                    .mfa, pageId: nil,
                    message: "it asks for a one-time code in \"\(pending.request.fieldName)\" and no code source was "
                        + "given", hints: [.giveOneTimeCodeSource]))
        }
        let built = pending.form.submission([field: code.revealedValue()], pending.form.signInSubmitter)
        state.codesSubmitted += 1
        var request = SignInRequest(
            method: built.method, url: built.url, form: built.fields, purpose: .oneTimeCode, carriesCredentials: true)
        request.carriesPassword = true
        return send(
            request, from: pending.pageURL,
            note:
                "filled the one-time code in \(field) of form \(pending.form.label) (attempt \(pending.request.attempt))"
        )
    }
}
