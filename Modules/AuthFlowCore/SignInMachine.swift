public import Foundation
import HTML
import TransportValues

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

    /// What the sign-in as a whole has done, shared with the strategies (its ``SignInBudget`` included).
    var state: FlowState
    /// Where the sign-in is, with the data only that phase holds.
    var phase: SignInPhase = .idle
    var lastRequest: SignInRequest?
    /// Requests that moved the sign-in on (credentials, a user name, an auto-post, an interrupt's answer).
    var submissions = 0
    /// `submissions` when the proof was last tried: a cookie seen again triggers no new proof until the sign-in
    /// moved on (a cookie set before the sign-in happened, as some service providers do, is not a session).
    var proofTriedAt: Int?
    /// What the sign-in remembers of the target's cookies: which it would get now, and which it had when the
    /// credentials last went (see ``CookieStory``).
    var cookieStory = CookieStory()
    /// The hosts that answered over https during this sign-in (their cookies must never travel over http).
    var httpsHosts: Set<String> = []
    var route: (any ScriptedRoute)?
    /// What the redirect and challenge turns remember (`SignInRedirects.swift`).
    var httpAuthentication = HTTPAuthenticationMemory()
    var strategies: [any SignInStrategy]
    /// Reads a page into facts; the HTML module's reader by default.
    let readPage: @Sendable (SignInResponse) -> PageFacts?
    /// The wall clock, read once, when a proven session gets its time (``Session/provedAt``).
    let now: @Sendable () -> Date

    /// A machine for one sign-in with `configuration`. `now` is the clock the session's time comes from (the
    /// system's by default; a test or a replay passes its own, so the machine depends on nothing outside it).
    public init(_ configuration: SignInConfiguration, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(configuration, readPage: PageFactsReader.read, now: now)
    }

    init(
        _ configuration: SignInConfiguration, readPage: @escaping @Sendable (SignInResponse) -> PageFacts?,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.state = FlowState(configuration: configuration)
        self.readPage = readPage
        self.now = now
        strategies = FlowRegistry.row(configuration.flow).strategies
    }

    /// The first request: the flow's entry point on the site.
    ///
    /// - Precondition: called once, before anything else.
    public mutating func start() -> SignInAction {
        guard case .idle = phase else { preconditionFailure("start() called when the sign-in is \(phase.name)") }
        phase = .navigating
        return settled(entry())
    }

    /// The flow's entry request (or proof, or scripted route's first call).
    private mutating func entry() -> SignInAction {
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

    /// Feeds what came back for the last request; returns the next move. Each concern has its turn, in the order a
    /// browser meets them: the proof of the session, a scripted route's own exchange, a redirect, an HTTP
    /// authentication challenge, and last the page itself.
    ///
    /// - Precondition: the last action was ``SignInAction/send(_:)`` (not a finish, nor a code still unanswered).
    public mutating func receive(_ response: SignInResponse) -> SignInAction {
        switch phase {
        case .navigating, .proving: break
        case .idle, .awaitingCode, .finished:
            preconditionFailure("receive(_:) called when the sign-in is \(phase.name)")
        }
        return settled(answer(to: response))
    }

    /// The phase an action leaves the machine in: a finish ends it (a code asked for and a request sent set their
    /// phase where they are made).
    mutating func settled(_ action: SignInAction) -> SignInAction {
        if case .finish = action { phase = .finished }
        return action
    }

    /// The next move on `response`, recorded in the trace.
    private mutating func answer(to response: SignInResponse) -> SignInAction {
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

        cookieStory.received(response.siteCookies)
        if URLParts(response.url)?.scheme == "https", let host = URLParts(response.url)?.host {
            httpsHosts.insert(host)
        }
        if let action = proofStep(response, record: &record) { return action }
        return continueSignIn(with: response, record: &record)
    }

    /// Every turn after the proof's, on `response`: a scripted route's exchange, a redirect, an HTTP
    /// authentication challenge, and last the page itself.
    mutating func continueSignIn(with response: SignInResponse, record: inout SignInTraceStep) -> SignInAction {
        if let action = routeStep(response, record: &record) { return action }
        if let action = redirectStep(response, record: &record) { return action }
        if let action = challengeStep(response, record: &record) { return action }
        return pageStep(response, record: &record)
    }

    /// A scripted route's move: it sees every answer first, and its calls go to the host it names.
    private mutating func routeStep(_ response: SignInResponse, record: inout SignInTraceStep) -> SignInAction? {
        guard var active = route, let decision = active.next(after: response) else { return nil }
        route = active
        if case .send(let request, let note) = decision {
            do {
                try checkHop(from: response.url, to: request)
            } catch {
                record.decision = "\(active.name): \(note)"
                return .finish(.policyRefused(error))
            }
        }
        // A route's service call is its own "form": its credentials go to the host it calls.
        return take(decision, by: active.name, record: &record) { $0.url }
    }

    /// Records and carries out the decision of a strategy or route called `name`; a request goes as sent from the
    /// page `sentFrom` names for it (its `Referer`, and the origin its credentials are checked against).
    private mutating func take(
        _ decision: StrategyDecision, by name: String, record: inout SignInTraceStep,
        sentFrom: (SignInRequest) -> String
    ) -> SignInAction {
        switch decision {
        case .finish(let outcome):
            record.decision = "\(name): stop"
            return .finish(outcome)
        case .askCode(let pending):
            record.decision = "\(name): ask for a one-time code (attempt \(pending.request.attempt))"
            phase = .awaitingCode(pending)
            return .needCode(pending.request)
        case .send(let request, let note):
            record.decision = "\(name): \(note)"
            return send(request, from: sentFrom(request), note: note)
        }
    }

    /// The page's move: the strategies are asked in order, and the first that recognises the page decides.
    private mutating func pageStep(_ response: SignInResponse, record: inout SignInTraceStep) -> SignInAction {
        let page = readPage(response)
        record.pageKind = page?.kind.rawValue
        if let page, let proof = targetPageProof(page, response, record: &record) { return proof }
        for index in strategies.indices {
            // An answer that is not a page (JSON) goes to the strategy that asked for it, if one did.
            let decided =
                if let page { strategies[index].decide(on: page, state: &state) } else {
                    strategies[index].decide(onJSON: response, state: &state)
                }
            guard let decision = decided else { continue }
            return take(decision, by: strategies[index].name, record: &record) { _ in response.url }
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

    // MARK: - Steps

    mutating func send(_ request: SignInRequest, from pageURL: String? = nil, note: String) -> SignInAction {
        var request = request
        if request.purpose == .redirect {
            request.referrer = lastRequest?.referrer
        } else if request.purpose != .proof && request.purpose != .start {
            request.referrer = request.referrer ?? pageURL
        }
        // A second factor's polls are bounded by its own limit (the page's timeout), not by the step limit.
        if request.delay == nil, !state.budget.spendStep() {
            return .finish(.loop(url: request.url, steps: state.budget.steps - 1))
        }
        if configuration.silent && request.carriesCredentials && request.purpose != .proof {
            return .finish(
                .interactionRequired(
                    .credentialsNeeded, pageId: nil,
                    message: "its own session no longer signs the user in without the password"))
        }
        // An empty password is never sent: a sign-in given none (a Kerberos ticket alone) stops where a page asks. A
        // post of the Temporary Access Pass the user gave (Entra's pass view) carries that instead.
        let sendsAccessPass =
            configuration.accessPass.map { pass in
                request.form?.contains { $0.value == pass.revealedValue() } ?? false
            } ?? false
        if request.carriesPassword && request.authentication == nil && configuration.password.revealedValue().isEmpty
            && !sendsAccessPass
        {
            return .finish(
                .interactionRequired(
                    .credentialsNeeded, pageId: nil,
                    message: "the page asks for a password, and this sign-in was given none"))
        }
        do {
            if let pageURL { try checkHop(from: pageURL, to: request) }
            if request.carriesCredentials {
                try configuration.policy.checkCredentialSubmission(
                    method: request.authentication == nil ? request.method : "POST", action: request.url,
                    pageURL: pageURL ?? request.url, includesPassword: request.carriesPassword)
            }
        } catch {
            return .finish(.policyRefused(error))
        }
        // A proof is a look at the target, not a step of the navigation: it does not count toward a cycle. A second
        // factor's calls repeat by design (polls, codes) and are bounded by its own limits.
        if request.purpose != .proof, !state.budget.visit(request.method + " " + request.url),
            request.form == nil, request.purpose != .secondFactor
        {
            return .finish(.loop(url: request.url, steps: state.budget.steps))
        }
        lastRequest = request
        if request.purpose != .proof { phase = .navigating }
        if request.carriesCredentials && request.purpose != .proof { cookieStory.credentialsSent() }
        if [.credentials, .username, .autoPost, .interrupt, .providerChoice, .oneTimeCode, .secondFactor].contains(
            request.purpose)
        {
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

    func host(_ url: String) -> String {
        URLParts(url)?.host ?? ""
    }
}
