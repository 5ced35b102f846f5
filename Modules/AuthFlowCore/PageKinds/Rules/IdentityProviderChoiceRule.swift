import Foundation
import HTML

extension PageKind {
    /// A choice of identity provider (home realm discovery, a SAML discovery service, a WAYF): a form with
    /// nothing to type whose list or buttons name identity providers by their identifiers.
    public static let identityProviderChoice = PageKind("identity-provider-choice", manifestName: "other")
}

extension InteractionKind {
    /// The page asks which identity provider to sign in with, and nothing the sign-in holds tells which (the
    /// hints name each provider's host to allow).
    public static let identityProviderChoice = InteractionKind(
        "identityProviderChoice", explanation: "a choice of identity provider",
        advice: ". The sign-in takes the one that keeps it at this provider, else the one whose host credentials may"
            + " go to, and none of these is either.")
}

/// Pages asking which identity provider to sign in with, before any credential is asked for: ADFS's home realm
/// discovery, SimpleSAMLphp's and Shibboleth's discovery services. The signal is the protocols' own: identity
/// providers are named by URIs (SAML entity ids, WS-Federation trust URLs), so a form that asks for nothing to
/// type and offers a `select` or submit buttons carrying such URIs is a choice of provider.
///
/// The sign-in chooses the way the sign-in's own state allows: the one choice that keeps the sign-in at this
/// identity provider (an empty or non-URI value, or one on the page's own host), else the one whose host the
/// policy lets credentials go to, else the only one. A choice that brought the same page back is not taken again
/// (a "choose one" placeholder). Otherwise it stops and names the choices, with a hint to allow the host of the
/// user's own provider.
struct IdentityProviderChoiceRule: RememberingRule {
    /// The choices already submitted (form action and value): one that brought the same page back was no provider
    /// (a "choose one" placeholder) and is not taken again.
    struct Memory: Sendable {
        var choicesTried: Set<String> = []
    }

    static let initialMemory = Memory()

    func classify(_ evidence: PageEvidence) -> PageClassification? {
        for form in evidence.page.forms where !Self.asksForText(form) {
            for select in form.controls where select.element == "select" && select.name != nil && !select.disabled {
                let named = select.options.compactMap { Self.providerIdentifier(in: $0.value) }
                guard select.options.count >= 2, !named.isEmpty, !form.submitButtons.isEmpty else { continue }
                return evidence.classified(
                    .identityProviderChoice, form: form.index,
                    "form \(form.index) asks which identity provider to use (\(select.name ?? ""))",
                    ["select \(select.name ?? "") names identity providers: " + named.joined(separator: ", ")])
            }
            let buttons = form.submitButtons.compactMap { button in
                Self.providerIdentifier(in: button.value) ?? button.name.flatMap(Self.providerIdentifier(in:))
            }
            if !buttons.isEmpty {
                return evidence.classified(
                    .identityProviderChoice, form: form.index,
                    "form \(form.index) has a button per identity provider",
                    ["submit buttons name identity providers: " + buttons.joined(separator: ", ")])
            }
        }
        return nil
    }

