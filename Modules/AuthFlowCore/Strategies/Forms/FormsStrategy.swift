import Foundation
import HTML

/// Any identity provider's plain HTML pages, by the kind the HTML module's classifier gave them: credential
/// forms, username-first and password-only steps, pages that submit themselves, meta refreshes, script
/// redirects, error pages, second factors, password changes and expiry notices. ADFS, FBA sign-in pages,
/// Keycloak, Shibboleth, SimpleSAMLphp, PingFederate and the like all come through here.
struct FormsStrategy: SignInStrategy {
    let name = "forms"

    /// Names the flow by where the form lives: ADFS's `/adfs/` pages, SharePoint's own `/_forms/` page, or
    /// any other identity provider.
    static func flow(of page: PageFacts, configuration: SignInConfiguration) -> SignInFlow {
        let path = (URLComponents(string: page.url)?.path ?? "").lowercased()
        if path.contains("/adfs/") { return .adfs }
        if path.contains("/_forms/") && URLParts(page.url)?.host == URLParts(configuration.siteURL)?.host {
            return .fba
        }
        return .forms
    }

    func decide(on page: PageFacts, state: inout FlowState) -> StrategyDecision? {
        // A kind whose rule says what to do on it (the kinds below keep their handling here).
        for rule in PageClassifier.rules {
            if let decision = rule.decide(on: page, state: &state) { return decision }
        }
        switch page.kind {
        case .oneTimeCode:
            return askCode(page, state: &state)
        case .secondFactor:
            return .finish(.interactionRequired(.mfa, pageId: page.title, message: Self.secondFactorWords(page)))
        case .passwordChange:
            return .finish(
                .interactionRequired(
                    .passwordChange, pageId: page.title, message: page.errorText ?? "it asks for a new password"))
        case .passwordExpiring:
            return continuePastNotice(page, state: state)
        case .notice:
            return continuePastConsent(page, state: &state)
        case .error:
            // A code page showing the refusal of the last code: ask again (up to the attempt limit).
            if page.signals.contains("aria-invalid=true"), page.codeField != nil, state.budget.codesSubmitted > 0 {
                return askCode(page, state: &state)
            }
            if let form = page.credentialForm, state.asksForWhatWasNotSent(form) {
                // A message on a form asking for what was not sent yet (the first rendering's "session expired",
                // the password step after the user name, another password-type field after the password): no
                // answer to anything sent; the form is filled.
                return fill(page, state: &state)
            }
            return .finish(Self.errorOutcome(page, state: state))
        case .credentialForm, .passwordStep, .usernameStep:
            return fill(page, state: &state)
        case .autoPost:
            return autoPost(page)
        case .aadConfig, .kmsi:
            return nil
        default:
            return navigate(page)
        }
    }

    // MARK: Sign-in forms

    /// Fills the chosen sign-in form: user name and password, or the user name alone; the same form back after
    /// the password (or the user name) went means it was not accepted.
    private func fill(_ page: PageFacts, state: inout FlowState) -> StrategyDecision? {
        let configuration = state.configuration
        guard let form = page.credentialForm else { return navigate(page) }
        if let passwordField = form.passwordField {
            if state.passwordSubmitted {
                // Another password-type field with no user name beside it, after the password went: a second
                // factor's passcode or token, never the password again.
                if form.usernameField == nil, let submitted = state.submittedPage, !submitted.isSamePasswordField(form)
                {
                    return askCode(page, state: &state, field: passwordField)
                }
                let message =
                    state.answerMessage(on: page) ?? page.errorText ?? "the sign-in form came back without a message"
                return .finish(.invalidCredentials(message: message, code: nil))
            }
            var setting = [passwordField: configuration.password.revealedValue()]
            if let usernameField = form.userField(for: configuration.username) {
                setting[usernameField] = configuration.username
            }
            // "Stay signed in" on a generic identity provider: its own "remember me" box, checked as a person would.
            let remember = configuration.staySignedIn ? form.staySignedInField : nil
            if let remember { setting[remember.name] = remember.value }
            let built = form.submission(setting, form.signInSubmitter)
            state.passwordSubmitted = true
            state.submittedPage = SubmittedPage(form, on: page)
            // A flow named earlier (Entra sending a federated account here) stays the session's flow.
            state.detectedFlow = state.detectedFlow ?? Self.flow(of: page, configuration: configuration)
            return .send(
                SignInRequest(
                    method: built.method, url: built.url, form: built.fields, purpose: .credentials,
                    carriesCredentials: true),
                note:
                    "filled \(form.userField(for: configuration.username) ?? "-") and \(passwordField) in form \(form.label)"
                    + (remember.map { ", checked \($0.name) (stay signed in)" } ?? ""))
        }
        guard let usernameField = form.userField(for: configuration.username) else { return navigate(page) }
        if state.usernameSubmitted || state.passwordSubmitted {
            let message = state.answerMessage(on: page) ?? "the user name was not accepted"
            return .finish(.invalidCredentials(message: message, code: nil))
        }
        let built = form.submission([usernameField: configuration.username], form.signInSubmitter)
        state.usernameSubmitted = true
        state.submittedPage = SubmittedPage(form, on: page)
        return .send(
            SignInRequest(
                method: built.method, url: built.url, form: built.fields, purpose: .username, carriesCredentials: true),
            note: "username-first step: filled \(usernameField) in form \(form.label)")
    }

