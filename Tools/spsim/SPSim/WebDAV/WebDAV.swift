import Foundation
import HTTPServer

/// What a WebDAV URL names: a folder (the web's root, a library's root folder, or a folder in a library) or a file.
enum DAVResource {
    case folder(String)
    case file(SPFile)
}

/// WebDAV on the site's document libraries, as SharePoint answers a WebDAV client (Windows' WebClient, rclone,
/// davfs2): OPTIONS here, PROPFIND (`Multistatus.swift`), PUT, MKCOL, DELETE, LOCK and UNLOCK (`WebDAVWrites.swift`),
/// MOVE and COPY (`WebDAVMoveCopy.swift`), on the same files and folders the REST API serves, so a file written one
/// way is read the other. GET and HEAD stay the files by URL (`Site/Pages.swift`). A request without a valid
/// session gets SharePoint's lost-session answer (`LostSession.swift`).
extension SimulatorCore {
    /// The methods only WebDAV clients send to a library URL.
    static let webDAVMethods: Set<String> = [
        "OPTIONS", "PROPFIND", "PUT", "MKCOL", "DELETE", "MOVE", "COPY", "LOCK", "UNLOCK",
    ]

    /// Whether `request` is a WebDAV request the site's WebDAV answers.
    func isWebDAVRequest(_ request: HTTPServerRequest) -> Bool {
        Self.webDAVMethods.contains(request.method.uppercased())
    }

    /// The answer to a WebDAV request on any path of the site.
    func webDAV(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let method = request.method.uppercased()
        // OPTIONS is how a client finds out the site speaks WebDAV, before it signs in.
        if method == "OPTIONS" { return davOptions() }
        guard isAllowed(request) else { return webDAVLostSession(request) }
        let user = spUserId(authenticatedUser(request) ?? 0)
        // A site collection's request passed this (the root's) gate; its own core answers it.
        return (siteCollection(containing: request.path) ?? self).davAnswer(request, method: method, user: user)
    }

    /// The answer to a signed-in WebDAV request on this core's site collection.
    private func davAnswer(_ request: HTTPServerRequest, method: String, user: Int) -> HTTPServerResponse {
        let path = davPath(request.path)
        switch method {
        case "PROPFIND": return propfind(path, depth: request.header("Depth"))
        case "PUT": return davPut(path, body: request.body, user: user)
        case "MKCOL": return davMakeFolder(path, hasBody: !request.body.isEmpty)
        case "DELETE": return davDelete(path)
        case "MOVE", "COPY": return davMoveOrCopy(path, request, moving: method == "MOVE", user: user)
        case "LOCK": return davLock(path)
        default: return HTTPServerResponse(status: 204, headers: standardHeaders())
        }
    }

    /// The site collection (`/sites/NAME`) whose URLs `path` (decoded) lies under; nil for the root site's.
    func siteCollection(containing path: String) -> SimulatorCore? {
        let lower = path.lowercased()
        guard lower.hasPrefix("/sites/") else { return nil }
        return lower.dropFirst("/sites/".count).split(separator: "/").first.flatMap { siteCollections[String($0)] }
    }

    /// `OPTIONS`: the DAV classes and `MS-Author-Via` SharePoint announces.
    func davOptions() -> HTTPServerResponse {
        HTTPServerResponse(
            status: 200,
            headers: [
                ("DAV", "1,2"), ("MS-Author-Via", "DAV"),
                ("Allow", "GET, HEAD, OPTIONS, PROPFIND, PUT, MKCOL, DELETE, MOVE, COPY, LOCK, UNLOCK"),
            ] + standardHeaders())
    }

    /// A decoded request path without its trailing `/` (the web's root stays `/`).
    func davPath(_ path: String) -> String {
        var text = path.isEmpty ? "/" : path
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// What is at the decoded, normalized `path`: a file, a library's folder, the web's root folder; nil for nothing
    /// (a plain list's folders are no WebDAV folders here).
    func davResource(_ path: String) -> DAVResource? {
        if path.lowercased() == webRootFolder.lowercased() { return .folder(webRootFolder) }
        if let file = fileByURL(path) { return .file(file) }
        let wanted = path.lowercased()
        if let list = state.withLock({ state in
            state.lists.first { $0.isLibrary && !$0.hidden && $0.url.lowercased() == wanted }
        }) {
            return .folder(list.url)
        }
        if let folder = subfolder(path), listOwning(folder: folder)?.isLibrary == true { return .folder(folder) }
        return nil
    }

    /// Whether `url` is a folder made in a library (one that may be deleted, moved or copied).
    func isMadeFolder(_ url: String) -> Bool {
        state.withLock { state in state.createdFolders.contains { $0.url.lowercased() == url.lowercased() } }
    }

    /// The absolute URL of the server-relative `path` as SharePoint writes it in `href` and `Location`.
    func davHref(_ path: String, isFolder: Bool) -> String {
        let origin = String(siteURL.dropLast(webRoot.count))
        let encoded = percentEncodePath(path)
        return origin + (isFolder && !encoded.hasSuffix("/") ? encoded + "/" : encoded)
    }

    /// A short plain-text answer.
    func davText(_ status: Int, _ message: String) -> HTTPServerResponse {
        HTTPServerResponse(
            status: status, contentType: "text/plain; charset=utf-8", text: message + "\n", headers: standardHeaders())
    }
}
