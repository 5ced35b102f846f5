import Foundation
import HTML
import JSON

/// Microsoft Entra ID (Azure AD) pages driven by their `$Config` object: the converged sign-in page,
/// "Stay signed in?" (KMSI), and the interrupts (MFA, Conditional Access, password change, consent).
/// Posts use the page's own names (`sFTName`, `sCanaryTokenName`) and keep `sCtx` when present. Before the
/// password it asks `GetCredentialType`, as the page's script does, and follows a federated account to its
/// organisation's identity provider. Error pages (`ConvergedError`) and `sErrorCode`s become typed outcomes;
/// only the codes in `credentialErrors` mean a wrong password.
struct EntraStrategy: SignInStrategy {
    let name = "entra"
    /// The sign-in page whose `GetCredentialType` question waits for its JSON answer.
    private var credentialTypeQuestion: PageFacts?
    /// `GetCredentialType` was asked once in this sign-in (it is not asked again).
    private var credentialTypeAsked = false
    /// The second factor under way on a `ConvergedTFA` page, waiting for its service's JSON answers.
    private var secondFactor: EntraSecondFactor?
    /// Entra's FIDO view was asked for a challenge (`urlFidoLogin`), and then answered with the passkey.
    private var passkeyChallengeAsked = false
    private var passkeyAnswered = false

    /// `sErrorCode` values that mean the user name or password was wrong (or the account cannot sign in).
    static let credentialErrors: Set<String> = [
        "50126", "50034", "50053", "50056", "50057", "50059", "50128", "80014", "81010",
    ]

    mutating func decide(on page: PageFacts, state: inout FlowState) -> StrategyDecision? {
        // A page where the GetCredentialType answer was awaited (an HTML error from the service, a proxy's page)
        // is an answer that cannot be read: as the page's script would, go on with the password post.
        if let question = credentialTypeQuestion, page.config == nil {
            return unreadableAnswer(to: question, state: &state)
        }
        credentialTypeQuestion = nil
        secondFactor = nil
        if EntraStates.isWrongPlace(page.url) {
            let words = page.errorText.map { ": \($0)" } ?? ""
            return .finish(
                .interactionRequired(
                    EntraStates.wrongPlace, pageId: "wrongplace",
                    message: "Microsoft's anti-phishing page (/common/wrongplace) ended the sign-in\(words)"))
        }
        guard let config = page.config else { return nil }
        let pgid = config.text("pgid") ?? ""
        // Error pages (`ConvergedError`) have no `urlPost`: their code and text are read first. Some carry the
        // code only as `iErrorCode` (read only on such pages) and the text as `strServiceExceptionMessage`.
        let errorText =
            (config.text("sErrTxt") ?? config.text("strServiceExceptionMessage")).map(plainText)
            ?? page.errorText
        let isErrorPage = config.text("urlPost") == nil || pgid.lowercased().contains("error")
        if let skip = EntraRegistrationSkip.request(on: page, config: config, state: state) {
            guard state.budget.answerInterrupt() else {
                return .finish(.loop(url: page.url, steps: state.budget.interruptsAnswered))
            }
            return .send(skip, note: "put off the security-info registration Entra asks for (urlSkipMfaRegistration)")
        }
        if let code = config.text("sErrorCode") ?? (isErrorPage ? config.text("iErrorCode") : nil),
            code != "0", code != "50058"
        {
            let ended = outcome(forError: code, pgid: pgid, message: errorText, state: state)
            if case .interactionRequired(let kind, let pageId, let message, let dump, let hints) = ended,
                let days = EntraRegistrationSkip.daysLeft(config)
            {
                return .finish(
                    .interactionRequired(
                        kind, pageId: pageId, message: message, dumpPath: dump,
                        hints: [.skipRegistration(days: days)] + hints))
            }
            return .finish(ended)
        }
        if passkeyChallengeAsked, !passkeyAnswered, let passkey = state.configuration.passkey,
            let answer = EntraPasskey.assertion(
                on: page, config: config, passkey: passkey, policy: state.configuration.policy)
        {
            passkeyAnswered = true
            state.detectedFlow = .entra
            if !pgid.lowercased().contains("tfa") && !state.passwordSubmitted { state.passwordSubmitted = true }
            return answer
        }
        if pgid.lowercased().contains("tfa"), !passkeyChallengeAsked,
            EntraPasskey.isOffered(on: config, state: state, secondFactor: true),
            let request = EntraPasskey.challengeRequest(page: page, config: config, state: state, secondFactor: true)
        {
            passkeyChallengeAsked = true
            return .send(
                request, note: "second factor: asked Entra's FIDO view (urlFidoLogin, flow=mfa) for a challenge")
        }
        if pgid.lowercased().contains("tfa"), let started = EntraSecondFactor.start(on: page, state: state) {
            secondFactor = started.exchange
            return started.decision
        }
        if let confirmation = EntraConfirmation.continuation(on: page, config: config, tokens: tokens(config)) {
            guard state.budget.answerInterrupt() else {
                return .finish(.loop(url: page.url, steps: state.budget.interruptsAnswered))
            }
            return .send(confirmation, note: "confirmed the sign-in for the app (CmsiInterrupt: ContinueAuth)")
        }
        if let kind = Self.interaction(forPage: pgid) {
            return .finish(.interactionRequired(kind, pageId: pgid, message: errorText))
        }
        guard let urlPost = config.text("urlPost"), !urlPost.isEmpty else {
            guard pgid.lowercased().contains("error") else { return nil }
            if passkeyAnswered {
                // Entra answers a passkey it will not take with its generic error page (no code, observed).
                return .finish(
                    .invalidCredentials(
                        message: "Entra did not accept the passkey: "
                            + (errorText ?? "its error page gave no reason"), code: nil))
            }
            return .finish(
                .interactionRequired(
                    .identityProviderError, pageId: pgid,
                    message: errorText ?? "Entra showed an error page without a code"))
        }
        if config.isComposite("arrUserProofs") && !pgid.lowercased().contains("signin") {
            return .finish(.interactionRequired(.mfa, pageId: pgid, message: errorText))
        }
        let action = URLResolution.resolve(urlPost, against: page.url)
        let configuration = state.configuration
        if page.kind == .kmsi {
            guard state.budget.answerInterrupt() else {
                return .finish(.loop(url: page.url, steps: state.budget.interruptsAnswered))
            }
            var fields: [(name: String, value: String)] = [
                ("LoginOptions", configuration.staySignedIn ? "1" : "3"), ("type", "28"),
            ]
            fields += tokens(config)
            return .send(
                SignInRequest(method: "POST", url: action, form: fields, purpose: .interrupt),
                note: "answered 'Stay signed in?' with \(configuration.staySignedIn ? "yes" : "no")")
        }
        guard pgid.isEmpty || pgid.lowercased().contains("signin") || pgid.lowercased().contains("login") else {
            return .finish(.interactionRequired(.unknownInterrupt, pageId: pgid, message: errorText))
        }
        if state.passwordSubmitted {
            return .finish(
                .invalidCredentials(message: errorText ?? "the sign-in page came back without a message", code: nil))
        }
        if !passkeyChallengeAsked, EntraPasskey.isOffered(on: config, state: state, secondFactor: false),
            let request = EntraPasskey.challengeRequest(page: page, config: config, state: state, secondFactor: false)
        {
            passkeyChallengeAsked = true
            return .send(request, note: "asked Entra's FIDO view (urlFidoLogin) for a challenge for the passkey")
        }
        if !credentialTypeAsked, let question = credentialTypeRequest(page, config, state) {
            credentialTypeAsked = true
            credentialTypeQuestion = page
            return .send(question, note: "asked $Config.urlGetCredentialType whether the account is federated")
        }
        return postPassword(config, action: action, state: &state)
    }

