import Foundation
import HTTPServer

/// WebDAV's `MOVE` and `COPY` of a file or of a folder made in a library (with what is below it), to the URL of
/// the `Destination` header (absolute on this site, or a path), with the REST API's moves and copies
/// (`REST/MoveCopy.swift`): 201 when nothing was there, 204 when `Overwrite: T` (the default) replaced it, 412 when
/// `Overwrite: F` found something there, 409 when the target's folder does not exist, 502 for another server.
extension SimulatorCore {
    func davMoveOrCopy(_ path: String, _ request: HTTPServerRequest, moving: Bool, user: Int) -> HTTPServerResponse {
        guard let destination = request.header("Destination"), !destination.isEmpty else {
            return davText(400, "\(request.method) needs a Destination header.")
        }
        guard let target = davDestinationPath(destination) else {
            return davText(502, "The destination \(destination) is not on this site.")
        }
        let overwrite = (request.header("Overwrite") ?? "T").trimmingCharacters(in: .whitespaces).uppercased() != "F"
        guard let source = davResource(path) else { return davText(404, "404 NOT FOUND: \(path)") }
        if target.lowercased() == path.lowercased() {
            return davText(403, "The source and the destination are the same.")
        }
        let folder = Self.parent(of: target)
        let name = String(target.dropFirst(folder == "/" ? 1 : folder.count + 1))
        guard !name.isEmpty, let list = library(holding: folder) else {
            return davText(409, "The folder \(folder) does not exist in a document library.")
        }
        if case .folder(let url) = source {
            guard isMadeFolder(url) else { return davText(403, "\(url) cannot be moved or copied over WebDAV.") }
            if target.lowercased().hasPrefix(url.lowercased() + "/") {
                return davText(403, "A folder cannot be moved or copied into itself.")
            }
        }
        let existing = davResource(target)
        if existing != nil, !overwrite { return davText(412, "\(target) exists and Overwrite is F.") }
        switch existing {
        case .file(let file)?: davRemove(file)
        case .folder(let url)?:
            guard isMadeFolder(url) else { return davText(403, "\(url) cannot be replaced over WebDAV.") }
            removeFolder(url)
        case nil: break
        }
        switch source {
        case .file(let file):
            let now = nowEpoch()
            state.withLock { state in
                place(file.uniqueId, folder: folder, name: name, in: list, moving: moving, user: user, now: now, &state)
            }
        case .folder(let url):
            relocateFolder(url, to: target, in: list, moving: moving, user: user)
        }
        var isFolder = false
        if case .folder = source { isFolder = true }
        return HTTPServerResponse(
            status: existing == nil ? 201 : 204,
            headers: [("Location", davHref(target, isFolder: isFolder))] + standardHeaders())
    }

    /// The decoded, normalized server-relative path a `Destination` names: an absolute URL on this site's origin,
    /// or a path; nil for another server.
    func davDestinationPath(_ destination: String) -> String? {
        var text = destination.trimmingCharacters(in: .whitespaces)
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            let origin = String(siteURL.dropLast(webRoot.count)).lowercased()
            guard lower == origin || lower.hasPrefix(origin + "/") else { return nil }
            text = String(text.dropFirst(origin.count))
        }
        if let query = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<query]) }
        guard text.hasPrefix("/") else { return nil }
        return davPath(FormURLEncoding.percentDecode(text, plusIsSpace: false))
    }
}
