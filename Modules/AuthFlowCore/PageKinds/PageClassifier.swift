public import HTML

/// Classifies pages by what they contain: each kind has its rule (``PageRule``), asked in the order below.
public enum PageClassifier {
    /// Every page rule, in the order of evidence. A new kind is its rule's file plus one entry here.
    static let rules: [any PageRule] = [
        EntraConfigPageRule(),
        PasswordChangeRule(),
        SecondFactorWithoutCodeRule(),
        AutoPostRule(),
        OneTimeCodeRule(),
        PasswordFormRule(),
        UsernameStepRule(),
        ErrorPageRule(),
        IdentityProviderChoiceRule(),
        PasswordExpiryRule(),
        SecondFactorEnrolmentRule(),
        NoticeRule(),
    ]

    /// Classifies a page: the first rule that recognises it, else its own navigation or nothing. Pure; safe from
    /// any thread.
    public static func classify(_ page: HTMLPage) -> PageClassification {
        let evidence = PageEvidence(page)
        for rule in rules {
            if let classification = rule.classify(evidence) { return classification }
        }
        return navigationOrNothing(evidence)
    }

    /// The last word: nothing recognisable but the page's own navigation, or nothing at all.
    static func navigationOrNothing(_ evidence: PageEvidence) -> PageClassification {
        switch evidence.navigation {
        case .metaRefresh(let url, let delay):
            return evidence.classified(
                .other, form: nil, "no sign-in form; a meta refresh moves on to \(url) after \(delay)s",
                ["meta refresh"])
        case .scriptRedirect(let url):
            return evidence.classified(
                .other, form: nil, "no sign-in form; a script redirects to \(url)", ["script redirect"])
        case nil:
            return evidence.classified(
                .other, form: nil,
                evidence.page.forms.isEmpty
                    ? "no form and no redirect" : "no password, code, username or self-submitting form", [])
        }
    }
}
