import Foundation
import HTTPServer

/// SharePoint's side of the legacy SharePoint Online sign-in: the `wsignin1.0` token POST and
/// `/_vti_bin/idcrl.svc/`, or their refusal (SharePoint Online since May 2026).
extension SimulatorCore {
    /// Legacy SPO: `POST /_forms/default.aspx?wa=wsignin1.0` with `t=…&p=`.
    func legacyTokenPost(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard options.mode == .legacySPO, !options.legacyRefused else {
            return legacyRefusedPage()
        }
        let body = String(decoding: request.body, as: UTF8.self)
        var token = ""
        if let range = body.range(of: "t=") {
            token = String(body[range.upperBound...])
            if let end = token.range(of: "&p=") { token = String(token[..<end.lowerBound]) }
        }
        token = token.removingPercentEncoding ?? token
        guard let user = state.withLock({ $0.legacyTokens[token] }) else {
            return html(
                403,
                page(
                    title: "Error",
                    body: "<h1>Sorry, something went wrong</h1><p>The token presented could not be validated.</p>"))
        }
        return redirect("/", headers: sessionCookies(user: user))
    }

    /// SharePoint Online since May 2026: the IDCRL route is refused with an error page and no FedAuth.
    func legacyRefusedPage() -> HTTPServerResponse {
        html(
            403,
            page(
                title: "Error",
                body:
                    "<h1>Sorry, something went wrong</h1><p id=\"ms-error-body\">Legacy authentication (IDCRL) is no longer supported for SharePoint Online. Sign in with a browser or use an app registration in Microsoft Entra ID.</p><p>Correlation ID: \(Tokens.guid())</p>"
            ), headers: [("X-MSDAVEXT_Error", "917656; Access+denied.")])
    }

    /// `/_vti_bin/idcrl.svc/` with `Authorization: BPOSIDCRL t=…` → SPOIDCRL cookie.
    func idcrlEndpoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard options.mode == .legacySPO, !options.legacyRefused else {
            return HTTPServerResponse(
                status: 401, contentType: "text/plain; charset=utf-8", text: "401 UNAUTHORIZED",
                headers: [
                    (
                        "X-MSDAVEXT_Error",
                        "917656; Access+denied.+Before+opening+files+in+this+location%2c+you+must+first+browse+to+the+web+site+and+select+the+option+to+login+automatically."
                    )
                ])
        }
        let header = request.header("Authorization") ?? ""
        guard header.hasPrefix("BPOSIDCRL ") else {
            return HTTPServerResponse(status: 401, contentType: "text/plain; charset=utf-8", text: "401 UNAUTHORIZED")
        }
        var token = String(header.dropFirst("BPOSIDCRL ".count))
        if token.hasPrefix("t=") { token = String(token.dropFirst(2)) }
        if let end = token.range(of: "&p=") { token = String(token[..<end.lowerBound]) }
        guard let user = state.withLock({ $0.legacyTokens[token] }) else {
            return HTTPServerResponse(status: 401, contentType: "text/plain; charset=utf-8", text: "401 UNAUTHORIZED")
        }
        let session = newSession(user: user)
        return HTTPServerResponse(
            status: 200, contentType: "text/plain; charset=utf-8", text: "",
            headers: [cookie("SPOIDCRL", session.value)])
    }
}
