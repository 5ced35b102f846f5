import HTML

/// A one-time code asked for without a password; marked invalid (`aria-invalid`) beside an error, the code was
/// rejected.
struct OneTimeCodeRule: PageRule {
    func classify(_ evidence: PageEvidence) -> PageClassification? {
        guard evidence.passwordForm == nil, let form = evidence.codeForm, let field = form.codeField else {
            return nil
        }
        let signal = "code field \"\(field.name ?? "")\": \(field.roleAndSignal?.signal ?? "")"
        if field.ariaInvalid, let error = evidence.page.errorText {
            return evidence.classified(
                .error, form: form.index, "the one-time code in \"\(field.name ?? "")\" was rejected: \(error)",
                [signal, "aria-invalid=true"] + evidence.errorSignals)
        }
        return evidence.classified(
            .oneTimeCode, form: form.index, "form \(form.index) asks for a one-time code in \"\(field.name ?? "")\"",
            [signal])
    }
}