    /// The password post to `$Config.urlPost`, as the converged sign-in page sends it.
    private func postPassword(_ config: AADConfig, action: String, state: inout FlowState) -> StrategyDecision {
        let configuration = state.configuration
        let fields: [(name: String, value: String)] = [
            ("i13", "0"), ("login", configuration.username), ("loginfmt", configuration.username), ("type", "11"),
            ("LoginOptions", "3"), ("passwd", configuration.password.revealedValue()), ("ps", "2"),
        ]
        return postCredentials(
            config, action: action, fields: fields,
            note: "posted credentials to $Config.urlPost with the page's token names",
            state: &state)
    }

    /// `fields` and the page's tokens, posted to `$Config.urlPost` as the credentials of this sign-in.
    private func postCredentials(
        _ config: AADConfig, action: String, fields: [(name: String, value: String)], note: String,
        state: inout FlowState
    ) -> StrategyDecision {
        state.passwordSubmitted = true
        state.detectedFlow = .entra
        return .send(
            SignInRequest(
                method: "POST", url: action, form: fields + tokens(config), purpose: .credentials,
                carriesCredentials: true),
            note: note)
    }

    // MARK: - Federated accounts (GetCredentialType)

    /// The password post after a GetCredentialType answer that was not JSON.
    private mutating func unreadableAnswer(to question: PageFacts, state: inout FlowState) -> StrategyDecision? {
        credentialTypeQuestion = nil
        guard let config = question.config, let urlPost = config.text("urlPost") else { return nil }
        return postPassword(config, action: URLResolution.resolve(urlPost, against: question.url), state: &state)
    }

