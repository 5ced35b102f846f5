import HTML

/// A username-only first step: a form that asks for a user name and looks like a sign-in (not a search, no text
/// area); an error message beside it makes the page an error page.
struct UsernameStepRule: PageRule {
    func classify(_ evidence: PageEvidence) -> PageClassification? {
        guard
            let form = evidence.page.forms.first(where: {
                $0.usernameField != nil && !$0.looksLikeSearch && !$0.hasTextArea
            }),
            let field = form.usernameField
        else { return nil }
        let signal = "user field \"\(field.name ?? "")\": \(field.roleAndSignal?.signal ?? "")"
        if let error = evidence.page.errorText {
            return evidence.classified(
                .error, form: form.index, "username form \(form.index) with an error message: \(error)",
                [signal] + evidence.errorSignals)
        }
        return evidence.classified(
            .usernameStep, form: form.index,
            "form \(form.index) asks for a username in \"\(field.name ?? "")\" (first step)", [signal])
    }
}
