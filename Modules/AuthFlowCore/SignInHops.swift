import TransportValues

/// Whether a hop from https to plain http may go: the rule is about what is sent, not about schemes alone.
extension SignInMachine {
    /// Checks one hop with the policy (``SignInPolicy/checkHop(from:to:)``), except for one downgrade a browser
    /// user means: back to the plain-http loopback target the user named (with `--allow-http-loopback`), carrying
    /// no credentials, on a host that never answered over https in this sign-in, so no cookie set over https (nor
    /// a `Secure` one) can go with it. A SAML or OIDC answer posted to a local http service provider is such a hop.
    func checkHop(from pageURL: String, to request: SignInRequest) throws(SignInPolicy.Refusal) {
        do {
            try configuration.policy.checkHop(from: pageURL, to: request.url)
        } catch {
            guard case .downgrade = error, !request.carriesCredentials, returnsToHTTPTarget(request.url) else {
                throw error
            }
        }
    }

    /// Whether `url` is on the origin of the target the user named, which is plain http on loopback, allowed, and
    /// on a host no https answer of this sign-in came from.
    private func returnsToHTTPTarget(_ url: String) -> Bool {
        let named = [configuration.siteURL, configuration.target.proofURL].compactMap { $0 }.compactMap(URLParts.init)
        guard let destination = URLParts(url), destination.scheme == "http", configuration.policy.allowHTTPLoopback,
            destination.isLoopback, !httpsHosts.contains(destination.host)
        else { return false }
        return named.contains { $0.origin == destination.origin }
    }
}
