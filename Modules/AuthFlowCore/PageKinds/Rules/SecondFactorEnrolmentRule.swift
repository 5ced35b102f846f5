import HTML

/// A second factor to set up first ("Set up two-factor authentication to continue"): no field to fill, and the
/// headings or first lines name a second factor and setting it up, or the links register second-factor methods.
struct SecondFactorEnrolmentRule: PageRule {
    func classify(_ evidence: PageEvidence) -> PageClassification? {
        let page = evidence.page
        guard page.metaRefresh == nil, page.scriptRedirect == nil,
            page.forms.allSatisfy({ form in !form.controls.contains { $0.isTextLike && !$0.disabled } })
        else { return nil }
        let signal: String
        if let methods = Self.enrolmentLinks(page), NoticeRule.oneWayOn(page) == nil {
            signal = "asks to set up a second factor: links to register " + methods.joined(separator: ", ")
        } else {
            let lines =
                page.headings + [page.title ?? "", page.errorText ?? ""]
                + page.visibleText.split(separator: "\n").prefix(12).map(String.init)
            guard
                lines.contains(where: {
                    SignInLexicon.says(.secondFactor, in: $0) && SignInLexicon.says(.enroll, in: $0)
                })
            else { return nil }
            signal = "asks to set up a second factor (no field to fill)"
        }
        return evidence.classified(
            .secondFactor, form: page.forms.first?.index, "the page asks to set up a second factor first", [signal])
    }

    /// A registration page whose words a script writes: links whose paths say enrol or register, beside links or
    /// images naming second-factor methods (TOTP, U2F, WebAuthn…). The methods named, or nil.
    static func enrolmentLinks(_ page: HTMLPage) -> [String]? {
        let paths = page.links.map { URLResolver.components(of: $0).path }
        guard paths.contains(where: { SignInLexicon.says(.enroll, in: $0) }) else { return nil }
        var methods: [String] = []
        for text in paths + page.imageNames {
            for word in SignInLexicon.tokens(of: text)
            where SignInLexicon.says(.secondFactorMethod, in: word) && !methods.contains(word) {
                methods.append(word)
            }
        }
        return methods.isEmpty ? nil : methods
    }
}
