import Foundation
import HTTPServer

/// Files: server-relative paths (decoding, the site collection's bounds), the file entity, `…/$value` reads
/// and replacements, and a file's bytes streamed in 64 KiB chunks.
extension SimulatorCore {
    /// The file at the server-relative `url` (already decoded and normalized), any case.
    func fileByURL(_ url: String) -> SPFile? {
        let wanted = url.lowercased()
        return state.withLock { state in state.files.first { $0.serverRelativeUrl.lowercased() == wanted } }
    }

    /// Wildcard managed paths: below the root site collection, `/sites/x`, `/teams/x` and `/personal/x` are other
    /// site collections.
    static let managedPaths: Set<String> = ["sites", "teams", "personal"]

    /// The server-relative path named by the literal of a `('…')` argument, after the HTTP layer decoded the request
    /// path once. The `…Url` forms (`GetFileByServerRelativeUrl('…')`, `Files/add(url='…')`) are percent-decoded
    /// once more (§6.3: clients send `%` as `%25` and `#` as `%23` inside the literal, then percent-encode the URL);
    /// the `…Path(decodedurl='…')` forms are the path as is. A path outside the site collection → 400.
    func serverRelativePath(_ literal: String, percentEncoded: Bool) throws -> String {
        let path = normalizedServerRelative(percentEncoded ? try decodedURLLiteral(literal) : literal)
        guard isInSiteCollection(path) else {
            throw RESTError.argument("Server relative urls must start with SPWeb.ServerRelativeUrl")
        }
        return path
    }

    /// A `…Url` literal decoded the once more SharePoint decodes it (§6.3); one that does not decode → 400.
    func decodedURLLiteral(_ literal: String) throws -> String {
        guard let decoded = literal.removingPercentEncoding else {
            throw RESTError.argument("Value does not fall within the expected range.")
        }
        return decoded
    }

    /// Whether the normalized server-relative `path` lies in this site collection: it starts with the site's
    /// server-relative URL and is not below a wildcard managed path (another site collection), nor another host.
    func isInSiteCollection(_ path: String) -> Bool {
        let site = webRootFolder
        let lower = path.lowercased()
        guard lower == site.lowercased() || lower.hasPrefix(webRoot.lowercased() + "/") else { return false }
        let rest = path.dropFirst(webRoot.count).split(separator: "/", omittingEmptySubsequences: true)
        if let first = rest.first, first.contains(":") { return false }  // `https://other.example/…`
        if webRoot.isEmpty, rest.count >= 2, let first = rest.first, Self.managedPaths.contains(first.lowercased()) {
            return false
        }
        return true
    }

    /// Accepts `/Shared Documents/a.txt`, `Shared Documents/a.txt` and absolute URLs on this site (no decoding).
    func normalizedServerRelative(_ url: String) -> String {
        var text = url
        // An absolute URL on this host keeps its path; a relative one is below the web.
        let origin = String(siteURL.dropLast(webRoot.count))
        if text.lowercased().hasPrefix(origin.lowercased() + "/") { text = String(text.dropFirst(origin.count)) }
        if !text.hasPrefix("/") { text = webRoot + "/" + text }
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }

    func filePath(_ file: SPFile) -> String {
        "Web/GetFileByServerRelativePath(decodedurl='\(odataQuote(file.serverRelativeUrl))')"
    }

    func fileEntity(_ file: SPFile, _ context: RESTContext, top: Bool) -> JSON {
        let link = context.site + percentEncodePath(file.serverRelativeUrl)
        let editPath =
            "Web/GetFileByServerRelativePath(decodedurl='\(percentEncodePath(odataQuote(file.serverRelativeUrl)))')"
        return entity(
            type: "SP.File", path: editPath, set: "SP.ApiData.Files12",
            props: [
                ("CheckInComment", .string(file.checkInComment)),
                ("CheckOutType", .int(file.checkedOutBy == nil ? 2 : 0)),
                ("ContentTag", .string(file.contentTag)),
                ("CustomizedPageStatus", .int(0)), ("ETag", .string(file.etag)), ("Exists", .bool(true)),
                ("IrmEnabled", .bool(false)), ("Length", .string(String(file.content.length))), ("Level", .int(1)),
                ("LinkingUri", .string(link + "?d=w" + file.uniqueId.replacingOccurrences(of: "-", with: ""))),
                (
                    "LinkingUrl",
                    .string(
                        context.site + file.serverRelativeUrl + "?d=w"
                            + file.uniqueId.replacingOccurrences(of: "-", with: ""))
                ),
                ("MajorVersion", .int(file.majorVersion)), ("MinorVersion", .int(0)), ("Name", .string(file.name)),
                ("ServerRelativeUrl", .string(file.serverRelativeUrl)),
                ("TimeCreated", .string(CivilTime(file.created).iso)),
                ("TimeLastModified", .string(CivilTime(file.modified).iso)), ("Title", .string(file.title)),
                ("UIVersion", .int(512 * file.majorVersion)), ("UIVersionLabel", .string("\(file.majorVersion).0")),
                ("UniqueId", .string(file.uniqueId)),
            ], deferred: ["Author", "ListItemAllFields", "ModifiedBy", "Versions"], context: context, top: top,
            expanded: top ? expandedPeople(of: file, context) : [], idOverride: context.site + "/_api/" + filePath(file)
        )
    }

