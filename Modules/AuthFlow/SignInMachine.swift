import Foundation
import HTML
public import Transport

/// The headless sign-in engine as a sans-I/O state machine: it says which request to send, is told what
/// came back, and decides the next move, until the session cookies are in the jar and proven, or a typed
/// outcome stops it. It performs no I/O itself, so every step can be traced, checked and tested.
///
/// Redirects come back to it one hop at a time (the driver uses Transport's manual redirect mode), so
/// every hop passes the sign-in policy. A value type; use it from one task.
public struct SignInMachine: Sendable {
    /// The configuration this sign-in runs with.
    public let configuration: SignInConfiguration
    /// Every step so far, with secrets redacted.
    public private(set) var trace: [SignInTraceStep] = []

    private var state: FlowState
    private var steps = 0
    private var visits: [String: Int] = [:]
    private var lastRequest: SignInRequest?
    private var proving = false
    /// Requests that moved the sign-in on (credentials, a user name, an auto-post, an interrupt's answer).
    private var submissions = 0
    /// `submissions` when the proof was last tried: a cookie seen again triggers no new proof until the sign-in
    /// moved on (a cookie set before the sign-in happened, as some service providers do, is not a session).
    private var proofTriedAt: Int?
    /// Same-origin redirects followed by the current proof.
    private var proofHops = 0
    /// Cookie names the target's host set during this sign-in (a web target without `--cookie`).
    private var targetHostCookies: [String] = []
    /// A one-time-code page waiting for the driver's answer (``provide(code:)``).
    private var pendingCode: PendingCode?
    private var route: (any ScriptedRoute)?
    /// The URL a redirect led to without the HTTP authentication it would have carried, and the host it kept.
    private var authenticationWithheld: (url: String, host: String)?
    private let strategies: [any SignInStrategy]
    /// Reads a page into facts; the HTML module's reader by default.
    private let readPage: @Sendable (SignInResponse) -> PageFacts?

    public init(_ configuration: SignInConfiguration) {
        self.init(configuration, readPage: PageFactsReader.read)
    }

    init(_ configuration: SignInConfiguration, readPage: @escaping @Sendable (SignInResponse) -> PageFacts?) {
        self.configuration = configuration
        self.state = FlowState(configuration: configuration)
        self.readPage = readPage
        strategies = FlowRegistry.row(configuration.flow).strategies
    }

    /// The first request: the flow's entry point on the site.
    public mutating func start() -> SignInAction {
        if case .web = configuration.target {
            return send(SignInRequest(url: configuration.siteURL, purpose: .start), note: "start at the target page")
        }
        switch FlowRegistry.row(configuration.flow).entry(configuration) {
        case .proof(let authentication):
            return proofRequest(authentication: authentication)
        case .route(let scripted, first: nil):
            return start(route: scripted)
        case .route(let scripted, first: let request?):
            route = scripted
            return send(request, note: "start at the \(configuration.flow.rawValue) entry point")
        case .request(let request):
            return send(request, note: "start at the \(configuration.flow.rawValue) entry point")
        }
    }