    func decide(on page: PageFacts, state: inout FlowState) -> StrategyDecision? {
        guard page.kind == .identityProviderChoice, let form = page.chosenForm else { return nil }
        // A choice already sent that brought this page back was no provider ("choose one"): it is not taken again.
        let offered = Self.choices(in: form)
        let choices = offered.filter { !state.ruleMemories[Self.self].choicesTried.contains(Self.key($0, on: form)) }
        let pageHost = URLParts(page.url)?.host.lowercased()
        let local = choices.filter { choice in
            choice.identifier.map { URLParts($0)?.host.lowercased() == pageHost } ?? true
        }
        let allowed = choices.filter { choice in
            choice.identifier.map { state.configuration.policy.mayShareCredentials(from: page.url, to: $0) } ?? false
        }
        let chosen: (choice: Choice, why: String)?
        if local.count == 1 {
            chosen = (local[0], "this identity provider's own sign-in")
        } else if allowed.count == 1 {
            chosen = (allowed[0], "credentials may go to its host")
        } else if choices.count == 1 {
            chosen = (choices[0], offered.count == 1 ? "the only one" : "the only one not tried yet")
        } else {
            chosen = nil
        }
        guard let chosen else {
            let hosts = offered.map { choice in
                choice.identifier.flatMap(URLParts.init).map(\.displayAuthority).flatMap { $0.isEmpty ? nil : $0 }
            }
            let names = zip(offered, hosts).map { choice, host in
                choice.label + (host.flatMap { choice.label.contains($0) ? nil : " (\($0))" } ?? "")
            }
            return .finish(
                .interactionRequired(
                    .identityProviderChoice, pageId: page.title,
                    message: "it offers " + names.joined(separator: ", "),
                    hints: Array(Set(hosts.compactMap { $0 })).sorted().map { .allowHost($0) }))
        }
        guard state.budget.answerInterrupt() else {
            return .finish(.loop(url: page.url, steps: state.budget.interruptsAnswered))
        }
        state.ruleMemories[Self.self].choicesTried.insert(Self.key(chosen.choice, on: form))
        let built = form.submission(chosen.choice.setting, chosen.choice.clicking)
        return .send(
            SignInRequest(method: built.method, url: built.url, form: built.fields, purpose: .providerChoice),
            note: "chose identity provider '\(chosen.choice.label)' (\(chosen.why))")
    }

    /// One way on: what the page calls it, the identity provider's URI (nil for this provider's own sign-in),
    /// and how to submit it.
    struct Choice {
        var label: String
        var identifier: String?
        var setting: [String: String]
        var clicking: Int?
    }

    /// What identifies a choice across pages: the form's action and what the choice sends.
    static func key(_ choice: Choice, on form: PageForm) -> String {
        form.action + " "
            + choice.setting.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: "&") + " \(choice.clicking ?? -1)"
    }

    /// The choices of a form this rule classified: its provider list's options, else its provider buttons.
    static func choices(in form: PageForm) -> [Choice] {
        let submit = form.signInSubmitter
        if let select = form.selects.first(where: { select in
            select.options.contains { providerIdentifier(in: $0.value) != nil }
        }) {
            return select.options.map { option in
                Choice(
                    label: option.label.isEmpty ? option.value : option.label,
                    identifier: providerIdentifier(in: option.value), setting: [select.name: option.value],
                    clicking: submit)
            }
        }
        let buttons = form.submitters.indices.compactMap { index -> Choice? in
            let button = form.submitters[index]
            guard let identifier = providerIdentifier(in: button.value) ?? button.name.flatMap(providerIdentifier)
            else { return nil }
            return Choice(label: button.label, identifier: identifier, setting: [:], clicking: index)
        }
        // Buttons that all say the same ("Select" under each provider's heading) are named by their providers.
        let labels = buttons.map(\.label)
        guard Set(labels).count < labels.count || labels.contains(where: \.isEmpty) else { return buttons }
        return buttons.map { choice in
            var named = choice
            named.label = choice.identifier ?? choice.label
            return named
        }
    }

    /// The identity provider URI `text` carries (`https://…`, `http://…` or `urn:…`, also after a prefix such as
    /// SimpleSAMLphp's `idp_`), or nil.
    static func providerIdentifier(in text: String) -> String? {
        for scheme in ["https://", "http://", "urn:"] {
            guard let range = text.range(of: scheme, options: .caseInsensitive) else { continue }
            let identifier = String(text[range.lowerBound...])
            if scheme == "urn:" ? identifier.count > 6 : URLParts(identifier)?.host.isEmpty == false {
                return identifier
            }
        }
        return nil
    }

    /// Whether the form asks for anything typed (a text, password or file input, a text area).
    static func asksForText(_ form: HTMLForm) -> Bool {
        form.controls.contains { control in
            !control.disabled
                && (control.isTextLike || control.element == "textarea" || control.type == "file"
                    || control.type == "password")
        }
    }
}
