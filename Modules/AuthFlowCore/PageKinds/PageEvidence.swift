import HTML

/// What every page rule reads besides the page itself, worked out once per page: its own navigation, the error
/// it shows, and which of its forms asks for the password or for a one-time code.
struct PageEvidence {
    let page: HTMLPage
    /// Where the page moves by itself (a meta refresh first, then a script redirect).
    let navigation: PageNavigation?
    /// "error text shown: …" when the page shows an error.
    let errorSignal: String?
    /// The password form to act on. Of several (a token passcode form beside the user + password one), the one
    /// that also asks for the user name; a password input that is one by itself beats one read as the sign-in
    /// password only because it is a lone "new"-named input beside a user field (a sign-up form above the
    /// sign-in form).
    let passwordForm: HTMLForm?
    /// A form asking for a one-time code and no password.
    let codeForm: HTMLForm?

    init(_ page: HTMLPage) {
        // The errors a browser user reads include the one Entra's script writes from its `$Config`.
        let page = page.showingEntraConfigError
        self.page = page
        navigation =
            if let refresh = page.metaRefresh {
                .metaRefresh(url: refresh.url, delay: refresh.delay)
            } else if let target = page.scriptRedirect {
                .scriptRedirect(url: target)
            } else {
                nil
            }
        errorSignal = page.errorText.map { "error text shown" + ($0.isEmpty ? "" : ": \($0)") }
        let passwordForms = page.forms.filter { $0.passwordField != nil }
        passwordForm =
            passwordForms.first { $0.usernameField != nil && $0.hasOwnPasswordField }
            ?? passwordForms.first { $0.hasOwnPasswordField } ?? passwordForms.first { $0.usernameField != nil }
            ?? passwordForms.first
        codeForm = page.forms.first { $0.codeField != nil && $0.passwordField == nil }
    }

    /// The error signal as a list to append to a rule's signals (empty without an error).
    var errorSignals: [String] { errorSignal.map { [$0] } ?? [] }

    /// A classification of this page.
    func classified(_ kind: PageKind, form: Int?, _ reason: String, _ signals: [String]) -> PageClassification {
        PageClassification(kind: kind, formIndex: form, reason: reason, signals: signals, navigation: navigation)
    }
}
