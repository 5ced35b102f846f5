import Foundation

/// The page a sign-in form was filled on, as the sign-in remembers it: which form took the credentials and what the
/// page already said. What a later page shows is read against it, as a person reads what changed after pressing
/// "Sign in": a message that was there before (which service asked, an SSL warning, a framework's validation class on
/// the untouched form) is no answer to the credentials; the same form back is a refusal; another password-type field
/// is a second factor's question.
struct SubmittedPage: Sendable, Equatable {
    /// The password field filled, or nil for a user-name step.
    var passwordField: String?
    /// The messages the page showed before the credentials went.
    var messages: [String]

    /// What is remembered of `form` on `page`.
    init(_ form: PageForm, on page: PageFacts) {
        passwordField = form.passwordField
        messages = page.errorMessages
    }

    /// The messages of `page` that were not on the submitted page, in page order.
    func newMessages(on page: PageFacts) -> [String] {
        page.errorMessages.filter { !messages.contains($0) }
    }

    /// Whether `form` asks again for the password that went, in the same field (wherever it posts now: a wrong
    /// password's page may come back at another path or with a session id in its action).
    func isSamePasswordField(_ form: PageForm) -> Bool {
        passwordField != nil && form.passwordField == passwordField
    }
}

extension FlowState {
    /// Whether `form` asks for something the sign-in has not sent yet: anything before the first submission, the
    /// password after the user name alone, or a password-type field other than the one the password went in (with no
    /// user name beside it: a second factor's passcode).
    func asksForWhatWasNotSent(_ form: PageForm) -> Bool {
        if !passwordSubmitted && !usernameSubmitted { return true }
        guard form.passwordField != nil else { return false }
        if !passwordSubmitted { return true }
        guard form.usernameField == nil, let submittedPage else { return false }
        return !submittedPage.isSamePasswordField(form)
    }

    /// The message of `page` a person reads as the answer to what was sent: of those that appeared since the form
    /// was submitted, the first shown as an error (else the first); the first of all when nothing was submitted yet;
    /// nil when nothing new appeared.
    func answerMessage(on page: PageFacts) -> String? {
        guard let submittedPage else { return page.errorText }
        let new = submittedPage.newMessages(on: page)
        return new.first { page.severeErrorMessages.contains($0) } ?? new.first
    }
}
