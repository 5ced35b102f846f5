import Foundation
import HTTPServer

/// One resource of a PROPFIND answer and the properties SharePoint gives it.
struct DAVEntry {
    var href: String
    var name: String
    var isFolder: Bool
    var length: Int
    var modified: Int
    var created: Int
    var etag: String
    var contentType: String
}

/// `PROPFIND` with `Depth: 0` (the resource) or `1` (the folder and what is directly in it): 207 with a
/// `D:multistatus` of `D:response`s, each with its absolute, percent-encoded `D:href`, `D:displayname`,
/// `D:getcontentlength` and `D:getcontenttype` (files), `D:getlastmodified` (RFC 1123), `D:creationdate`
/// (ISO 8601), `D:getetag` and `D:resourcetype` (`D:collection` for folders). `Depth: infinity` (or none, which
/// means infinity) is refused with 403, as SharePoint does.
extension SimulatorCore {
    func propfind(_ path: String, depth: String?) -> HTTPServerResponse {
        let depth = depth?.trimmingCharacters(in: .whitespaces).lowercased() ?? "infinity"
        guard depth == "0" || depth == "1" else {
            return davText(403, "PROPFIND with Depth: \(depth) is not allowed here; ask for Depth 0 or 1.")
        }
        guard let resource = davResource(path) else { return davText(404, "404 NOT FOUND: \(path)") }
        var entries = [davEntry(resource)]
        if depth == "1", case .folder(let url) = resource {
            let files = state.withLock { state in state.files.filter { $0.folder.lowercased() == url.lowercased() } }
            entries += subfolders(of: url).map { davEntry(.folder($0)) } + files.map { davEntry(.file($0)) }
        }
        return HTTPServerResponse(
            status: 207, contentType: "text/xml; charset=\"utf-8\"", text: Self.multistatus(entries),
            headers: standardHeaders())
    }

    /// The properties of `resource`.
    func davEntry(_ resource: DAVResource) -> DAVEntry {
        switch resource {
        case .file(let file):
            return DAVEntry(
                href: davHref(file.serverRelativeUrl, isFolder: false), name: file.name, isFolder: false,
                length: file.content.length, modified: file.modified, created: file.created, etag: file.etag,
                contentType: mimeType(file.name))
        case .folder(let url):
            let lower = url.lowercased()
            let (list, made) = state.withLock { state in
                (
                    state.lists.first { $0.url.lowercased() == lower },
                    state.createdFolders.first { $0.url.lowercased() == lower }?.created
                )
            }
            let created = list?.created ?? made ?? SiteContent.baseEpoch
            let name = url == webRootFolder ? webTitle : String(url.split(separator: "/").last ?? "")
            return DAVEntry(
                href: davHref(url, isFolder: true), name: name, isFolder: true, length: 0,
                modified: list?.lastModified ?? created, created: created,
                etag: "\"{\(stableGUID(options.seed, "folder" + lower).uppercased())},1\"", contentType: "")
        }
    }

    /// The `D:multistatus` document of `entries`.
    static func multistatus(_ entries: [DAVEntry]) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\" ?><D:multistatus xmlns:D=\"DAV:\">"
        for entry in entries {
            xml += "<D:response><D:href>\(xmlEscape(entry.href))</D:href><D:propstat><D:prop>"
            xml += "<D:displayname>\(xmlEscape(entry.name))</D:displayname>"
            if entry.isFolder {
                xml += "<D:resourcetype><D:collection/></D:resourcetype>"
            } else {
                xml += "<D:resourcetype/><D:getcontentlength>\(entry.length)</D:getcontentlength>"
                xml += "<D:getcontenttype>\(xmlEscape(entry.contentType))</D:getcontenttype>"
            }
            xml += "<D:getlastmodified>\(CivilTime(entry.modified).http)</D:getlastmodified>"
            xml += "<D:creationdate>\(CivilTime(entry.created).iso)</D:creationdate>"
            xml += "<D:getetag>\(xmlEscape(entry.etag))</D:getetag>"
            xml += "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
        }
        return xml + "</D:multistatus>"
    }
}
