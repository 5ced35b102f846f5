import TransportValues

/// What the HTTP layer's turns remember across one sign-in: the schemes the engine answered a challenge with itself
/// (each at most once), and the URL a redirect led to without the HTTP authentication it would have carried.
struct HTTPAuthenticationMemory: Sendable {
    /// The HTTP authentication schemes the engine answered a challenge with itself (`auto`): each at most once.
    var schemesAnswered: Set<SignInFlow> = []
    /// The URL a redirect led to without the HTTP authentication it would have carried, and the host it kept.
    var withheld: (url: String, host: String)?
}

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
            // A passkey's assertion and a certificate's handshake were for the origin that asked: a repeat elsewhere
            // goes without them (its counter was saved already, and is not saved twice).
            next.passkeyUsed = nil
            if URLParts(location)?.origin != URLParts(response.url)?.origin {
                next.clientCertificate = nil
                if last.passkeyUsed != nil {
                    return .finish(
                        .policyRefused(
                            .foreignHost(
                                action: location, formHost: URLParts(response.url)?.displayAuthority ?? "")))
                }
            }
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
                httpAuthentication.withheld = (location, host(response.url))
            }
        }
        record.decision = "HTTP \(response.status) redirect"
        return send(next, from: response.url, note: record.decision!)
    }

    /// A `401`. With HTTP authentication sent, it was refused (a Kerberos ticket that did not take falls back to the
    /// password schemes offered). Without, under `auto`, a challenge is answered as a browser would: Negotiate with
    /// a Kerberos ticket when the user has one, then NTLM (it proves the password without sending it), then Basic,
    /// where the policy lets the credentials go. A 401 whose body is a page with something to act on (a web
    /// application's sign-in form, or its refusal of the password) and no scheme to answer is read as that page.
    mutating func challengeStep(_ response: SignInResponse, record: inout SignInTraceStep) -> SignInAction? {
        guard response.status == 401 else { return nil }
        record.decision = "HTTP 401"
        if let withheld = httpAuthentication.withheld, withheld.url == response.url, lastRequest?.authentication == nil
        {
            return .finish(
                .unknownPage(
                    kind: "HTTP 401 challenge from \(host(response.url)), which \(withheld.host) redirected to; "
                        + "the credentials were not sent to another host",
                    url: response.url, dumpPath: nil,
                    hints: URLParts(response.url).map { [.allowHost($0.displayAuthority)] } ?? []))
        }
        let schemes = challengeSchemes(response)
        if let sent = lastRequest?.authentication {
            if case .negotiate = sent, let answer = answerChallenge(response, schemes: schemes) {
                record.decision = "HTTP 401: the Kerberos ticket did not sign in; answered with \(answer.flow.rawValue)"
                return answer.action
            }
            return .finish(refusal(of: sent))
        }
        if let answer = answerChallenge(response, schemes: schemes) {
            record.decision = "HTTP 401 challenge: answered with \(answer.flow.rawValue)"
            return answer.action
        }
        if schemes.isDisjoint(with: Self.answerableSchemes), let page = readPage(response),
            page.kind != .other || page.forms.contains(where: \.isSignInForm)
        {
            record.decision = "HTTP 401 without a scheme to answer, with a page: read as the page"
            return nil
        }
        return .finish(
            .unknownPage(
                kind: "HTTP 401 challenge (\(response.header("WWW-Authenticate") ?? "no scheme"))",
                url: response.url, dumpPath: nil, hints: hints(forChallenge: schemes)))
    }

    /// The schemes this engine can answer.
    static let answerableSchemes: Set<String> = ["negotiate", "ntlm", "basic"]

    /// The schemes a 401 offers, lower-cased (`negotiate`, `ntlm`, `basic`, …).
    func challengeSchemes(_ response: SignInResponse) -> Set<String> {
        Set(
            response.headers.filter { $0.name.lowercased() == "www-authenticate" }
                .flatMap { $0.value.split(separator: ",") }
                .compactMap { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first?.lowercased() }
                .filter { !$0.contains("=") })
    }

    /// What the user could change at a challenge the engine did not answer.
    private func hints(forChallenge schemes: Set<String>) -> [SignInHint] {
        var hints: [SignInHint] = []
        if schemes.contains("negotiate") && !configuration.hasKerberosTicket { hints.append(.getKerberosTicket) }
        // Under another flow than auto, on a site (`--flow` is for sites), the flows that answer what was offered.
        let offered: [(scheme: String, flow: SignInFlow)] = [("ntlm", .ntlm), ("basic", .basic)]
        let flows = offered.filter { schemes.contains($0.scheme) }.map(\.flow)
        if !flows.isEmpty, configuration.flow != .auto, configuration.target == .sharePoint {
            hints.append(.tryFlows(flows))
        }
        return hints
    }

    /// How the refusal of HTTP authentication `sent` ends the sign-in.
    private func refusal(of sent: Authentication) -> SignInOutcome {
        if case .negotiate = sent {
            return .invalidCredentials(
                message: "the server refused the Kerberos ticket (HTTP 401); check klist for a ticket of the "
                    + "server's realm", code: "401")
        }
        let flow = (state.detectedFlow ?? configuration.flow).rawValue
        // Under `auto` Windows was the engine's choice at the provider chooser: the account may belong to
        // another provider rather than have a wrong password. A challenge the engine answered itself is not that.
        guard configuration.flow == .auto, httpAuthentication.schemesAnswered.isEmpty else {
            return .invalidCredentials(message: "the server refused the \(flow) credentials (HTTP 401)", code: "401")
        }
        return .invalidCredentials(
            message: "the server refused the \(flow) credentials (HTTP 401); Windows was chosen at the "
                + "provider chooser: the account may sign in with another provider (the adfs or forms flow)",
            code: "401")
    }

    /// Under `auto` (or `kerberos`), the request that answers a challenge offering `schemes`, with the first scheme not answered
    /// yet: Negotiate when the user has a Kerberos ticket (no password needed, so also in a silent renewal), else,
    /// with a user name and password and not in a silent renewal, NTLM then Basic. On the target's own origin the
    /// proof itself goes with it (the site signs in by HTTP authentication on every request); elsewhere the
    /// challenged request is repeated with it.
    private mutating func answerChallenge(
        _ response: SignInResponse, schemes: Set<String>
    ) -> (flow: SignInFlow, action: SignInAction)? {
        // `kerberos` answers its own scheme only (its password is empty); a web target starts at its page under it.
        guard configuration.flow == .auto || configuration.flow == .kerberos, let last = lastRequest else { return nil }
        let hasPassword =
            !configuration.silent && !configuration.username.isEmpty && !configuration.password.revealedValue().isEmpty
        let flow: SignInFlow
        let authentication: Authentication
        if schemes.contains("negotiate"), configuration.hasKerberosTicket,
            !httpAuthentication.schemesAnswered.contains(.kerberos)
        {
            (flow, authentication) = (.kerberos, .negotiate)
        } else if hasPassword, schemes.contains("ntlm"), !httpAuthentication.schemesAnswered.contains(.ntlm) {
            (flow, authentication) = (.ntlm, .ntlm(user: configuration.username, password: configuration.password))
        } else if hasPassword, schemes.contains("basic"), !httpAuthentication.schemesAnswered.contains(.basic) {
            (flow, authentication) = (.basic, .basic(user: configuration.username, password: configuration.password))
        } else {
            return nil
        }
        httpAuthentication.schemesAnswered.insert(flow)
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
