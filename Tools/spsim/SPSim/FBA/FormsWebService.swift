import Foundation
import HTTPServer

/// `/_vti_bin/authentication.asmx`: the forms sign-in web service (SOAP `Login`).
extension SimulatorCore {
    func fbaSOAPLogin(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let body = String(decoding: request.body, as: UTF8.self)
        guard request.method == "POST" else {
            return html(
                200,
                page(
                    title: "Authentication Web Service",
                    body: "<p>The following operations are supported: Login, Mode.</p>"))
        }
        let username = xmlElementText(body, "username") ?? ""
        let password = xmlElementText(body, "password") ?? ""
        let soapType = "text/xml; charset=utf-8"
        if username.isEmpty {
            let fault =
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Exception of type 'Microsoft.SharePoint.SoapServer.SoapServerException' was thrown.</faultstring><detail><errorstring xmlns=\"http://schemas.microsoft.com/sharepoint/soap/\">Value cannot be null.\r\nParameter name: username</errorstring></detail></soap:Fault></soap:Body></soap:Envelope>"
            return HTTPServerResponse(status: 500, contentType: soapType, text: fault)
        }
        var code = "NoError"
        var cookies: [(name: String, value: String)] = []
        if options.mode != .fba && options.mode != .fbaWindows {
            code = "NotInFormsAuthenticationMode"
        } else if let user = checkPassword(login: username, password: password) {
            cookies = sessionCookies(user: user)
        } else {
            code = "PasswordNotMatch"
        }
        let cookieName = code == "NoError" ? "<CookieName>FedAuth</CookieName>" : ""
        let text =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><LoginResponse xmlns=\"http://schemas.microsoft.com/sharepoint/soap/\"><LoginResult>\(cookieName)<ErrorCode>\(code)</ErrorCode><TimeoutSeconds>\(sessionLifetime)</TimeoutSeconds></LoginResult></LoginResponse></soap:Body></soap:Envelope>"
        return HTTPServerResponse(status: 200, contentType: soapType, text: text, headers: cookies)
    }
}
