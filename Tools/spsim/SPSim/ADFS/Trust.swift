import Foundation
import HTTPServer

/// SharePoint Server's `/_trust/` (WS-Federation with ADFS as trusted identity provider): the redirect to
/// ADFS and the token post that sets FedAuth.
extension SimulatorCore {
    func trustEndpoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard options.mode == .adfs else { return html(404, page(title: "Not found", body: "<h1>404 NOT FOUND</h1>")) }
        if request.method == "POST" {
            let wresult = request.formValue("wresult") ?? ""
            let wctx = request.formValue("wctx") ?? ""
            var assertionId = ""
            if let range = wresult.range(of: "AssertionID=\"") {
                assertionId = String(wresult[range.upperBound...].prefix { $0 != "\"" })
            }
            guard request.formValue("wa") == "wsignin1.0",
                let user = state.withLock({ state -> Int? in
                    defer { state.assertions[assertionId] = nil }
                    return state.assertions[assertionId]
                })
            else {
                return html(
                    500,
                    page(
                        title: "Error",
                        body:
                            "<h1>Sorry, something went wrong</h1><p id=\"ms-error-body\">The trusted login provider did not supply a token accepted by this farm.</p>"
                    ))
            }
            return redirect(sourcePath(wctx), headers: sessionCookies(user: user))
        }
        let wctx = siteURL + returnURL(request)
        let location =
            identityProviderURL + "/adfs/ls/?wa=wsignin1.0&wtrealm=\(percentEncode(realm))&wctx=\(percentEncode(wctx))"
        return redirect(location)
    }
}
