import Foundation
import JSON

/// The legacy SharePoint Online route (IDCRL): realm discovery at `GetUserRealm.srf`, a security token from
/// `extSTS.srf` (WS-Trust, user name and password in a SOAP body), then the token posted to the site's
/// `/_forms/default.aspx?wa=wsignin1.0`, which sets FedAuth and rtFa.
///
/// SharePoint Online refuses this route since 1 May 2026; it stays for on-premises look-alikes, sovereign
/// clouds and simulators, is used only when asked for (`--flow legacy-spo`), and says so clearly when the
/// server refuses it. Its own little state machine, driven by `SignInMachine`.
struct LegacySPO: ScriptedRoute {
    let name = "legacy"
    enum Stage: Sendable {
        case realm, token, cookies
    }

    let configuration: SignInConfiguration
    /// The login service (`https://login.microsoftonline.com` for `*.sharepoint.com`).
    let loginURL: String
    private(set) var stage = Stage.realm

    init(configuration: SignInConfiguration) {
        self.configuration = configuration
        self.loginURL = configuration.loginURL ?? Self.loginURL(forSite: configuration.siteURL)
    }

    /// The login host per cloud, picked by the SharePoint host's suffix.
    static func loginURL(forSite site: String) -> String {
        let host = URLParts(site)?.host ?? ""
        let clouds: [(suffix: String, login: String)] = [
            (".sharepoint.us", "https://login.microsoftonline.us"),
            (".sharepoint-mil.us", "https://login-us.microsoftonline.com"),
            (".sharepoint.cn", "https://login.chinacloudapi.cn"),
            (".sharepoint.de", "https://login.microsoftonline.de"),
        ]
        return clouds.first { host.hasSuffix($0.suffix) }?.login ?? "https://login.microsoftonline.com"
    }

    /// Step 1: ask which realm the user belongs to.
    mutating func start() -> SignInRequest? {
        stage = .realm
        return SignInRequest(
            method: "POST", url: URLResolution.join(loginURL, "/GetUserRealm.srf"),
            form: [("login", configuration.username), ("xml", "1")], purpose: .username, carriesCredentials: true)
    }

    /// The next move after `response`; nil once the token was posted and accepted (the machine then
    /// proves the cookies).
    mutating func next(after response: SignInResponse) -> StrategyDecision? {
        let body = String(decoding: response.body, as: UTF8.self)
        switch stage {
        case .realm:
            let namespace = SOAPText.element("NameSpaceType", in: body) ?? Self.jsonString("NameSpaceType", in: body)
            switch namespace?.lowercased() {
            case "managed":
                stage = .token
                return .send(tokenRequest(), note: "realm is managed: ask extSTS for a token")
            case "federated":
                return .finish(
                    .unknownPage(
                        kind: "federated realm: the legacy route would need the federation server's WS-Trust "
                            + "endpoint", url: response.url, dumpPath: nil, hints: [.tryFlows([.entra, .adfs])]))
            default:
                return .finish(
                    .invalidCredentials(message: "no such account or realm for \(configuration.username)", code: nil))
            }
        case .token:
            if let token = SOAPText.element("BinarySecurityToken", in: body) {
                stage = .cookies
                let compact = SOAPText.unescape(token)
                return .send(
                    SignInRequest(
                        method: "POST",
                        url: URLResolution.join(configuration.siteURL, "/_forms/default.aspx?wa=wsignin1.0"),
                        rawBody: ("application/x-www-form-urlencoded", Array(compact.utf8)), purpose: .credentials),
                    note: "post the security token to SharePoint")
            }
            return .finish(Self.fault(in: body))
        case .cookies:
            if response.status == 403 || response.status == 401 {
                return .finish(
                    .unknownPage(
                        kind: "SharePoint refused the legacy (IDCRL) sign-in, as SharePoint Online does since "
                            + "May 2026: the browser route signs in instead", url: response.url, dumpPath: nil,
                        hints: [.tryFlows([.entra])]))
            }
            return nil
        }
    }

    private func tokenRequest() -> SignInRequest {
        let siteRoot =
            URLComponents(string: configuration.siteURL).map { components in
                "\(components.scheme ?? "https")://\(components.host ?? "")" + (components.port.map { ":\($0)" } ?? "")
            } ?? configuration.siteURL
        let envelope = """
            <?xml version="1.0" encoding="utf-8"?>
            <s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" \
            xmlns:a="http://www.w3.org/2005/08/addressing">
            <s:Header>
            <a:Action s:mustUnderstand="1">http://schemas.xmlsoap.org/ws/2005/02/trust/RST/Issue</a:Action>
            <a:ReplyTo><a:Address>http://www.w3.org/2005/08/addressing/anonymous</a:Address></a:ReplyTo>
            <a:To s:mustUnderstand="1">\(SOAPText.escape(URLResolution.join(loginURL, "/extSTS.srf")))</a:To>
            \(SOAPText.usernameTokenSecurity(configuration))
            </s:Header>
            <s:Body>
            <t:RequestSecurityToken xmlns:t="http://schemas.xmlsoap.org/ws/2005/02/trust">
            <wsp:AppliesTo xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy">
            <a:EndpointReference><a:Address>\(SOAPText.escape(siteRoot + "/"))</a:Address></a:EndpointReference>
            </wsp:AppliesTo>
            <t:KeyType>http://schemas.xmlsoap.org/ws/2005/05/identity/NoProofKey</t:KeyType>
            <t:RequestType>http://schemas.xmlsoap.org/ws/2005/02/trust/Issue</t:RequestType>
            <t:TokenType>urn:passport:compact</t:TokenType>
            </t:RequestSecurityToken>
            </s:Body>
            </s:Envelope>
            """
        return SignInRequest(
            method: "POST", url: URLResolution.join(loginURL, "/extSTS.srf"),
            rawBody: ("application/soap+xml; charset=utf-8", Array(envelope.utf8)), purpose: .credentials,
            carriesCredentials: true)
    }

    /// The outcome of an extSTS answer without a token: a SOAP fault, or a token-less response.
    static func fault(in body: String) -> SignInOutcome {
        let text = (SOAPText.element("text", in: body) ?? SOAPText.element("Text", in: body)).map(SOAPText.unescape)
        let code = text.flatMap { text -> String? in
            guard let range = text.range(of: #"AADSTS\d+"#, options: .regularExpression) else { return nil }
            return String(text[range].dropFirst("AADSTS".count))
        }
        let message = text ?? "the security token service returned no token"
        switch code {
        case "50126", "50034", "50053", "50056", "50057": return .invalidCredentials(message: message, code: code)
        case "50076", "50079", "50074": return .interactionRequired(.mfa, pageId: "extSTS", message: message)
        case "50055", "50144": return .interactionRequired(.passwordChange, pageId: "extSTS", message: message)
        case .some(let other): return .invalidCredentials(message: message, code: other)
        case nil:
            return .interactionRequired(
                .unknownInterrupt, pageId: "extSTS",
                message: "the token service answered without a token (a policy such as Conditional Access may "
                    + "require the browser flow)")
        }
    }

    static func jsonString(_ key: String, in text: String) -> String? {
        (try? JSONValue.parse(text))?[key]?.stringValue
    }
}