    /// The `GetCredentialType` call a browser makes before it shows the password field, or nil when the page
    /// names none, or names one the user name and flow token may not go to (another host, plain http): then
    /// the password goes to `urlPost` as before and a federated account ends as `.federatedSignIn`.
    private func credentialTypeRequest(_ page: PageFacts, _ config: AADConfig, _ state: FlowState)
        -> SignInRequest?
    {
        guard let address = config.text("urlGetCredentialType") else { return nil }
        let url = URLResolution.resolve(address, against: page.url)
        // The body carries the user name and the flow token: the same rule as a password.
        guard
            (try? state.configuration.policy.checkCredentialSubmission(method: "POST", action: url, pageURL: page.url))
                != nil
        else { return nil }
        let body: [(String, JSONValue)] = [
            ("username", .string(state.configuration.username)), ("isOtherIdpSupported", true),
            ("checkPhones", false), ("isRemoteNGCSupported", false), ("isCookieBannerShown", false),
            ("isFidoSupported", .bool(state.configuration.passkey != nil)),
            ("originalRequest", .string(config.text("sCtx") ?? "")),
            ("forceotclogin", false), ("isExternalFederationDisallowed", false), ("isRemoteConnectSupported", false),
            ("federationFlags", 0), ("isSignup", false), ("flowToken", .string(config.flowToken ?? "")),
            ("isAccessPassSupported", .bool(config.text("fAccessPassSupported") == "true")),
        ]
        let bytes = JSONValue.object(body).encoded(options: .sortedKeys)
        return SignInRequest(
            method: "POST", url: url, rawBody: ("application/json; charset=UTF-8", Array(bytes)),
            headers: Self.serviceHeaders(config),
            purpose: .username, carriesCredentials: true)
    }

    /// The answer to `GetCredentialType`: a federated account goes to its `FederationRedirectUrl` (where the
    /// forms strategy fills the organisation's own sign-in page, and its WS-Federation auto-post brings the
    /// browser back); any other account gets the password post. An answer that cannot be read is ignored,
    /// as the page's script ignores it.
    mutating func decide(onJSON response: SignInResponse, state: inout FlowState) -> StrategyDecision? {
        if var exchange = secondFactor {
            let decision = exchange.receive(response, state: &state)
            secondFactor = exchange
            return decision
        }
        guard let page = credentialTypeQuestion, var config = page.config, let urlPost = config.text("urlPost") else {
            return nil
        }
        credentialTypeQuestion = nil
        // Only the service asked may answer: JSON reached through a redirect to another origin is not its answer.
        let asked = URLResolution.resolve(config.text("urlGetCredentialType") ?? "", against: page.url)
        guard URLParts(response.url) == URLParts(asked) else { return nil }
        let action = URLResolution.resolve(urlPost, against: page.url)
        let answer =
            (200...299).contains(response.status)
            ? (try? JSONValue.parse(bytes: response.body)).flatMap { $0.objectValue == nil ? nil : $0 } : nil
        guard let answer else { return postPassword(config, action: action, state: &state) }
        if let flowToken = answer["FlowToken"]?.stringValue, !flowToken.isEmpty {
            config = config.replacingFlowToken(with: flowToken)
        }
        let credentials = answer["Credentials"]
        let pgid = config.text("pgid") ?? ""
        if let redirect = credentials?["FederationRedirectUrl"]?.stringValue, !redirect.isEmpty {
            let target = URLResolution.resolve(redirect, against: response.url)
            guard let parts = URLParts(target), parts.scheme == "https" || parts.scheme == "http" else {
                return .finish(
                    .interactionRequired(
                        .federatedSignIn, pageId: pgid,
                        message: "Entra names a federation address that is not http(s) (\(Redaction.url(target)))"))
            }
            state.detectedFlow = .entra
            return .send(
                SignInRequest(url: target, purpose: .redirect),
                note: "federated account: followed GetCredentialType's FederationRedirectUrl to \(parts.host)")
        }
        let domainType = answer["EstsProperties"]?["DomainType"]?.intValue
        let preferred = credentials?["PrefCredential"]?.intValue
        if domainType == 4 || preferred == 4 {
            return .finish(
                .interactionRequired(
                    .federatedSignIn, pageId: pgid,
                    message: "Entra says the account is federated but names no address to sign in at"))
        }
        if let certauth = EntraCertificate.request(
            credentials: credentials, config: config, answerURL: response.url, state: state)
        {
            state.passwordSubmitted = true
            state.detectedFlow = .entra
            return .send(
                certauth, note: "certificate sign-in: posted to GetCredentialType's CertAuthUrl with the certificate")
        }
        if let pass = EntraAccessPass.pass(for: credentials, configuration: state.configuration) {
            return postCredentials(
                config, action: action,
                fields: EntraAccessPass.fields(username: state.configuration.username, pass: pass),
                note: "posted the Temporary Access Pass (the page's pass view) to $Config.urlPost", state: &state)
        }
        if state.configuration.accessPass != nil, state.configuration.password.revealedValue().isEmpty {
            return .finish(
                .invalidCredentials(
                    message: "a Temporary Access Pass was given, but Entra says this account has none "
                        + "(GetCredentialType: HasAccessPass is not true); give the password instead", code: nil))
        }
        return postPassword(config, action: action, state: &state)
    }

