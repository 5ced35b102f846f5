import Transport

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

    /// A `401`: with credentials sent, they were refused; without, the challenge names a scheme this flow does
    /// not answer (or one a redirect kept from another host).
    func challengeStep(_ response: SignInResponse, record: inout SignInTraceStep) -> SignInAction? {
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
        if lastRequest?.authentication != nil {
            let flow = (state.detectedFlow ?? configuration.flow).rawValue
            // Under `auto` Windows was the engine's choice at the provider chooser: the account may belong to
            // another provider rather than have a wrong password.
            guard configuration.flow == .auto else {
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
}
