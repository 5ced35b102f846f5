import HTML

/// Reads a response into `PageFacts` with the HTML module: the only place AuthFlow touches the parser.
enum PageFactsReader {
    /// The facts of an HTML (or untyped) response; nil for other content types or empty bodies.
    static func read(_ response: SignInResponse) -> PageFacts? {
        let type = (response.header("Content-Type") ?? "").lowercased()
        guard !response.body.isEmpty, type.isEmpty || type.contains("html") || type.contains("text/plain") else {
            return nil
        }
        guard let read = try? HTMLPage(bytes: response.body, url: response.url, charset: response.charset) else {
            return nil
        }
        let page = read.showingEntraConfigError
        let classification = page.classification
        var scriptRedirect: String?
        if case .scriptRedirect(let url) = classification.navigation { scriptRedirect = url }
        let refresh =
            headerRefresh(response)
            ?? page.metaRefresh.map { PageFacts.Refresh(url: $0.url, delay: $0.delay, fromHeader: false) }
        return PageFacts(
            url: response.url, status: response.status, kind: classification.kind,
            formIndex: classification.formIndex, reason: classification.reason, signals: classification.signals,
            title: page.title ?? "", forms: page.forms.map(facts),
            config: page.aadConfig,
            refresh: refresh, scriptRedirectURL: scriptRedirect ?? page.scriptRedirect,
            autoSubmitFormIndex: page.selfSubmit?.formIndex, errorText: page.errorText,
            errorMessages: page.errorMessages, severeErrorMessages: page.severeErrorMessages,
            passkeyOptions: page.passkeyOptions)
    }

    /// The HTTP `Refresh` header, resolved against the response's URL (it comes before any `<base>`).
    static func headerRefresh(_ response: SignInResponse) -> PageFacts.Refresh? {
        guard let value = response.header("Refresh"),
            let parsed = MetaRefresh(refresh: value, baseURL: response.url)
        else { return nil }
        return PageFacts.Refresh(url: parsed.url, delay: parsed.delay, fromHeader: true)
    }

    private static func facts(_ form: HTMLForm) -> PageForm {
        let buttons = form.submitButtons
        let passwordCount = form.seenPasswordInputs.count
        let userFields = form.usernameFields
        let emailOnly = userFields.filter { control in
            control.type == "email" || (control.autocomplete ?? "").lowercased().split(separator: " ").contains("email")
        }
        let others = userFields.filter { control in !emailOnly.contains(where: { $0.index == control.index }) }
        return PageForm(
            index: form.index, id: form.id, action: form.actionURL ?? form.documentURL,
            method: form.method.rawValue.uppercased(), usernameField: form.usernameField?.name,
            emailOnlyUserFields: others.isEmpty ? [] : emailOnly.compactMap(\.name), otherUserField: others.first?.name,
            passwordField: form.passwordField?.name,
            codeField: form.codeField?.name,
            codeLabel: form.codeField?.labelText,
            staySignedInField: form.staySignedInCheckbox.flatMap { box in box.name.map { ($0, box.value) } },
            passwordFieldCount: passwordCount,
            isSignInForm: form.passwordField != nil
                || (form.usernameField != nil && !form.looksLikeSearch && !form.hasTextArea),
            fieldNames: form.controls.compactMap(\.name),
            hiddenFields: form.controls.filter(\.isHidden).compactMap { control in
                control.name.map { ($0, control.value) }
            },
            submitters: buttons.map { PageForm.Submitter(name: $0.name, value: $0.value, label: $0.label ?? "") },
            selects: form.controls.filter { $0.element == "select" && $0.name != nil }.map { control in
                PageForm.Select(name: control.name ?? "", options: control.options.map { ($0.value, $0.label) })
            },
            submission: { setting, clicking in
                let submitter = clicking.flatMap { buttons.indices.contains($0) ? buttons[$0] : nil }
                guard let built = try? form.submission(clicking: submitter, setting: setting) else {
                    return (form.method.rawValue.uppercased(), form.actionURL ?? form.documentURL, [])
                }
                return (built.method.rawValue.uppercased(), built.url, built.entries.map { ($0.name, $0.value) })
            })
    }
}
