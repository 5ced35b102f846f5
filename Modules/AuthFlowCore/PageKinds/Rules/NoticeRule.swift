import HTML

/// A notice or consent page: nothing to type (hidden fields, boxes, choices) and exactly one submit button that
/// says go on (continue, accept, allow, agree… in the lexicon's languages) without saying stop (no, cancel,
/// deny…).
struct NoticeRule: PageRule {
    func classify(_ evidence: PageEvidence) -> PageClassification? {
        guard let (form, signal) = Self.oneWayOn(evidence.page) else { return nil }
        return evidence.classified(
            .notice, form: form, "a notice or consent page with one way on and nothing to type", [signal])
    }

    /// The form of the one button that goes on and what it says; nil when there is none, or more than one.
    static func oneWayOn(_ page: HTMLPage) -> (form: Int, signal: String)? {
        var found: [(form: Int, label: String)] = []
        for form in page.forms {
            let asksForText = form.controls.contains { control in
                !control.disabled && (control.isTextLike || control.element == "textarea" || control.type == "file")
            }
            guard !asksForText else { continue }
            for button in form.submitButtons {
                let words = [button.label ?? "", button.value, button.name ?? "", button.id ?? ""].joined(
                    separator: " ")
                let goesOn = SignInLexicon.says(.continue, in: words) || SignInLexicon.says(.accept, in: words)
                if goesOn && !SignInLexicon.says(.decline, in: words) {
                    found.append((form.index, (button.label ?? button.value).collapsingWhitespace()))
                }
            }
        }
        guard found.count == 1 else { return nil }
        return (found[0].form, "one way on, nothing to type: \"\(found[0].label)\"")
    }
}
