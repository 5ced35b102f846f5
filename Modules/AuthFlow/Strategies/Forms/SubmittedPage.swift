import Foundation
import HTML

/// The page a sign-in form was filled on, as the sign-in remembers it: which form took the credentials and what the
/// page already said. What a later page shows is read against it, as a person reads what changed after pressing
/// "Sign in": a message that was there before (which service asked, an SSL warning, a framework's validation class on
/// the untouched form) is no answer to the credentials; the same form back is a refusal; another password-type field
/// is a second factor's question.
struct SubmittedPage: Sendable, Equatable {
    /// The form's action without its query (where the credentials went).
    var action: String
    /// The password field filled, or nil for a user-name step.
    var passwordField: String?
    /// The messages the page showed before the credentials went.
    var messages: [String]

    /// What is remembered of `form` on `page`.
    init(_ form: PageForm, on page: PageFacts) {
        action = Self.withoutQuery(form.action)
        passwordField = form.passwordField
        messages = page.errorMessages
    }

    /// The messages of `page` that were not on the submitted page, in page order.
    func newMessages(on page: PageFacts) -> [String] {
        page.errorMessages.filter { !messages.contains($0) }
    }

    /// Whether `form` is the form that took the password, back again (same action, same password field).
    func isSameForm(_ form: PageForm) -> Bool {
        passwordField != nil && form.passwordField == passwordField && Self.withoutQuery(form.action) == action
    }

    private static func withoutQuery(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}

extension FlowState {
    /// The message of `page` a person reads as the answer to what was sent: the first that appeared since the form
    /// was submitted (the first of all when nothing was submitted yet); nil when nothing new appeared.
    func answerMessage(on page: PageFacts) -> String? {
        guard let submittedPage else { return page.errorText }
        return submittedPage.newMessages(on: page).first
    }

    /// Whether `message` says, in the lexicon's words, that the credentials are wrong.
    static func saysCredentialsWrong(_ message: String) -> Bool { SignInLexicon.saysCredentialsWrong(message) }
}
