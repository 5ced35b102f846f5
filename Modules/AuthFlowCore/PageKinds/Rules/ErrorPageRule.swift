import HTML

/// An error page: an error message and no sign-in form to act on.
struct ErrorPageRule: PageRule {
    func classify(_ evidence: PageEvidence) -> PageClassification? {
        guard let error = evidence.page.errorText else { return nil }
        // An error that asks for a second factor to be set up is that step, not a stop: the enrolment rule reads it.
        if SignInLexicon.says(.secondFactor, in: error) && SignInLexicon.says(.enroll, in: error) { return nil }
        return evidence.classified(
            .error, form: evidence.page.forms.first?.index, "no sign-in form; the page shows an error: \(error)",
            evidence.errorSignals)
    }
}
