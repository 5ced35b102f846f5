/// SharePoint's forms sign-in web service, `/_vti_bin/authentication.asmx` (`--flow fba-soap`): one SOAP
/// `Login` call that answers `NoError` with the FedAuth cookie, or `PasswordNotMatch`.
struct FBAWebService: ScriptedRoute {
    let name = "fba-soap"
    let configuration: SignInConfiguration

    mutating func start() -> SignInRequest? {
        let envelope = """
            <?xml version="1.0" encoding="utf-8"?>
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
            <soap:Body><Login xmlns="http://schemas.microsoft.com/sharepoint/soap/">\
            <username>\(SOAPText.escape(configuration.username))</username>\
            <password>\(SOAPText.escape(configuration.password.revealedValue()))</password>\
            </Login></soap:Body>
            </soap:Envelope>
            """
        return SignInRequest(
            method: "POST", url: URLResolution.join(configuration.siteURL, "/_vti_bin/authentication.asmx"),
            rawBody: ("text/xml; charset=utf-8", Array(envelope.utf8)),
            headers: [("SOAPAction", "\"http://schemas.microsoft.com/sharepoint/soap/Login\"")],
            purpose: .credentials, carriesCredentials: true)
    }

    func next(after response: SignInResponse) -> StrategyDecision? {
        let body = String(decoding: response.body, as: UTF8.self)
        switch SOAPText.element("ErrorCode", in: body) {
        case "NoError":
            return nil  // the cookie is in the jar: the machine proves it
        case "PasswordNotMatch":
            return .finish(
                .invalidCredentials(
                    message: "the site's forms sign-in did not accept the user name or password",
                    code: "PasswordNotMatch"))
        case "NotInFormsAuthenticationMode":
            return .finish(
                .unknownPage(
                    kind: "the site does not use forms authentication (NotInFormsAuthenticationMode)",
                    url: response.url, dumpPath: nil, hints: [.tryFlows([.auto])]))
        default:
            let fault = SOAPText.element("faultstring", in: body).map(SOAPText.unescape)
            return .finish(
                .unknownPage(
                    kind: "authentication.asmx answered HTTP \(response.status)" + (fault.map { ": \($0)" } ?? ""),
                    url: response.url, dumpPath: nil))
        }
    }
}
