import Foundation
import Transport

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
        switch configuration.flow {
        case .entra: strategies = [EntraStrategy(), FormsStrategy()]
        case .adfs, .forms: strategies = [ProviderChooserStrategy(), FormsStrategy()]
        case .fba: strategies = [ProviderChooserStrategy(), FormsStrategy()]
        default: strategies = [EntraStrategy(), ProviderChooserStrategy(), FormsStrategy()]
        }
    }

    /// The first request: the flow's entry point on the site.
    public mutating func start() -> SignInAction {
        let site = configuration.siteURL
        let request: SignInRequest
        switch configuration.flow {
        case .fba:
            request = SignInRequest(
                url: URLResolution.join(
                    site,
                    "/_forms/default.aspx?ReturnUrl=%2f_layouts%2f15%2fAuthenticate.aspx%3fSource%3d%252F&Source=%2F"),
                purpose: .start)
        case .ntlm:
            request = SignInRequest(
                url: URLResolution.join(
                    site,
                    "/_windows/default.aspx?ReturnUrl=%2f_layouts%2f15%2fAuthenticate.aspx%3fSource%3d%252F&Source=%2F"),
                headers: [("X-FORMS_BASED_AUTH_ACCEPTED", "f")], purpose: .start, carriesCredentials: true,
                authentication: .ntlm(user: configuration.username, password: configuration.password))
        case .basic:
            return proofRequest(authentication: .basic(user: configuration.username, password: configuration.password))
        case .anonymous:
            return proofRequest(authentication: nil)
        case .legacySPO:
            return start(route: LegacySPO(configuration: configuration))
        case .fbaSOAP:
            return start(route: FBAWebService(configuration: configuration))
        case .adfsWSTrust:
            route = ADFSWSTrust(configuration: configuration)
            request = SignInRequest(
                url: URLResolution.join(site, "/_layouts/15/Authenticate.aspx?Source=%2F"), purpose: .start)
        default:
            request = SignInRequest(
                url: URLResolution.join(site, "/_layouts/15/Authenticate.aspx?Source=%2F"), purpose: .start)
        }
        return send(request, note: "start at the \(configuration.flow.rawValue) entry point")
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

        if proving {
            let outcome = proofOutcome(response)
            record.decision = "proof: HTTP \(response.status)"
            return .finish(outcome)
        }
        if haveTargetCookies(response) {
            record.decision = "session cookies present: prove them"
            let authentication = lastRequest?.authentication
            return proofRequest(authentication: authentication)
        }
        if var active = route, let decision = active.next(after: response) {
            route = active
            switch decision {
            case .finish(let outcome):
                record.decision = "\(active.name): stop"
                return .finish(outcome)
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

    // MARK: - Steps

    private mutating func send(_ request: SignInRequest, from pageURL: String? = nil, note: String) -> SignInAction {
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
        if visits[key]! > 2 && request.form == nil {
            return .finish(.loop(url: request.url, steps: steps))
        }
        lastRequest = request
        trace.append(
            SignInTraceStep(
                step: trace.count, method: request.method, url: Redaction.url(request.url), purpose: note,
                status: nil, pageKind: nil, decision: nil, cookiesSet: [], fieldsSent: request.form?.map(\.name) ?? []))
        return .send(request)
    }

    private mutating func start(route scripted: some ScriptedRoute) -> SignInAction {
        var scripted = scripted
        guard let first = scripted.start() else { return .finish(.loop(url: configuration.siteURL, steps: 0)) }
        route = scripted
        return send(first, note: "\(scripted.name): first call")
    }

    private mutating func proofRequest(authentication: Authentication?) -> SignInAction {
        proving = true
        // An anonymous visitor has no current user: reading the web proves the site answers without credentials.
        let path =
            configuration.flow == .anonymous
            ? "/_api/web?$select=Title" : "/_api/web/currentuser?$select=Title,LoginName,Email"
        let url = URLResolution.join(configuration.siteURL, path)
        let request = SignInRequest(
            url: url, headers: [("Accept", "application/json;odata=nometadata")], purpose: .proof,
            carriesCredentials: authentication != nil, authentication: authentication)
        return send(request, note: "prove the session with a signed-in request")
    }

    private func proofOutcome(_ response: SignInResponse) -> SignInOutcome {
        guard response.status == 200 else {
            if response.status == 401 && lastRequest?.authentication != nil {
                return .invalidCredentials(message: "the site refused the credentials (HTTP 401)", code: "401")
            }
            return .unknownPage(
                kind: "the proof request answered HTTP \(response.status): the cookies did not sign in",
                url: response.url, dumpPath: nil)
        }
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        let user = (object?["d"] as? [String: Any]) ?? object
        let displayName =
            configuration.flow == .anonymous ? nil : (user?["Title"] as? String) ?? (user?["LoginName"] as? String)
        return .signedIn(
            Session(
                siteURL: configuration.siteURL, user: configuration.username, displayName: displayName,
                flow: (state.detectedFlow ?? configuration.flow).rawValue, provedAt: Date(),
                policy: configuration.policy,
                cookies: response.siteCookies, targetCookies: configuration.targetCookies,
                staySignedIn: configuration.staySignedIn, loginURL: configuration.loginURL))
    }

    private func haveTargetCookies(_ response: SignInResponse) -> Bool {
        let expected = configuration.expectedCookies
        guard !expected.isEmpty else { return false }
        let present = Set(response.siteCookies.map(\.name))
        return expected.allSatisfy { present.contains($0) }
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