    /// Feeds what came back for the last request; returns the next move.
    public mutating func receive(_ response: SignInResponse) -> SignInAction {
        let index = trace.count - 1
        var record =
            trace.indices.contains(index)
            ? trace[index]
            : SignInTraceStep(
                step: 0, method: "GET", url: Redaction.url(response.url), purpose: "", status: nil, pageKind: nil,
                decision: nil, cookiesSet: [], fieldsSent: [])
        record.status = response.status
        record.cookiesSet = setCookieNames(response)
        defer { if trace.indices.contains(index) { trace[index] = record } }

        noteTargetHostCookies(response)
        if proving {
            proving = false
            record.decision = "proof: HTTP \(response.status)"
            switch proofVerdict(response) {
            case .proven:
                return .finish(proofOutcome(response))
            case .failed:
                return .finish(proofOutcome(response))
            case .follow(let location):
                proofHops += 1
                record.decision = "proof: HTTP \(response.status) to the same origin"
                return proofRequest(authentication: lastRequest?.authentication, url: location)
            case .signInGoesOn:
                // The proof was sent to a sign-in page: the sign-in continues from there.
                record.decision = "proof: HTTP \(response.status), not signed in yet: the sign-in goes on"
            }
        } else if proofTriedAt != submissions, shouldProve(response) {
            proofTriedAt = submissions
            proofHops = 0
            // The sign-in landed on the proof page itself: this answer is the proof.
            if let proofURL = configuration.target.proofURL, response.url == proofURL,
                case .proven = proofVerdict(response)
            {
                record.decision = "signed in: the target page answered HTTP \(response.status) with the session"
                return .finish(proofOutcome(response))
            }
            record.decision = "session cookies present: prove them"
            return proofRequest(authentication: lastRequest?.authentication)
        }
        if var active = route, let decision = active.next(after: response) {
            route = active
            switch decision {
            case .finish(let outcome):
                record.decision = "\(active.name): stop"
                return .finish(outcome)
            case .askCode(let pending):
                record.decision = "\(active.name): ask for a one-time code"
                pendingCode = pending
                return .needCode(pending.request)
            case .send(let request, let note):
                record.decision = "\(active.name): \(note)"
                do {
                    try configuration.policy.checkHop(from: response.url, to: request.url)
                } catch {
                    return .finish(.policyRefused(error))
                }
                // A route's service call is its own "form": its credentials go to the host it calls.
                return send(request, from: request.url, note: note)
            }
        }
        if (300...399).contains(response.status), let location = response.location {
            var next = SignInRequest(url: location, purpose: .redirect)
            if response.status == 307 || response.status == 308, let last = lastRequest {
                next = last
                next.url = location
                next.purpose = .redirect
            }
            let authentication =
                lastRequest?.authentication
                ?? (lastRequest?.purpose == .providerChoice ? state.providerAuthentication : nil)
            if let authentication {
                if configuration.policy.mayShareCredentials(from: response.url, to: location) {
                    next.authentication = authentication
                    next.carriesCredentials = true
                } else {
                    // HTTP authentication stays with its host: a 307/308 elsewhere repeats the request without it.
                    next.authentication = nil
                    next.carriesCredentials = next.form != nil || next.rawBody != nil
                    next.carriesPassword = next.carriesPassword && next.carriesCredentials
                    authenticationWithheld = (location, host(response.url))
                }
            }
            record.decision = "HTTP \(response.status) redirect"
            return send(next, from: response.url, note: record.decision!)
        }
        if response.status == 401 {
            record.decision = "HTTP 401"
            if let withheld = authenticationWithheld, withheld.url == response.url, lastRequest?.authentication == nil {
                return .finish(
                    .unknownPage(
                        kind: "HTTP 401 challenge from \(host(response.url)), which \(withheld.host) redirected to; "
                            + "the credentials were not sent to another host: if it is yours, allow it with --allow-host",
                        url: response.url, dumpPath: nil))
            }
            if lastRequest?.authentication != nil {
                let flow = (state.detectedFlow ?? configuration.flow).rawValue
                // Under `auto` Windows was the engine's choice at the provider chooser: the account may belong to
                // another provider rather than have a wrong password.
                let chosen =
                    configuration.flow == .auto
                    ? "; Windows was chosen at the provider chooser: if the account signs in with another provider, "
                        + "run again with --flow adfs or --flow forms" : ""
                return .finish(
                    .invalidCredentials(
                        message: "the server refused the \(flow) credentials (HTTP 401)\(chosen)", code: "401"))
            }
            return .finish(
                .unknownPage(
                    kind: "HTTP 401 challenge (\(response.header("WWW-Authenticate") ?? "no scheme")); "
                        + "use --flow ntlm or --flow basic", url: response.url, dumpPath: nil))
        }
        let page = readPage(response)
        record.pageKind = page?.kind.rawValue
        for strategy in strategies {
            // An answer that is not a page (JSON) goes to the strategy that asked for it, if one did.
            let decided =
                if let page { strategy.decide(on: page, state: &state) } else {
                    strategy.decide(onJSON: response, state: &state)
                }
            guard let decision = decided else { continue }
            switch decision {
            case .finish(let outcome):
                record.decision = "\(strategy.name): stop"
                return .finish(outcome)
            case .askCode(let pending):
                record.decision = "\(strategy.name): ask for a one-time code (attempt \(pending.request.attempt))"
                pendingCode = pending
                return .needCode(pending.request)
            case .send(let request, let note):
                record.decision = "\(strategy.name): \(note)"
                return send(request, from: response.url, note: note)
            }
        }
        guard let page else {
            // A response that is no page (empty, or not HTML) can still move on with a `Refresh` header.
            if let refresh = PageFactsReader.headerRefresh(response), refresh.isFollowed {
                record.decision = "\(refresh.source) after \(refresh.delayText)"
                return send(
                    SignInRequest(url: refresh.url, purpose: .refresh), from: response.url, note: record.decision!)
            }
            record.decision = "not a page"
            return .finish(.unknownPage(kind: "HTTP \(response.status), not HTML", url: response.url, dumpPath: nil))
        }
        record.decision = "no strategy recognised the page (\(page.reason))"
        return .finish(.unknownPage(kind: page.kind.rawValue, url: response.url, dumpPath: nil))
    }

