import TransportValues

/// The HTTP layer's turns in ``SignInMachine/receive(_:)``: a redirect hop (which keeps HTTP authentication on its
/// own origin only) and a `401` challenge (a refusal of the credentials sent, or a scheme the flow does not speak).
extension SignInMachine {
    /// The next hop of a 3xx with a `Location`. A 307/308 repeats the request, body and all; HTTP authentication
    /// goes along only where the policy lets credentials go from the redirecting origin.
    mutating func redirectStep(_ response: SignInResponse, record: inout SignInTraceStep) -> SignInAction? {
        guard (300...399).contains(response.status), let location = response.location else { return nil }
        var next = SignInRequest(url: location, purpose: .redirect)
        if response.status == 307 || response.status == 308, let last = lastRequest {
            next = last
            next.url = location
            next.purpose = .redirect
        }
        if let authentication = lastRequest?.authentication ?? lastRequest?.redirectAuthentication {
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

    /// A `401`: with credentials sent, they were refused; without, under `auto`, a Basic or NTLM challenge is
    /// answered as a browser would (NTLM first: it proves the password without sending it), when the policy lets
    /// the credentials go there; else the challenge names a scheme this flow does not answer (or one a redirect
    /// kept from another host).
    mutating func challengeStep(_ response: SignInResponse, record: inout SignInTraceStep) -> SignInAction? {
        guard response.status == 401 else { return nil }
        record.decision = "HTTP 401"
        if let withheld = authenticationWithheld, withheld.url == response.url, lastRequest?.authentication == nil {
            return .finish(
                .unknownPage(
                    kind: "HTTP 401 challenge from \(host(response.url)), which \(withheld.host) redirected to; "
                        + "the credentials were not sent to another host",
                    url: response.url, dumpPath: nil,
                    hints: URLParts(response.url).map { [.allowHost($0.displayAuthority)] } ?? []))
        }
        if lastRequest?.authentication == nil, let answer = answerChallenge(response) {
            record.decision = "HTTP 401 challenge: answered with \(answer.flow.rawValue)"
            return answer.action
        }
        if lastRequest?.authentication != nil {
            let flow = (state.detectedFlow ?? configuration.flow).rawValue
            // Under `auto` Windows was the engine's choice at the provider chooser: the account may belong to
            // another provider rather than have a wrong password. A challenge the engine answered itself is not that.
            guard configuration.flow == .auto, !challengeAnswered else {
                return .finish(
                    .invalidCredentials(message: "the server refused the \(flow) credentials (HTTP 401)", code: "401"))
            }
            return .finish(
                .invalidCredentials(
                    message: "the server refused the \(flow) credentials (HTTP 401); Windows was chosen at the "
                        + "provider chooser: the account may sign in with another provider (the adfs or forms flow)",
                    code: "401"))
        }
        return .finish(
            .unknownPage(
                kind: "HTTP 401 challenge (\(response.header("WWW-Authenticate") ?? "no scheme"))",
                url: response.url, dumpPath: nil, hints: [.tryFlows([.ntlm, .basic])]))
    }

    /// Under `auto`, with a user name and password and not in a silent renewal: the request that answers a Basic or
    /// NTLM challenge. On the target's own origin the proof itself goes with the credentials (the site signs in by
    /// HTTP authentication on every request); elsewhere the challenged request is repeated with them.
    private mutating func answerChallenge(_ response: SignInResponse) -> (flow: SignInFlow, action: SignInAction)? {
        guard configuration.flow == .auto, !configuration.silent, !challengeAnswered, !configuration.username.isEmpty,
            !configuration.password.revealedValue().isEmpty, let last = lastRequest
        else { return nil }
        let schemes = response.headers.filter { $0.name.lowercased() == "www-authenticate" }
            .flatMap { $0.value.split(separator: ",") }
            .compactMap { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first?.lowercased() }
        let flow: SignInFlow
        let authentication: Authentication
        if schemes.contains("ntlm") {
            (flow, authentication) = (.ntlm, .ntlm(user: configuration.username, password: configuration.password))
        } else if schemes.contains("basic") {
            (flow, authentication) = (.basic, .basic(user: configuration.username, password: configuration.password))
        } else {
            return nil
        }
        challengeAnswered = true
        state.detectedFlow = flow
        let target = configuration.target.proofURL ?? configuration.siteURL
        if URLParts(response.url)?.origin == URLParts(target)?.origin {
            return (flow, proofRequest(authentication: authentication))
        }
        var repeated = last
        repeated.authentication = authentication
        repeated.carriesCredentials = true
        return (flow, send(repeated, from: response.url, note: "answered the \(flow.rawValue) challenge"))
    }
}
