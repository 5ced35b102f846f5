import HTML

/// "Your password expires in N days" with a form to continue: the headings or first lines say the password
/// expires, and a button says continue.
struct PasswordExpiryRule: PageRule {
    func classify(_ evidence: PageEvidence) -> PageClassification? {
        let page = evidence.page
        let texts =
            page.headings + [page.title ?? ""] + page.visibleText.split(separator: "\n").prefix(20).map(String.init)
        guard texts.contains(where: { SignInLexicon.says(.expired, in: $0) && SignInLexicon.says(.password, in: $0) }),
            let form = page.forms.first(where: { form in
                form.submitButtons.contains { SignInLexicon.says(.continue, in: ($0.label ?? "") + " " + $0.value) }
            })
        else { return nil }
        return evidence.classified(
            .passwordExpiring, form: form.index, "a notice that the password expires, with a way to continue",
            ["the page says the password expires; a continue button"])
    }
}
