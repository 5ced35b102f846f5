import Foundation

/// Any identity provider's plain HTML pages: credential forms (and username-first steps), pages that
/// submit themselves, meta refreshes, script redirects, error and second-factor pages. ADFS, FBA
/// sign-in pages, Keycloak, Shibboleth, PingFederate and the like all come through here.
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
        let configuration = state.configuration
        if page.kind == "mfa" {
            return .finish(.interactionRequired(.mfa, pageId: page.title, message: page.errorText))
        }
        if let form = page.credentialForm {
            if form.passwordFieldCount > 1 {
                return .finish(.interactionRequired(.passwordChange, pageId: page.title, message: page.errorText))
            }
            if let passwordField = form.passwordField {
                if state.passwordSubmitted {
                    let message = page.errorText ?? "the sign-in form came back without a message"
                    return .finish(.invalidCredentials(message: message, code: nil))
                }
                var setting = [passwordField: configuration.password.revealedValue()]
                if let usernameField = form.usernameField { setting[usernameField] = configuration.username }
                let built = form.submission(setting, form.signInSubmitter)
                state.passwordSubmitted = true
                // A flow named earlier (Entra sending a federated account here) stays the session's flow.
                state.detectedFlow = state.detectedFlow ?? Self.flow(of: page, configuration: configuration)
                return .send(
                    SignInRequest(
                        method: built.method, url: built.url, form: built.fields, purpose: .credentials,
                        carriesCredentials: true),
                    note: "filled \(form.usernameField ?? "-") and \(passwordField) in form \(form.label)")
            }
            if let usernameField = form.usernameField {
                if state.usernameSubmitted {
                    let message = page.errorText ?? "the user name was not accepted"
                    return .finish(.invalidCredentials(message: message, code: nil))
                }
                let built = form.submission([usernameField: configuration.username], form.signInSubmitter)
                state.usernameSubmitted = true
                return .send(
                    SignInRequest(
                        method: built.method, url: built.url, form: built.fields, purpose: .username,
                        carriesCredentials: true),
                    note: "username-first step: filled \(usernameField) in form \(form.label)")
            }
        }
        if page.kind == "error" {
            let message = page.errorText ?? page.title
            if state.passwordSubmitted || state.usernameSubmitted {
                return .finish(.invalidCredentials(message: message, code: nil))
            }
            return .finish(.interactionRequired(.unknownInterrupt, pageId: page.title, message: message))
        }
        if let index = page.autoSubmitFormIndex, let form = page.forms.first(where: { $0.index == index }) {
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
                    kind: "\(page.kind) page whose \(refresh.source) moves on only after \(refresh.delayText) (to "
                        + "\(Redaction.url(refresh.url))); not followed: a delay over "
                        + "\(Int(PageFacts.Refresh.longestFollowedDelay)) s is a timeout, not a sign-in step",
                    url: page.url, dumpPath: nil))
        }
        return nil
    }
}
