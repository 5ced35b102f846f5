import Foundation

/// ADFS without its HTML pages (`--flow adfs-ws-trust`): follow the site's sign-in redirects until they
/// reach ADFS's passive endpoint (`/adfs/ls/?wa=wsignin1.0&wtrealm=…&wctx=…`), ask the same ADFS for a
/// SAML token over WS-Trust 1.3 (`/adfs/services/trust/13/usernamemixed`, user name and password in the
/// SOAP body), and post it to the site's `/_trust/` as the browser's auto-post would.
struct ADFSWSTrust: ScriptedRoute {
    enum Stage: Sendable {
        case discover
        case token(realm: String, context: String, trustURL: String)
        case posted
    }

    let name = "adfs-ws-trust"
    let configuration: SignInConfiguration
    private(set) var stage = Stage.discover

    init(configuration: SignInConfiguration) {
        self.configuration = configuration
    }

    mutating func start() -> SignInRequest? { nil }

    mutating func next(after response: SignInResponse) -> StrategyDecision? {
        switch stage {
        case .discover:
            guard let location = response.location, let passive = URLComponents(string: location),
                passive.path.lowercased().hasPrefix("/adfs/ls"),
                let realm = passive.queryItems?.first(where: { $0.name == "wtrealm" })?.value
            else { return nil }
            let context = passive.queryItems?.first { $0.name == "wctx" }?.value ?? ""
            var endpoint = passive
            endpoint.path = "/adfs/services/trust/13/usernamemixed"
            endpoint.query = nil
            let trustURL = URLResolution.join(configuration.siteURL, "/_trust/")
            stage = .token(realm: realm, context: context, trustURL: trustURL)
            return .send(
                tokenRequest(endpoint: endpoint.string ?? location, realm: realm),
                note: "ADFS found at \(passive.host ?? "?"): ask WS-Trust for a token for \(realm)")
        case .token(let realm, let context, let trustURL):
            let body = String(decoding: response.body, as: UTF8.self)
            guard let assertion = SOAPText.wholeElement("Assertion", in: body) else {
                let reason = SOAPText.element("Text", in: body).map(SOAPText.unescape)
                if response.status == 500, reason?.contains("ID3242") == true || reason != nil {
                    return .finish(
                        .invalidCredentials(
                            message: reason ?? "ADFS did not accept the user name or password", code: nil))
                }
                return .finish(
                    .unknownPage(kind: "ADFS WS-Trust answered without a token", url: response.url, dumpPath: nil))
            }
            stage = .posted
            let wresult = """
                <t:RequestSecurityTokenResponse xmlns:t="http://schemas.xmlsoap.org/ws/2005/02/trust">\
                <wsp:AppliesTo xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy">\
                <wsa:EndpointReference xmlns:wsa="http://www.w3.org/2005/08/addressing">\
                <wsa:Address>\(SOAPText.escape(realm))</wsa:Address></wsa:EndpointReference></wsp:AppliesTo>\
                <t:RequestedSecurityToken>\(assertion)</t:RequestedSecurityToken>\
                <t:TokenType>urn:oasis:names:tc:SAML:1.0:assertion</t:TokenType>\
                <t:RequestType>http://schemas.xmlsoap.org/ws/2005/02/trust/Issue</t:RequestType>\
                <t:KeyType>http://schemas.xmlsoap.org/ws/2005/05/identity/NoProofKey</t:KeyType>\
                </t:RequestSecurityTokenResponse>
                """
            return .send(
                SignInRequest(
                    method: "POST", url: trustURL,
                    form: [("wa", "wsignin1.0"), ("wresult", wresult), ("wctx", context)], purpose: .autoPost),
                note: "post the SAML token to the site's /_trust/")
        case .posted:
            return nil
        }
    }

    private func tokenRequest(endpoint: String, realm: String) -> SignInRequest {
        let envelope = """
            <?xml version="1.0" encoding="utf-8"?>
            <s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" \
            xmlns:a="http://www.w3.org/2005/08/addressing" \
            xmlns:u="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">
            <s:Header>
            <a:Action s:mustUnderstand="1">http://docs.oasis-open.org/ws-sx/ws-trust/200512/RST/Issue</a:Action>
            <a:To s:mustUnderstand="1">\(SOAPText.escape(endpoint))</a:To>
            \(SOAPText.usernameTokenSecurity(configuration))
            </s:Header>
            <s:Body>
            <trust:RequestSecurityToken xmlns:trust="http://docs.oasis-open.org/ws-sx/ws-trust/200512">
            <wsp:AppliesTo xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy">
            <a:EndpointReference><a:Address>\(SOAPText.escape(realm))</a:Address></a:EndpointReference>
            </wsp:AppliesTo>
            <trust:KeyType>http://docs.oasis-open.org/ws-sx/ws-trust/200512/Bearer</trust:KeyType>
            <trust:RequestType>http://docs.oasis-open.org/ws-sx/ws-trust/200512/Issue</trust:RequestType>
            <trust:TokenType>urn:oasis:names:tc:SAML:1.0:assertion</trust:TokenType>
            </trust:RequestSecurityToken>
            </s:Body>
            </s:Envelope>
            """
        return SignInRequest(
            method: "POST", url: endpoint, rawBody: ("application/soap+xml; charset=utf-8", Array(envelope.utf8)),
            purpose: .credentials, carriesCredentials: true)
    }
}
