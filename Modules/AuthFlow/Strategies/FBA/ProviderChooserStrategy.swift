/// SharePoint's provider chooser (`/_login/default.aspx`): a drop-down of sign-in providers posted back
/// with `__EVENTTARGET`. Picks Forms for `fba`/`forms`/`auto`, Windows for `ntlm`, a trusted provider for `adfs`.
struct ProviderChooserStrategy: SignInStrategy {
    let name = "provider-chooser"

    func decide(on page: PageFacts, state: inout FlowState) -> StrategyDecision? {
        guard page.credentialForm == nil else { return nil }
        for form in page.forms {
            for select in form.selects where select.name.lowercased().contains("logonselector") {
                guard let option = choose(from: select.options, flow: state.configuration.flow) else {
                    let names = select.options.map(\.label).joined(separator: ", ")
                    return .finish(
                        .interactionRequired(
                            .unknownInterrupt, pageId: "provider chooser",
                            message: "no provider fits flow '\(state.configuration.flow.rawValue)' among: \(names)"))
                }
                guard state.interruptsAnswered < 3 else { return .finish(.loop(url: page.url, steps: 3)) }
                state.interruptsAnswered += 1
                let built = form.submission([select.name: option.value, "__EVENTTARGET": select.name], nil)
                return .send(
                    SignInRequest(method: built.method, url: built.url, form: built.fields, purpose: .providerChoice),
                    note: "chose provider '\(option.label)'")
            }
        }
        return nil
    }

    private func choose(from options: [(value: String, label: String)], flow: SignInFlow) -> (
        value: String, label: String
    )? {
        let usable = options.filter { !$0.value.isEmpty }
        func matching(_ word: String) -> (value: String, label: String)? {
            usable.first { $0.value.lowercased().contains(word) || $0.label.lowercased().contains(word) }
        }
        switch flow {
        case .ntlm: return matching("windows")
        case .adfs:
            return usable.first {
                !$0.value.lowercased().contains("windows") && !$0.value.lowercased().contains("forms")
            }
        default: return matching("forms")
        }
    }
}
