/// SharePoint's provider chooser (`/_login/default.aspx`): a drop-down of sign-in providers posted back
/// with `__EVENTTARGET`. Picks Forms for `fba`/`forms`, Windows for `ntlm`, a trusted provider for `adfs`;
/// `auto` takes what the farm offers, in this order: Forms (the password goes into SharePoint's own form),
/// else Windows when there is a user name and password (NTLM proves the password to the site itself and never
/// sends it), else the trusted provider when it is the only other choice. Several trusted providers and no
/// Forms or Windows: it stops and names them rather than guess (`--flow adfs` takes the first).
struct ProviderChooserStrategy: SignInStrategy {
    let name = "provider-chooser"

    func decide(on page: PageFacts, state: inout FlowState) -> StrategyDecision? {
        guard page.credentialForm == nil else { return nil }
        for form in page.forms {
            for select in form.selects where select.name.lowercased().contains("logonselector") {
                guard let option = choose(from: select.options, configuration: state.configuration) else {
                    let names = select.options.filter { !$0.value.isEmpty }.map(\.label).joined(separator: ", ")
                    return .finish(
                        .interactionRequired(
                            .unknownInterrupt, pageId: "provider chooser",
                            message: "no provider fits flow '\(state.configuration.flow.rawValue)' among: \(names)"))
                }
                guard state.budget.answerInterrupt() else {
                    return .finish(.loop(url: page.url, steps: state.budget.interruptsAnswered))
                }
                let configuration = state.configuration
                let built = form.submission([select.name: option.value, "__EVENTTARGET": select.name], nil)
                var request = SignInRequest(
                    method: built.method, url: built.url, form: built.fields, purpose: .providerChoice)
                if Self.isWindows(option) {
                    // The post-back answers with a redirect to /_windows/, whose challenge needs NTLM: the machine
                    // gives it to that redirect (same host only), as the `ntlm` flow's first request has it.
                    request.redirectAuthentication = .ntlm(
                        user: configuration.username, password: configuration.password)
                    if configuration.flow == .auto { state.detectedFlow = .ntlm }
                } else if !Self.isForms(option), configuration.flow == .auto {
                    state.detectedFlow = state.detectedFlow ?? .adfs
                }
                return .send(request, note: "chose provider '\(option.label)'")
            }
        }
        return nil
    }

    /// The built-in Windows choice: value `Windows` (protocol §5.4), or labelled `Windows Authentication`. A trusted
    /// provider's value is its own name, which may well contain "Windows" ("Contoso Windows SSO"): it is not this.
    static func isWindows(_ option: (value: String, label: String)) -> Bool {
        isBuiltIn(option, "windows")
    }

    /// The built-in Forms choice: value `Forms`, or labelled `Forms Authentication`.
    static func isForms(_ option: (value: String, label: String)) -> Bool {
        isBuiltIn(option, "forms")
    }

    private static func isBuiltIn(_ option: (value: String, label: String), _ name: String) -> Bool {
        let value = option.value.trimmingCharacters(in: .whitespaces).lowercased()
        let label = option.label.trimmingCharacters(in: .whitespaces).lowercased()
        return value == name || label == name + " authentication"
    }

    private func choose(from options: [(value: String, label: String)], configuration: SignInConfiguration) -> (
        value: String, label: String
    )? {
        let usable = options.filter { !$0.value.isEmpty }
        let windows = usable.first(where: Self.isWindows)
        let forms = usable.first(where: Self.isForms)
        let trusted = usable.filter { !Self.isWindows($0) && !Self.isForms($0) }
        switch configuration.flow {
        case .ntlm: return windows
        case .adfs: return trusted.first
        case .auto:
            if let forms { return forms }
            let hasCredentials = !configuration.username.isEmpty && !configuration.password.revealedValue().isEmpty
            if hasCredentials, let windows { return windows }
            return trusted.count == 1 ? trusted[0] : nil
        default: return forms
        }
    }
}
