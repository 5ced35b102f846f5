import Foundation
import HTTPServer

/// The site's gate: sign-in redirects (`authenticate.aspx`, `/_forms/default.aspx` in its three roles), safe
/// `Source` and `ReturnUrl` values, and the headers SharePoint sends to a request that is not signed in.
extension SimulatorCore {

    // MARK: Helpers

    /// A safe local Source path (open redirects are refused, as SharePoint does).
    func sourcePath(_ raw: String?) -> String {
        guard let raw, !raw.isEmpty else { return "/" }
        var text = raw
        let base = siteURL
        if text.lowercased().hasPrefix(base.lowercased()) { text = String(text.dropFirst(base.count)) }
        guard text.hasPrefix("/"), !text.hasPrefix("//") else { return "/" }
        return text
    }

    /// `/_layouts/15/Authenticate.aspx?Source=<enc>`
    func authenticateReturnURL(source: String) -> String {
        "/_layouts/15/Authenticate.aspx?Source=" + percentEncode(source)
    }

    /// `ReturnUrl` as SharePoint writes it (lower-case escapes), e.g. `%2f_layouts%2f15%2fAuthenticate.aspx%3fSource%3d%252F`.
    func encodedReturnURL(source: String) -> String {
        percentEncode(authenticateReturnURL(source: source)).lowercasedEscapes()
    }

    /// The `ReturnUrl` query value, made safe, falling back to authenticate.aspx for `/`.
    func returnURL(_ request: HTTPServerRequest) -> String {
        sourcePath(request.queryValue("ReturnUrl") ?? authenticateReturnURL(source: "/"))
    }

    // MARK: authenticate.aspx

    func authenticatePage(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let source = sourcePath(request.queryValue("Source"))
        if options.faults.redirectLoop {
            return redirect("/_forms/default.aspx?ReturnUrl=\(encodedReturnURL(source: source))&Source=cookie")
        }
        if options.mode == .anonymous || authenticatedUser(request) != nil {
            return redirect(source)
        }
        let returnURL = encodedReturnURL(source: source)
        switch options.mode {
        case .entra, .legacySPO:
            return redirect("/_forms/default.aspx?ReturnUrl=\(returnURL)&Source=cookie")
        case .adfs:
            return redirect("/_trust/default.aspx?trust=SPSim%20ADFS&ReturnUrl=\(returnURL)")
        case .fba:
            return redirect("/_forms/default.aspx?ReturnUrl=\(returnURL)&Source=\(percentEncode(source))")
        case .fbaWindows:
            return redirect("/_login/default.aspx?ReturnUrl=\(returnURL)&Source=\(percentEncode(source))")
        case .basic:
            return basicChallenge()
        case .anonymous:
            return redirect(source)
        }
    }

    // MARK: /_forms/default.aspx (three roles)

    func formsEndpoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        if request.queryValue("wa") == "wsignin1.0" {
            return legacyTokenPost(request)
        }
        if options.faults.redirectLoop {
            let source = sourcePath(returnURL(request).components(separatedBy: "Source=").last?.removingPercentEncoding)
            return redirect(authenticateReturnURL(source: source))
        }
        switch options.mode {
        case .entra, .legacySPO:
            return request.method == "POST" ? oidcFormPost(request) : oidcStart(request)
        case .fba, .fbaWindows:
            return fbaPage(request)
        default:
            return html(404, page(title: "Not found", body: "<h1>404 NOT FOUND</h1>"))
        }
    }

    // MARK: Pages and files by URL

    /// The request path as sent (still percent-encoded): SharePoint encodes it again for `Source=`.
    func rawPath(_ request: HTTPServerRequest) -> String {
        String(request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// 403 with the headers SharePoint sends to cookie clients without a (valid) FedAuth.
    func unauthenticatedHeaders(path: String) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            (
                "X-Forms_Based_Auth_Required",
                "\(siteURL)/_forms/default.aspx?ReturnUrl=/_layouts/15/error.aspx&Source=\(percentEncode(path).lowercasedEscapes())"
            ),
            ("X-Forms_Based_Auth_Return_Url", "\(siteURL)/_layouts/15/error.aspx"),
            (
                "X-MSDAVEXT_Error",
                "917656; Access+denied.+Before+opening+files+in+this+location%2c+you+must+first+browse+to+the+web+site+and+select+the+option+to+login+automatically."
            ),
        ]
        if isOnline {
            headers.append(
                (
                    "X-IDCRL_AUTH_PARAMS_V1",
                    "IDCRL Type=\"BPOSIDCRL\", EndPoint=\"/_vti_bin/idcrl.svc/\", RootDomain=\"sharepoint.com\", Policy=\"MBI\""
                ))
        }
        return headers
    }

    /// Mixed-mode web apps challenge instead of redirecting when told `X-FORMS_BASED_AUTH_ACCEPTED: f` (§5.5).
    func wantsWindowsChallenge(_ request: HTTPServerRequest) -> Bool {
        options.mode == .fbaWindows && request.header("X-FORMS_BASED_AUTH_ACCEPTED")?.lowercased() == "f"
    }
}
