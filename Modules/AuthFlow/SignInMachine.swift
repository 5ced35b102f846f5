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

    var state: FlowState
    private var steps = 0
    private var visits: [String: Int] = [:]
    var lastRequest: SignInRequest?
    var proving = false
    /// Requests that moved the sign-in on (credentials, a user name, an auto-post, an interrupt's answer).
    var submissions = 0
    /// `submissions` when the proof was last tried: a cookie seen again triggers no new proof until the sign-in
    /// moved on (a cookie set before the sign-in happened, as some service providers do, is not a session).
    var proofTriedAt: Int?
    /// Same-origin redirects followed by the current proof.
    var proofHops = 0
    /// Cookie names the target's host set during this sign-in (a web target without `--cookie`).
    var targetHostCookies: [String] = []
    /// A one-time-code page waiting for the driver's answer (``provide(code:)``).
    private var pendingCode: PendingCode?
    private var route: (any ScriptedRoute)?
    /// The URL a redirect led to without the HTTP authentication it would have carried, and the host it kept.
    private var authenticationWithheld: (url: String, host: String)?
    let strategies: [any SignInStrategy]
    /// Reads a page into facts; the HTML module's reader by default.
    let readPage: @Sendable (SignInResponse) -> PageFacts?

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

    mutating func send(_ request: SignInRequest, from pageURL: String? = nil, note: String) -> SignInAction {
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

    func setCookieNames(_ response: SignInResponse) -> [String] {
        response.headers.filter { $0.name.lowercased() == "set-cookie" }.compactMap { header in
            header.value.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    private func host(_ url: String) -> String {
        URLParts(url)?.host ?? ""
    }
}
