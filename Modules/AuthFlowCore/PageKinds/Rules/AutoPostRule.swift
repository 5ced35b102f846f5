import HTML

/// A form of hidden fields the page submits by itself (SAML, WS-Federation, OIDC form_post). A load-time
/// script submits its form whatever it holds, even nothing at all (a Kerberos fallback page).
struct AutoPostRule: PageRule {
    func classify(_ evidence: PageEvidence) -> PageClassification? {
        let page = evidence.page
        guard evidence.passwordForm == nil, let submit = page.selfSubmit,
            page.forms[submit.formIndex].hasOnlyHiddenFields
                || ([.script, .bodyOnload].contains(submit.trigger) && page.forms.allSatisfy(\.hasNothingToType))
        else { return nil }
        let form = page.forms[submit.formIndex]
        let how =
            switch submit.trigger {
            case .script: "an inline script submits it"
            case .bodyOnload: "body onload submits it"
            case .noscriptButton: "its only submit button sits in <noscript>"
            case .protocolFields: "it carries \(form.protocolFieldNames.joined(separator: ", ")) to post on"
            }
        let fields = form.hiddenFields.compactMap(\.name).joined(separator: ", ")
        let holds = fields.isEmpty ? "has no field" : "has only hidden fields (\(fields))"
        return evidence.classified(
            .autoPost, form: form.index, "form \(form.index) \(holds) and \(how)",
            ["hidden-only form", "trigger: \(submit.trigger.rawValue)"]
                + (form.carriesProtocolMessage
                    ? ["protocol fields: \(form.protocolFieldNames.joined(separator: ", "))"] : []))
    }
}
