public import Transport

/// Forms sign-in through a site's SOAP authentication service (`/_vti_bin/authentication.asmx`, `Login`): a new
/// FedAuth in `client`'s jar, as AuthFlow's renewals would leave it, done here with Transport alone. True when the
/// service answered `NoError`.
public func formsSignIn(client: HTTPClient, siteURL: String, user: String = "alice", password: String = alicePassword)
    async throws -> Bool
{
    let envelope =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
        + "<soap:Body><Login xmlns=\"http://schemas.microsoft.com/sharepoint/soap/\"><username>\(user)</username>"
        + "<password>\(password)</password></Login></soap:Body></soap:Envelope>"
    let response = try await client.execute(
        HTTPRequest(
            method: "POST", url: siteURL + "/_vti_bin/authentication.asmx",
            headers: [
                "Content-Type": "text/xml; charset=utf-8",
                "SOAPAction": "\"http://schemas.microsoft.com/sharepoint/soap/Login\"",
            ], body: .bytes(Array(envelope.utf8))))
    return response.status == 200 && response.text.contains("<ErrorCode>NoError</ErrorCode>")
}