    /// Answers a ``SignInAction/needCode(_:)``: fills the code page's form with `code` and submits it, or, with
    /// no code, ends the sign-in as an interaction that says how to give one.
    public mutating func provide(code: Secret?) -> SignInAction {
        guard let pending = pendingCode else { return .finish(.loop(url: configuration.siteURL, steps: steps)) }
        pendingCode = nil
        guard let code, !code.revealedValue().isEmpty, let field = pending.form.codeField else {
            return .finish(
                .interactionRequired(
                    .mfa, pageId: nil,
                    message: "it asks for a one-time code in \"\(pending.request.fieldName)\" and no code source was "
                        + "given (--otp-command CMD, or run at a terminal to be asked)"))
        }
        let built = pending.form.submission([field: code.revealedValue()], pending.form.signInSubmitter)
        state.codesSubmitted += 1
        var request = SignInRequest(
            method: built.method, url: built.url, form: built.fields, purpose: .oneTimeCode, carriesCredentials: true)
        request.carriesPassword = true
        return send(
            request, from: pending.pageURL,
            note:
                "filled the one-time code in \(field) of form \(pending.form.label) (attempt \(pending.request.attempt))"
        )
    }

    // MARK: - Steps

    private mutating func send(_ request: SignInRequest, from pageURL: String? = nil, note: String) -> SignInAction {
        var request = request
        if request.purpose == .redirect {
            request.referrer = lastRequest?.referrer
        } else if request.purpose != .proof && request.purpose != .start {
            request.referrer = request.referrer ?? pageURL
        }
        steps += 1
        if steps > configuration.policy.maxSteps {
            return .finish(.loop(url: request.url, steps: steps - 1))
        }
        do {
            if let pageURL { try configuration.policy.checkHop(from: pageURL, to: request.url) }
            if request.carriesCredentials {
                try configuration.policy.checkCredentialSubmission(
                    method: request.authentication == nil ? request.method : "POST", action: request.url,
                    pageURL: pageURL ?? request.url, includesPassword: request.carriesPassword)
            }
        } catch {
            return .finish(.policyRefused(error))
        }
        let key = request.method + " " + request.url
        visits[key, default: 0] += 1
        if visits[key]! > 2 && request.form == nil && request.purpose != .proof {
            return .finish(.loop(url: request.url, steps: steps))
        }
        lastRequest = request
        if [.credentials, .username, .autoPost, .interrupt, .providerChoice, .oneTimeCode].contains(request.purpose) {
            submissions += 1
        }
        trace.append(
            SignInTraceStep(
                step: trace.count, method: request.method, url: Redaction.url(request.url), purpose: note,
                status: nil, pageKind: nil, decision: nil, cookiesSet: [], fieldsSent: request.form?.map(\.name) ?? []))
        return .send(request)
    }

    private mutating func start(route scripted: any ScriptedRoute) -> SignInAction {
        var scripted = scripted
        guard let first = scripted.start() else { return .finish(.loop(url: configuration.siteURL, steps: 0)) }
        route = scripted
        return send(first, note: "\(scripted.name): first call")
    }

    private mutating func proofRequest(authentication: Authentication?, url: String? = nil) -> SignInAction {
        proving = true
        let request: SignInRequest
        if let proofURL = configuration.target.proofURL {
            request = SignInRequest(
                url: url ?? proofURL, purpose: .proof, carriesCredentials: authentication != nil,
                authentication: authentication)
        } else {
            // An anonymous visitor has no current user: reading the web proves the site answers without credentials.
            let path =
                configuration.flow == .anonymous
                ? "/_api/web?$select=Title" : "/_api/web/currentuser?$select=Title,LoginName,Email"
            request = SignInRequest(
                url: url ?? URLResolution.join(configuration.siteURL, path),
                headers: [("Accept", "application/json;odata=nometadata")], purpose: .proof,
                carriesCredentials: authentication != nil, authentication: authentication)
        }
        return send(request, note: "prove the session with a signed-in request")
    }

