import Foundation
import HTTPServer

/// HTML answers of the site: pages, redirects, the home page, and files and pages by URL.
extension SimulatorCore {
    func html(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPServerResponse {
        HTTPServerResponse(
            status: status, contentType: "text/html; charset=utf-8", text: text,
            headers: [("Cache-Control", "private, no-store")] + headers)
    }

    func redirect(_ location: String, headers: [(name: String, value: String)] = []) -> HTTPServerResponse {
        let body =
            "<html><head><title>Object moved</title></head><body><h2>Object moved to <a href=\"\(htmlEscape(location))\">here</a>.</h2></body></html>"
        return HTTPServerResponse(
            status: 302, contentType: "text/html; charset=utf-8", text: body,
            headers: [("Location", location), ("Cache-Control", "private, no-store")] + headers)
    }

    func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html dir="ltr" lang="en-US">
        <head><meta http-equiv="Content-Type" content="text/html; charset=utf-8" /><meta name="GENERATOR" content="Microsoft SharePoint" /><title>\(htmlEscape(title))</title></head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    func contentPage(_ request: HTTPServerRequest) -> HTTPServerResponse {
        if !isAllowed(request), wantsWindowsChallenge(request) { return windowsChallenge() }
        if !isAllowed(request) {
            let accept = request.header("Accept") ?? ""
            if request.method == "GET", accept.contains("text/html") {
                return redirect(authenticateReturnURL(source: request.path))
            }
            return HTTPServerResponse(
                status: 403, contentType: "text/plain; charset=utf-8", text: "403 FORBIDDEN",
                headers: unauthenticatedHeaders(path: rawPath(request)) + standardHeaders())
        }
        let path = request.path
        if path == "/" || path.lowercased() == "/sitepages/home.aspx" {
            return html(200, homePage(user: authenticatedUser(request)))
        }
        if let file = state.withLock({ state in
            state.files.first { $0.serverRelativeUrl.lowercased() == path.lowercased() }
        }) {
            return fileBody(file, headers: [("Content-Type", mimeType(file.name))])
        }
        return html(404, page(title: "Not found", body: "<h1>404 NOT FOUND</h1>"))
    }

    func homePage(user: Int?) -> String {
        let who =
            user.map { "<p id=\"welcome\">Signed in as \(htmlEscape(users[$0].displayName))</p>" } ?? "<p>Anonymous</p>"
        let lists = state.withLock { state in state.lists.filter { !$0.hidden } }
        let links = lists.map { "<li><a href=\"\(htmlEscape($0.url))\">\(htmlEscape($0.title))</a></li>" }.joined()
        return page(
            title: "SPSim Team - Home",
            body:
                "<h1>SPSim Team</h1>\(who)<ul>\(links)</ul><img src=\"/Photos/sunset.png\" width=\"32\" height=\"24\" alt=\"Sunset\" />"
        )
    }

    func mimeType(_ name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() ?? "" {
        case "png": return "image/png"
        case "svg": return "image/svg+xml"
        case "txt": return "text/plain"
        case "csv": return "text/csv"
        default: return "application/octet-stream"
        }
    }

    func notFound() -> HTTPServerResponse {
        html(404, "<html><body><h1>404 Not Found</h1></body></html>")
    }

    /// `/_layouts/15/error.aspx`, where the forms headers send a client that is not signed in.
    func sharePointErrorPage() -> HTTPServerResponse {
        html(200, page(title: "Error", body: "<h1>Sorry, something went wrong</h1><p>Access denied.</p>"))
    }
}