    // MARK: Errors

    /// How an error page ends the sign-in, read against the page the credentials were typed on: the sign-in form
    /// back after the credentials went is a rejection (3), quoting what appeared since (else what it shows); a code
    /// field marked invalid
    /// is a second factor the engine cannot answer (4); a page without a sign-in form is a rejection only when its
    /// message says, in the lexicon's words, that the credentials are wrong (3); any other error page is the
    /// identity provider stopping the sign-in (4), with its own words.
    static func errorOutcome(_ page: PageFacts, state: FlowState) -> SignInOutcome {
        let answer = state.answerMessage(on: page)
        let message = answer ?? page.errorText ?? page.title
        if page.credentialForm != nil {
            return .invalidCredentials(message: message, code: nil)
        }
        if page.signals.contains("aria-invalid=true") {
            if state.budget.codesSubmitted > 0 {
                return .invalidCredentials(message: "the one-time code was refused: \(message)", code: nil)
            }
            return .interactionRequired(.mfa, pageId: page.title, message: "the one-time code was refused: \(message)")
        }
        if state.passwordSubmitted || state.usernameSubmitted, SignInLexicon.saysCredentialsWrong(message) {
            return .invalidCredentials(message: message, code: nil)
        }
        return .interactionRequired(.identityProviderError, pageId: page.title, message: message)
    }

    /// What a second-factor page asks, in the user's words.
    static func secondFactorWords(_ page: PageFacts) -> String {
        let signals = page.signals.joined(separator: " ")
        var text: String
        if page.kind == .oneTimeCode {
            text = "it asks for a one-time code"
        } else if signals.contains("WebAuthn") {
            text = "it asks for a security key or passkey"
        } else if signals.contains("one per method") {
            text = "it offers a choice of second-factor methods" + Self.named(after: "one per method", in: page)
        } else if signals.contains("set up a second factor") {
            text =
                "it asks you to set up a second factor first (do it once in a browser)"
                + Self.named(after: "links to register", in: page)
        } else if signals.contains("approve on a device") {
            text = "it waits for an approval on your device (push or number matching)"
        } else {
            text = "it asks for a second factor"
        }
        if let error = page.errorText { text += " (\(error))" }
        return text
    }

    /// " (what the signal lists)": the methods a signal names after `marker` and a colon or space, or "".
    static func named(after marker: String, in page: PageFacts) -> String {
        guard let signal = page.signals.first(where: { $0.contains(marker) }),
            let range = signal.range(of: marker)
        else { return "" }
        let listed = signal[range.upperBound...].drop { $0 == ":" || $0 == " " }
        return listed.isEmpty ? "" : " (\(listed))"
    }

    // MARK: Pages that move on