    /// What a proof's answer says.
    private enum ProofVerdict {
        case proven, failed
        case follow(String)
        case signInGoesOn
    }

    /// A 2xx on the target's own origin proves the session (for a web page: unless it is itself a sign-in page);
    /// a redirect to the same origin is followed (at most 5); a redirect elsewhere, or a sign-in page, means the
    /// sign-in has not happened yet and goes on (bounded by the step limit); anything else failed.
    private func proofVerdict(_ response: SignInResponse) -> ProofVerdict {
        if (300...399).contains(response.status), let location = response.location {
            if URLParts(location)?.origin == URLParts(response.url)?.origin {
                return proofHops < 5 ? .follow(location) : .failed
            }
            return .signInGoesOn
        }
        guard (200...299).contains(response.status) else {
            let formsAuth = response.status == 403 && response.header("X-Forms_Based_Auth_Required") != nil
            return formsAuth && submissions == 0 ? .signInGoesOn : .failed
        }
        guard configuration.target.proofURL != nil else { return .proven }
        let signInKinds: [PageKind] = [
            .credentialForm, .usernameStep, .passwordStep, .autoPost, .aadConfig, .kmsi, .oneTimeCode,
            .secondFactor, .passwordChange, .passwordExpiring, .error,
        ]
        if let page = readPage(response), signInKinds.contains(page.kind) || page.refresh?.isFollowed == true {
            return .signInGoesOn
        }
        return .proven
    }

    private func proofOutcome(_ response: SignInResponse) -> SignInOutcome {
        guard (200...299).contains(response.status) else {
            if response.status == 401 && lastRequest?.authentication != nil {
                return .invalidCredentials(message: "the site refused the credentials (HTTP 401)", code: "401")
            }
            return .unknownPage(
                kind: "the proof request answered HTTP \(response.status): the cookies did not sign in",
                url: response.url, dumpPath: nil)
        }
        let flow = (state.detectedFlow ?? configuration.flow).rawValue
        if let proofURL = configuration.target.proofURL {
            let wanted = configuration.targetCookies.isEmpty ? targetHostCookies : configuration.targetCookies
            return .signedIn(
                Session(
                    siteURL: configuration.siteURL, user: configuration.username, displayName: nil, flow: flow,
                    provedAt: Date(), policy: configuration.policy, cookies: response.siteCookies,
                    targetCookies: wanted, staySignedIn: configuration.staySignedIn, proofURL: proofURL))
        }
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        let user = (object?["d"] as? [String: Any]) ?? object
        let displayName =
            configuration.flow == .anonymous ? nil : (user?["Title"] as? String) ?? (user?["LoginName"] as? String)
        return .signedIn(
            Session(
                siteURL: configuration.siteURL, user: configuration.username, displayName: displayName,
                flow: flow, provedAt: Date(), policy: configuration.policy,
                cookies: response.siteCookies, targetCookies: configuration.targetCookies,
                staySignedIn: configuration.staySignedIn, loginURL: configuration.loginURL))
    }

    /// Whether to try the proof now: the target cookies are present (names or globs); for a web target without
    /// `--cookie`, once the sign-in moved on and the target's own host answers 2xx, having set cookies.
    private func shouldProve(_ response: SignInResponse) -> Bool {
        if case .web(let proofURL) = configuration.target, configuration.targetCookies.isEmpty {
            return submissions > 0 && !targetHostCookies.isEmpty && (200...299).contains(response.status)
                && URLParts(response.url)?.origin == URLParts(proofURL)?.origin
        }
        return haveTargetCookies(response)
    }

    /// Remembers the names of cookies the target's host sets.
    private mutating func noteTargetHostCookies(_ response: SignInResponse) {
        guard let proofURL = configuration.target.proofURL, URLParts(response.url)?.host == URLParts(proofURL)?.host
        else { return }
        for name in setCookieNames(response) where !targetHostCookies.contains(name) { targetHostCookies.append(name) }
    }

    private func haveTargetCookies(_ response: SignInResponse) -> Bool {
        let expected = configuration.expectedCookies
        guard !expected.isEmpty else { return false }
        return CookiePatterns.allMatched(expected, by: response.siteCookies.map(\.name))
    }

    private func setCookieNames(_ response: SignInResponse) -> [String] {
        response.headers.filter { $0.name.lowercased() == "set-cookie" }.compactMap { header in
            header.value.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    private func host(_ url: String) -> String {
        URLParts(url)?.host ?? ""
    }
}
