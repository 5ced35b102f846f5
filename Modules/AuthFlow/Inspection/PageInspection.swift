public import HTML
public import JSON

/// What the sign-in engine sees in a page, as JSON (`spconnect inspect` prints it): the page kind with its
/// signals and reason, the forms and each control's role, the chosen form's fields, the redirects a browser would
/// follow, and a summary of Entra's `$Config`. Password values and `$Config` token values are never in it.
public enum PageInspection {
    /// The report for `page`.
    public static func report(_ page: HTMLPage) -> JSONValue {
        let classification = page.classification
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

        var report: [String: JSONValue] = [
            "url": .string(page.url),
            "kind": .string(classification.kind.manifestName),
            "page_kind": .string(classification.kind.rawValue),
            "signals": .array(classification.signals.map(JSONValue.string)),
            "reason": .string(classification.reason),
            "title": optional(page.title),
            "base_href": optional(page.baseHref),
            "error_text": optional(page.errorText),
            "script_redirect": optional(page.scriptRedirect),
            "forms_on_page": .integer(Int64(page.forms.count)),
            "forms": .array(page.forms.map(formReport)),
        ]
        report["meta_refresh"] =
            page.metaRefresh.map { object(["delay": .double($0.delay), "url": .string($0.url)]) } ?? .null
        report["self_submit"] =
            page.selfSubmit.map {
                object(["form_index": .integer(Int64($0.formIndex)), "trigger": .string($0.trigger.rawValue)])
            } ?? .null

        let chosen = classification.formIndex.map { page.forms[$0] }
        report["chosen_form"] = classification.formIndex.map { .integer(Int64($0)) } ?? .null
        report["username_field"] = optional(chosen?.usernameField?.name)
        report["password_field"] = optional(chosen?.passwordField?.name)
        report["code_field"] = optional(chosen?.codeField?.name)
        report["hidden_fields"] = .array(
            (chosen?.hiddenFields ?? []).map { object(["name": optional($0.name), "value": .string($0.value)]) })

        if let config = page.aadConfig {
            var summary: [String: JSONValue] = [
                "pgid": optional(config.pgid),
                "urlPost": optional(config.urlPost),
                "sFTName": optional(config.flowTokenName),
                "sCanaryTokenName": optional(config.canaryTokenName),
                "sErrorCode": optional(config.errorCode),
                "has_flow_token": .bool(config.flowToken != nil),
                "has_ctx": .bool(config.context != nil),
                "has_canary": .bool(config.canary != nil),
            ]
            if !config.proofMethods.isEmpty {
                summary["proof_methods"] = .array(config.proofMethods.map(JSONValue.string))
            }
            report["aad_config"] = object(summary)
        } else {
            report["aad_config"] = .null
        }
        return object(report)
    }
}

private func formReport(_ form: HTMLForm) -> JSONValue {
    func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    let fields: [JSONValue] = form.controls.map { control in
        var field: [String: JSONValue] = [
            "element": .string(control.element),
            "type": .string(control.type),
            "name": optional(control.name),
        ]
        if control.type != "password" {  // password values never leave the process
            field["value"] = control.element == "select" ? .null : .string(control.value)
        }
        if control.type == "checkbox" || control.type == "radio" { field["checked"] = .bool(control.checked) }
        if control.element == "select" {
            field["options"] = .array(control.options.map { .string($0.value) })
            field["selected"] = .array(control.selectedOptions.map { .string($0.value) })
        }
        if control.disabled { field["disabled"] = .bool(true) }
        if control.insideNoscript { field["inside_noscript"] = .bool(true) }
        if let label = control.label { field["label"] = .string(label) }
        if let (role, signal) = form.roleAndSignal(of: control) {
            field["role"] = .string(role.rawValue)
            field["role_signal"] = .string(signal)
        }
        return object(field)
    }
    return object([
        "index": .integer(Int64(form.index)),
        "id": optional(form.id),
        "name": optional(form.name),
        "action": optional(form.action),
        "action_url": optional(form.actionURL),
        "method": .string(form.method.rawValue),
        "enctype": .string(form.enctype.rawValue),
        "fields": .array(fields),
    ])
}

/// An object from a dictionary; printed with sorted keys, so the order here does not matter.
private func object(_ members: [String: JSONValue]) -> JSONValue {
    .object(members.map { ($0.key, $0.value) })
}
