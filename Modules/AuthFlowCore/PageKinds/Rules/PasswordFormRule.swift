import HTML

/// A form with a password input: the user name and password together, or the password only; an error message
/// beside it makes the page an error page.
struct PasswordFormRule: PageRule {
    func classify(_ evidence: PageEvidence) -> PageClassification? {
        guard let form = evidence.passwordForm, let password = form.passwordField else { return nil }
        let user = form.usernameField
        let fields = [user?.name, password.name].compactMap { $0 }.map { "\"\($0)\"" }.joined(separator: " and ")
        var signals = ["password field \"\(password.name ?? "")\": \(form.roleAndSignal(of: password)?.signal ?? "")"]
        if let user {
            signals.append(
                "user field \"\(user.name ?? "")\": \(user.roleAndSignal?.signal ?? "the only text input before the password")"
            )
        }
        if let error = evidence.page.errorText {
            return evidence.classified(
                .error, form: form.index, "login form \(form.index) (\(fields)) with an error message: \(error)",
                signals + evidence.errorSignals)
        }
        if user == nil {
            return evidence.classified(
                .passwordStep, form: form.index, "form \(form.index) asks for the password only (\(fields))", signals)
        }
        return evidence.classified(
            .credentialForm, form: form.index, "form \(form.index) has a password input: \(fields)", signals)
    }
}