    /// A hidden-only form the page submits by itself (or that exists only to be posted on): submitted as a
    /// browser would, clicking its one submit control when it has exactly one.
    private func autoPost(_ page: PageFacts) -> StrategyDecision? {
        guard let index = page.autoSubmitFormIndex ?? page.formIndex,
            let form = page.forms.first(where: { $0.index == index })
        else { return navigate(page) }
        let built = form.submission([:], form.submitters.count == 1 ? 0 : nil)
        return .send(
            SignInRequest(method: built.method, url: built.url, form: built.fields, purpose: .autoPost),
            note: "form \(form.label) submits itself (\(page.signals.joined(separator: ", ")))")
    }

    /// "Your password expires in N days": continues, when the form carries nothing secret and stays on the
    /// page's own host; else the user has to look.
    private func continuePastNotice(_ page: PageFacts, state: FlowState) -> StrategyDecision? {
        guard let form = page.chosenForm, form.passwordField == nil,
            let button = form.submitters.firstIndex(where: { PageForm.isContinue($0) })
        else {
            return .finish(.interactionRequired(.passwordChange, pageId: page.title, message: page.errorText))
        }
        let built = form.submission([:], button)
        guard URLParts(built.url)?.host == URLParts(page.url)?.host else {
            return .finish(
                .interactionRequired(
                    .unknownInterrupt, pageId: page.title,
                    message: "a password-expiry notice whose continue button leads to another host"))
        }
        return .send(
            SignInRequest(method: built.method, url: built.url, form: built.fields, purpose: .interrupt),
            note: "password-expiry notice: continued with \(form.submitters[button].label)")
    }

    /// A notice or consent page with one way on ("Yes, continue" to release attributes, "Accept"): clicked as a
    /// person signing in would, when it sends nothing typed and stays on the page's own host (at most 3 such pages
    /// per sign-in); else the user has to look (exit 4).
    private func continuePastConsent(_ page: PageFacts, state: inout FlowState) -> StrategyDecision? {
        guard let form = page.chosenForm,
            let button = form.submitters.firstIndex(where: PageForm.isWayOn)
        else { return navigate(page) }
        let built = form.submission([:], button)
        guard state.configuration.policy.mayShareCredentials(from: page.url, to: built.url) else {
            return .finish(
                .interactionRequired(
                    .consent, pageId: page.title,
                    message: "a consent or notice page whose way on leads to another host (\(Redaction.url(built.url)))"
                ))
        }
        guard state.budget.answerInterrupt() else {
            return .finish(.loop(url: page.url, steps: state.budget.interruptsAnswered))
        }
        return .send(
            SignInRequest(method: built.method, url: built.url, form: built.fields, purpose: .interrupt),
            note: "notice or consent page: continued with \"\(form.submitters[button].label)\"")
    }

    /// The page's own navigation: a short refresh, a script redirect; a long refresh is a timeout page.
    private func navigate(_ page: PageFacts) -> StrategyDecision? {
        if let index = page.autoSubmitFormIndex, let form = page.forms.first(where: { $0.index == index }),
            page.kind == .other
        {
            let built = form.submission([:], nil)
            return .send(
                SignInRequest(method: built.method, url: built.url, form: built.fields, purpose: .autoPost),
                note: "form \(form.label) submits itself")
        }
        if let refresh = page.refresh, refresh.isFollowed {
            return .send(
                SignInRequest(url: refresh.url, purpose: .refresh), note: "\(refresh.source) after \(refresh.delayText)"
            )
        }
        if let target = page.scriptRedirectURL {
            return .send(SignInRequest(url: target, purpose: .scriptRedirect), note: "script redirect")
        }
        if let refresh = page.refresh {
            // A browser would wait minutes here and then land on a timeout or logout page: not a sign-in step.
            return .finish(
                .unknownPage(
                    kind: "\(page.kind.rawValue) page whose \(refresh.source) moves on only after "
                        + "\(refresh.delayText) (to \(Redaction.url(refresh.url))); not followed: a delay over "
                        + "\(Int(PageFacts.Refresh.longestFollowedDelay)) s is a timeout, not a sign-in step",
                    url: page.url, dumpPath: nil))
        }
        return nil
    }
}
