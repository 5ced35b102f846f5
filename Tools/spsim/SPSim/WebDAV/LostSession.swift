import HTTPServer

/// The answer SharePoint gives a WebDAV client whose request carries no valid session (no FedAuth, an expired one):
/// 403 with `X-MSDAVEXT_Error: 917656` ("Access denied. Before opening files in this location, you must first
/// browse to the web site and select the option to login automatically."), the forms headers beside it, as SharePoint
/// Online sends them. A client (or `spconnect gateway`) takes it as a session that ended, not as a missing right.
extension SimulatorCore {
    /// 403 with the lost-session headers, the same ones the site's other gates send (`unauthenticatedHeaders`).
    func webDAVLostSession(_ request: HTTPServerRequest) -> HTTPServerResponse {
        HTTPServerResponse(
            status: 403, contentType: "text/plain; charset=utf-8", text: "403 FORBIDDEN",
            headers: unauthenticatedHeaders(path: rawPath(request)) + standardHeaders())
    }
}
