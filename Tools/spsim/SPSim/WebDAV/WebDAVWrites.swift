import Foundation
import HTTPServer

/// WebDAV's writes on the libraries, into the same model the REST API serves (and its change log): `PUT` (a new
/// file 201, a replaced one 204 with a new version, 409 when its folder does not exist, 405 on a folder), `MKCOL`
/// (201, 405 when something is there, 409 without its parent folder, 415 with a body), `DELETE` (a file or a
/// folder made in a library, with what is below it: 204) and a minimal `LOCK` (a lock token, nothing enforced).
extension SimulatorCore {
    func davPut(_ path: String, body: [UInt8], user: Int) -> HTTPServerResponse {
        if case .folder = davResource(path) { return davText(405, "\(path) is a folder.") }
        let folder = Self.parent(of: path)
        let name = String(path.dropFirst(folder == "/" ? 1 : folder.count + 1))
        guard !name.isEmpty, let list = library(holding: folder) else {
            return davText(409, "The folder \(folder) does not exist in a document library.")
        }
        if let existing = fileByURL(path) {
            let updated = replaceContent(existing, with: body)
            return HTTPServerResponse(status: 204, headers: [("ETag", updated.etag)] + standardHeaders())
        }
        let now = nowEpoch()
        let made: SPFile? = state.withLock { state in
            addUploadedFile(body, named: name, in: folder, of: list, author: user, now: now, &state)
        }
        guard let made else { return davText(500, "The file \(path) could not be made.") }
        return HTTPServerResponse(
            status: 201,
            headers: [("ETag", made.etag), ("Location", davHref(path, isFolder: false))] + standardHeaders())
    }

    func davMakeFolder(_ path: String, hasBody: Bool) -> HTTPServerResponse {
        if hasBody { return davText(415, "MKCOL takes no body.") }
        if davResource(path) != nil { return davText(405, "\(path) already exists.") }
        let parent = Self.parent(of: path)
        guard let list = library(holding: parent) else {
            return davText(409, "The folder \(parent) does not exist in a document library.")
        }
        let now = nowEpoch()
        state.withLock { state in
            state.createdFolders.append((path, now))
            list.lastModified = now
            state.logFolderChange(.add, url: path, listId: list.id)
        }
        return HTTPServerResponse(status: 201, headers: standardHeaders())
    }

    func davDelete(_ path: String) -> HTTPServerResponse {
        switch davResource(path) {
        case nil:
            return davText(404, "404 NOT FOUND: \(path)")
        case .file(let file):
            davRemove(file)
        case .folder(let url):
            guard isMadeFolder(url) else { return davText(403, "\(url) cannot be deleted over WebDAV.") }
            removeFolder(url)
        }
        return HTTPServerResponse(status: 204, headers: standardHeaders())
    }

    /// `file` and its item gone, logged as deleted.
    func davRemove(_ file: SPFile) {
        state.withLock { $0.logFileChange(.deleteObject, file) }
        removeFile(file)
    }

    /// `LOCK`: an exclusive write lock's token for an existing resource (locks are not enforced).
    func davLock(_ path: String) -> HTTPServerResponse {
        guard davResource(path) != nil else { return davText(404, "404 NOT FOUND: \(path)") }
        let token = "opaquelocktoken:" + Tokens.guid()
        let body =
            "<?xml version=\"1.0\" encoding=\"utf-8\" ?><D:prop xmlns:D=\"DAV:\"><D:lockdiscovery><D:activelock>"
            + "<D:locktype><D:write/></D:locktype><D:lockscope><D:exclusive/></D:lockscope><D:depth>0</D:depth>"
            + "<D:timeout>Second-3600</D:timeout><D:locktoken><D:href>\(token)</D:href></D:locktoken>"
            + "</D:activelock></D:lockdiscovery></D:prop>"
        return HTTPServerResponse(
            status: 200, contentType: "text/xml; charset=\"utf-8\"", text: body,
            headers: [("Lock-Token", "<\(token)>")] + standardHeaders())
    }
}
