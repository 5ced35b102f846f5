import HTML

/// A password change: a form with new-password fields (old, new, repeat).
struct PasswordChangeRule: PageRule {
    func classify(_ evidence: PageEvidence) -> PageClassification? {
        guard let form = evidence.page.forms.first(where: { !$0.newPasswordFields.isEmpty }) else { return nil }
        let names = form.newPasswordFields.compactMap(\.name).joined(separator: ", ")
        return evidence.classified(
            .passwordChange, form: form.index, "form \(form.index) asks for a new password (\(names))",
            ["new-password fields: \(names)"] + evidence.errorSignals)
    }
}
