import Foundation
import HTTPServer

/// SharePoint's side of the Entra sign-in: the redirect to the authorize endpoint and the `form_post` that
/// redeems the code for FedAuth and rtFa.
extension SimulatorCore {
    /// Step 3 of the browser flow: redirect to the authorize endpoint.
    func oidcStart(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let returnURL = returnURL(request)
        var source = "/"
        if let range = returnURL.range(of: "Source=") {
            source = sourcePath(String(returnURL[range.upperBound...]).removingPercentEncoding)
        }
        if authenticatedUser(request) != nil { return redirect(source) }
        let stateToken = "OpenIdConnect.AuthenticationProperties=" + Tokens.random(bytes: 60)
        state.withLock { $0.oidcStates[stateToken] = source }
        let redirectURI = siteURL + "/_forms/default.aspx"
        let location =
            identityProviderURL + "/\(tenantId)/oauth2/authorize?client_id=00000003-0000-0ff1-ce00-000000000000"
            + "&resource=00000003-0000-0ff1-ce00-000000000000&response_mode=form_post&response_type=code+id_token"
            + "&scope=openid&nonce=\(Tokens.random(bytes: 32))&redirect_uri=\(percentEncode(redirectURI))"
            + "&state=\(percentEncode(stateToken))&wsucxt=1&client-request-id=\(Tokens.guid())"
        return redirect(location, headers: [cookie("RpsContextCookie", percentEncode(returnURL))])
    }

    /// Step 8: the form_post lands here; the code is redeemed once and FedAuth + rtFa are set.
    func oidcFormPost(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let code = request.formValue("code") ?? ""
        let idToken = request.formValue("id_token") ?? ""
        let stateValue = request.formValue("state") ?? ""
        let outcome = state.withLock { state -> (user: Int, source: String)? in
            guard let issued = state.codes[code], issued.idToken == idToken, let source = state.oidcStates[stateValue]
            else { return nil }
            state.codes[code] = nil
            state.oidcStates[stateValue] = nil
            return (issued.user, source)
        }
        guard let outcome else {
            return html(
                400,
                page(
                    title: "Error",
                    body:
                        "<h1>Sorry, something went wrong</h1><p id=\"ms-error-body\">The sign-in response was not valid or has already been used.</p>"
                ))
        }
        return redirect(outcome.source, headers: sessionCookies(user: outcome.user))
    }
}