    /// The list item of a library file.
    func fileItem(_ file: SPFile) -> ListItem? {
        state.withLock { state in state.lists.first { $0.id == file.listId }?.item(file.itemId) }
    }

    /// `$expand=Author,ModifiedBy` of a file: who created it and who changed it last, as `SP.User`.
    private func expandedPeople(of file: SPFile, _ context: RESTContext) -> [(String, JSON)] {
        guard let item = fileItem(file) else { return [] }
        return [("Author", item.authorId), ("ModifiedBy", item.editorId)].compactMap { name, spId in
            guard context.query.expands(name), users.indices.contains(spId - 10) else { return nil }
            return (name, userEntity(spId - 10, context, top: false))
        }
    }

    func routeFile(_ file: SPFile, _ rest: [Segment], method: String, context: RESTContext) throws -> HTTPServerResponse
    {
        guard let next = rest.first else {
            if method == "DELETE" {
                try requireDigest(context)
                state.withLock { state in
                    state.logFileChange(.deleteObject, file)
                    state.files.removeAll { $0.uniqueId == file.uniqueId }
                    if let list = state.lists.first(where: { $0.id == file.listId }) {
                        list.stored[file.itemId] = nil
                        list.deleted.insert(file.itemId)
                    }
                }
                return HTTPServerResponse(status: 200, headers: standardHeaders())
            }
            return jsonResponse(fileEntity(file, context, top: true), context)
        }
        switch next.lower {
        case "$value", "openbinarystream":
            if method == "PUT" || (context.request.method == "POST" && method != "GET") {
                try requireDigest(context)
                let updated = replaceContent(file, with: context.request.body)
                return HTTPServerResponse(status: 204, headers: [("ETag", updated.etag)] + standardHeaders())
            }
            return fileBody(file, headers: [("Content-Type", "application/octet-stream")] + standardHeaders())
        case "versions":
            return fileVersionsCollection(file, context)
        case "checkout" where method == "POST", "checkin" where method == "POST":
            return try checkOutOrIn(file, next, context)
        case "recycle" where method == "POST":
            return try recycleFile(file, context)
        case "moveto" where method == "POST", "copyto" where method == "POST":
            return try moveOrCopy(file, next, context)
        case "author", "modifiedby":
            let editor = next.lower == "author" ? fileItem(file)?.authorId : fileItem(file)?.editorId
            guard let editor, users.indices.contains(editor - 10) else { throw RESTError.notFound("User not found.") }
            return jsonResponse(userEntity(editor - 10, context, top: true), context)
        case "listitemallfields":
            guard let list = state.withLock({ state in state.lists.first { $0.id == file.listId } }) else {
                throw RESTError.notFound("File Not Found.")
            }
            return try routeItem(list, id: file.itemId, Array(rest.dropFirst()), method: method, context: context)
        case "startupload", "continueupload", "finishupload", "cancelupload":
            return try chunkedUpload(file, next, context)
        default:
            throw RESTError.invalidQuery("The property '\(next.name)' does not exist on type 'SP.File'.")
        }
    }

    @discardableResult
    func replaceContent(_ file: SPFile, with bytes: [UInt8]) -> SPFile {
        let now = nowEpoch()
        return state.withLock { state in
            guard let index = state.files.firstIndex(where: { $0.uniqueId == file.uniqueId }) else { return file }
            Self.keepVersion(of: index, in: &state)
            state.files[index].content = .bytes(
                OfficeDocuments.stored(bytes, named: state.files[index].name, uniqueId: file.uniqueId))
            state.files[index].majorVersion += 1
            state.files[index].modified = now
            state.logFileChange(.update, state.files[index])
            return state.files[index]
        }
    }

    /// A file's bytes, streamed in 64 KiB chunks.
    func fileBody(_ file: SPFile, headers: [(name: String, value: String)]) -> HTTPServerResponse {
        let content = file.content
        let length = content.length
        let offset = Counter()
        let allHeaders = headers + [("ETag", file.etag), ("Last-Modified", CivilTime(file.modified).http)]
        if length <= 65536 {
            return HTTPServerResponse(status: 200, headers: allHeaders, body: .bytes(content.slice(0, length)))
        }
        return HTTPServerResponse(
            status: 200, headers: allHeaders,
            body: .stream(length: length) {
                let start = offset.next() * 65536
                if start >= length { return .end }
                return .data(content.slice(start, 65536))
            })
    }
}
