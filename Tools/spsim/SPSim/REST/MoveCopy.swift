import HTTPServer

/// Moving and copying a file within the site: `…/MoveTo(newurl='…',flags=N)` (flags bit 1: overwrite) and
/// `…/CopyTo(strnewurl='…',boverwrite=…)`, the new URL percent-decoded once more as every `…Url` literal. The folder
/// it goes to must be a library's root folder or a folder in one; a file already there is refused (400,
/// SPException -2130575257) unless overwriting, and a folder there always is. A move within a library keeps the
/// file (its id, versions and item) and changes its address; a move to another library, and every copy, makes a new
/// file there (a copy's versions start again at 1.0).
extension SimulatorCore {
    /// `MoveTo` or `CopyTo` of `file`.
    func moveOrCopy(_ file: SPFile, _ segment: Segment, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        let moving = segment.lower == "moveto"
        guard let literal = segment.parameter(moving ? "newurl" : "strnewurl"), !literal.isEmpty else {
            throw RESTError.argument("Value does not fall within the expected range.")
        }
        let target = try serverRelativePath(literal, percentEncoded: true)
        let overwrite =
            moving
            ? (Int(segment.parameter("flags") ?? "0") ?? 0) & 1 == 1
            : (segment.parameter("boverwrite") ?? "false").lowercased() == "true"
        let folder = Self.parent(of: target)
        let name = String(target.dropFirst(folder == "/" ? 1 : folder.count + 1))
        guard !name.isEmpty, let list = library(holding: folder) else {
            throw RESTError(
                status: 404, code: "-2147024894, System.IO.FileNotFoundException", message: "File Not Found.")
        }
        if target.lowercased() == file.serverRelativeUrl.lowercased() {
            throw RESTError.argument("The source and the destination are the same file.")
        }
        if subfolder(target) != nil
            || state.withLock({ state in state.lists.contains { $0.url.lowercased() == target.lowercased() } })
        {
            throw exists(target)
        }
        if let existing = fileByURL(target) {
            guard overwrite else { throw exists(target) }
            removeFile(existing)
        }
        let now = nowEpoch()
        state.withLock { state in
            guard let index = state.files.firstIndex(where: { $0.uniqueId == file.uniqueId }) else { return }
            if moving, file.listId == list.id {
                state.files[index].folder = folder
                state.files[index].name = name
                let url = state.files[index].serverRelativeUrl
                list.stored[file.itemId]?.values["FileLeafRef"] = .text(name)
                list.stored[file.itemId]?.values["FileRef"] = .text(url)
                list.lastModified = now
                return
            }
            var made: [SPFile] = []
            SiteContent.addFile(
                to: list, folder: folder, name: name, content: state.files[index].content,
                seed: options.seed ^ UInt64(now), author: spUserId(context.user ?? 0), files: &made)
            guard var copy = made.first else { return }
            copy.uniqueId = moving ? file.uniqueId : Tokens.guid()
            copy.created = moving ? file.created : now
            copy.modified = moving ? file.modified : now
            copy.title = file.title
            list.lastModified = now
            if moving {
                state.files.remove(at: index)
                if let source = state.lists.first(where: { $0.id == file.listId }) {
                    source.stored[file.itemId] = nil
                    source.deleted.insert(file.itemId)
                }
            }
            state.files.append(copy)
        }
        let function = moving ? "MoveTo" : "CopyTo"
        switch context.flavour {
        case .verbose: return jsonResponse(.object([("d", .object([(function, .null)]))]), context)
        default: return jsonResponse(.object([("odata.null", .bool(true))]), context)
        }
    }

    /// The library whose root folder is `folder` or holds it (a folder made in it); nil for anything else.
    private func library(holding folder: String) -> SPList? {
        let wanted = folder.lowercased()
        let root = state.withLock { state in state.lists.first { $0.isLibrary && $0.url.lowercased() == wanted } }
        if let root { return root }
        guard subfolder(folder) != nil, let list = listOwning(folder: folder), list.isLibrary,
            list.subfolderURL.lowercased() != wanted
        else { return nil }
        return list
    }

    /// A file and its list item gone (replaced by a move or copy with overwrite).
    private func removeFile(_ file: SPFile) {
        state.withLock { state in
            state.files.removeAll { $0.uniqueId == file.uniqueId }
            if let list = state.lists.first(where: { $0.id == file.listId }) {
                list.stored[file.itemId] = nil
                list.deleted.insert(file.itemId)
            }
        }
    }

    /// SharePoint's answer when something is already at `target`.
    private func exists(_ target: String) -> RESTError {
        RESTError(
            status: 400, code: "-2130575257, Microsoft.SharePoint.SPException",
            message: "A file or folder with the name \(target) already exists.")
    }
}