    /// The headers the page's script sends with its JSON service calls (GetCredentialType, BeginAuth, EndAuth):
    /// `Accept`, the API canary as `canary`, `client-request-id`, `hpgid`, `hpgact` and `hpgrequestid`.
    static func serviceHeaders(_ config: AADConfig) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let canary = config.text("apiCanary") { headers.append(("canary", canary)) }
        if let correlation = config.text("correlationId") { headers.append(("client-request-id", correlation)) }
        if let hpgid = config.text("hpgid") { headers.append(("hpgid", hpgid)) }
        if let hpgact = config.text("hpgact") { headers.append(("hpgact", hpgact)) }
        if let requestId = config.text("sessionId") { headers.append(("hpgrequestid", requestId)) }
        return headers
    }

    /// `ctx`, the flow token under `sFTName`, the canary under `sCanaryTokenName`, and `hpgrequestid`.
    func tokens(_ config: AADConfig) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        if let context = config.text("sCtx") { fields.append(("ctx", context)) }
        if let flowToken = config.flowToken.flatMap(nonEmpty) {
            fields.append((config.flowTokenName ?? "flowToken", flowToken))
        }
        if let canary = config.text("canary") {
            fields.append((config.text("sCanaryTokenName") ?? "canary", canary))
        }
        if let requestId = config.text("sessionId") { fields.append(("hpgrequestid", requestId)) }
        return fields
    }

    private func outcome(forError code: String, pgid: String, message: String?, state: FlowState) -> SignInOutcome {
        let text = message ?? "the identity provider reported error \(code)"
        // Conditional Access and registration states have kinds and ways forward of their own (EntraStates).
        if let refused = EntraAccessPass.refusal(code: code, message: message ?? "") { return refused }
        if let refused = EntraPasskey.refusal(code: code, message: message ?? "") { return refused }
        if let refused = EntraCertificate.refusal(code: code, message: message ?? "") { return refused }
        if let named = EntraStates.kind(forCode: code) {
            return .interactionRequired(named, pageId: pgid, message: naming(code, in: text))
        }
        switch code {
        case _ where Self.credentialErrors.contains(code):
            return .invalidCredentials(message: text, code: code)
        case "50055", "50144", "50133":
            return .interactionRequired(.passwordChange, pageId: pgid, message: text)
        case "50074", "50076", "50158":
            return .interactionRequired(.mfa, pageId: pgid, message: text)
        case "50097", "50131":
            return .interactionRequired(.conditionalAccess, pageId: pgid, message: text)
        case "65001", "65004", "90094":
            return .interactionRequired(.consent, pageId: pgid, message: text)
        case "50107":
            // Entra refuses a password posted to it for a federated account: not a wrong password.
            return .interactionRequired(.federatedSignIn, pageId: pgid, message: text)
        default:
            // Not about the password (50020 a guest from another tenant, 50105 not assigned to the application,
            // 50011 a reply address, 50089 an expired flow, codes not known here): say so, with the code.
            return .interactionRequired(.identityProviderError, pageId: pgid, message: naming(code, in: text))
        }
    }

    /// `text`, ending with `(code CODE)` unless it names the code already (`AADSTS50105: ...`).
    private func naming(_ code: String, in text: String) -> String {
        guard !text.contains(code) else { return text }
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while trimmed.hasSuffix(".") { trimmed.removeLast() }
        return trimmed + " (code \(code))"
    }

    /// Interrupt pages recognised by their `pgid`.
    static func interaction(forPage pgid: String) -> InteractionKind? {
        let id = pgid.lowercased()
        if id.contains("tfa") || id.contains("proofup") || id.contains("mfa") || id.contains("proofs") {
            return .mfa
        }
        if id.contains("conditionalaccess") || id.contains("deviceauth")
            || id.contains("compliance") || id.contains("blocked")
        {
            return .conditionalAccess
        }
        if id.contains("password") && !id.contains("signin") { return .passwordChange }
        if id.contains("consent") { return .consent }
        return nil
    }

    /// `sErrTxt` may carry markup (a "reset it now" link): keep the words only.
    private func plainText(_ markup: String) -> String {
        var text = ""
        var inTag = false
        for character in markup {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value != "null" else { return nil }
        return value
    }
}
