import HTTPServer

/// Moving and copying within the site: a file's `…/MoveTo(newurl='…',flags=N)` (flags bit 1: overwrite) and
/// `…/CopyTo(strnewurl='…',boverwrite=…)`, a folder's `…/MoveTo(newurl='…')` and `…/CopyTo(strnewurl='…')` (with
/// everything below it), the new URL percent-decoded once more as every `…Url` literal. The folder it goes to must be
/// a library's root folder or a folder in one; a file already there is refused (400, SPException -2130575257) unless
/// a file is overwriting it, and a folder there always is. A move within a library keeps each file (its id, versions
/// and item) and changes its address; a move to another library, and every copy, makes new files there (a copy's
/// versions start again at 1.0). Each change is logged as SharePoint logs it (`Content/ChangeLog.swift`): within a
/// library a `Rename` of each file and folder at its new address; to another library `MoveAway` in the old one and
/// `MoveInto` in the new; a copy's files and folders are adds.
extension SimulatorCore {
    /// `MoveTo` or `CopyTo` of `file`.
    func moveOrCopy(_ file: SPFile, _ segment: Segment, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        let (moving, target) = try moveTarget(segment)
        let overwrite =
            moving
            ? (Int(segment.parameter("flags") ?? "0") ?? 0) & 1 == 1
            : (segment.parameter("boverwrite") ?? "false").lowercased() == "true"
        let (folder, name, list) = try destination(target)
        if target.lowercased() == file.serverRelativeUrl.lowercased() {
            throw RESTError.argument("The source and the destination are the same file.")
        }
        if isFolder(target) { throw exists(target) }
        if let existing = fileByURL(target) {
            guard overwrite else { throw exists(target) }
            removeFile(existing)
        }
        let now = nowEpoch()
        let user = spUserId(context.user ?? 0)
        state.withLock { state in
            place(file.uniqueId, folder: folder, name: name, in: list, moving: moving, user: user, now: now, &state)
        }
        return done(moving ? "MoveTo" : "CopyTo", context)
    }

    /// `MoveTo` or `CopyTo` of the folder at `url` (a folder made in a library), with its folders and files.
    func moveOrCopyFolder(_ url: String, _ segment: Segment, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        let (moving, target) = try moveTarget(segment)
        let (_, _, list) = try destination(target)
        let source = url.lowercased()
        guard state.withLock({ state in state.createdFolders.contains { $0.url.lowercased() == source } }) else {
            // A list's built-in folder (`Forms`, `Attachments`).
            throw RESTError(
                status: 403, code: "-2147024891, System.UnauthorizedAccessException",
                message: "Access denied. You do not have permission to perform this action or access this resource.")
        }
        if target.lowercased() == source || target.lowercased().hasPrefix(source + "/") {
            throw RESTError.argument("A folder cannot be moved or copied into itself.")
        }
        if isFolder(target) || fileByURL(target) != nil { throw exists(target) }
        relocateFolder(url, to: target, in: list, moving: moving, user: spUserId(context.user ?? 0))
        return done(moving ? "MoveTo" : "CopyTo", context)
    }

    /// The made folder at `url`, with its folders and files, moved (`moving`) or copied to `target` in `list`.
    func relocateFolder(_ url: String, to target: String, in list: SPList, moving: Bool, user: Int) {
        let source = url.lowercased()
        let now = nowEpoch()
        state.withLock { state in
            func isBelow(_ path: String) -> Bool {
                path.lowercased() == source || path.lowercased().hasPrefix(source + "/")
            }
            func renamed(_ path: String) -> String { target + path.dropFirst(url.count) }
            let folders = state.createdFolders.filter { isBelow($0.url) }
            if moving { state.createdFolders.removeAll { isBelow($0.url) } }
            state.createdFolders += folders.map { (renamed($0.url), moving ? $0.created : now) }
            let sourceList = state.lists.first { $0.isLibrary && source.hasPrefix($0.url.lowercased() + "/") }
            for folder in folders {
                if !moving {
                    state.logFolderChange(.add, url: renamed(folder.url), listId: list.id)
                } else if sourceList?.id == list.id {
                    state.logFolderChange(.rename, url: renamed(folder.url), listId: list.id)
                } else {
                    state.logFolderChange(.moveAway, url: folder.url, listId: sourceList?.id ?? "")
                    state.logFolderChange(.moveInto, url: renamed(folder.url), listId: list.id)
                }
            }
            for file in state.files where isBelow(file.folder) {
                place(
                    file.uniqueId, folder: renamed(file.folder), name: file.name, in: list, moving: moving, user: user,
                    now: now, &state)
            }
        }
    }

    /// Whether the segment is `MoveTo` (else `CopyTo`), and the server-relative URL it names.
    private func moveTarget(_ segment: Segment) throws -> (moving: Bool, target: String) {
        let moving = segment.lower == "moveto"
        guard let literal = segment.parameter(moving ? "newurl" : "strnewurl"), !literal.isEmpty else {
            throw RESTError.argument("Value does not fall within the expected range.")
        }
        return (moving, try serverRelativePath(literal, percentEncoded: true))
    }

    /// The folder, name and library of `target`; 404 when its folder is no library's root folder or a folder in one.
    private func destination(_ target: String) throws -> (folder: String, name: String, list: SPList) {
        let folder = Self.parent(of: target)
        let name = String(target.dropFirst(folder == "/" ? 1 : folder.count + 1))
        guard !name.isEmpty, let list = library(holding: folder) else {
            throw RESTError(
                status: 404, code: "-2147024894, System.IO.FileNotFoundException", message: "File Not Found.")
        }
        return (folder, name, list)
    }

    /// Whether a folder (a list's root folder, its built-in folder, or one made) is at `url`.
    func isFolder(_ url: String) -> Bool {
        subfolder(url) != nil
            || state.withLock { state in state.lists.contains { $0.url.lowercased() == url.lowercased() } }
    }

    /// The file with id `id` moved (`moving`) or copied to `folder`/`name` in `list`. Called under the lock.
    func place(
        _ id: String, folder: String, name: String, in list: SPList, moving: Bool, user: Int, now: Int,
        _ state: inout SimulatorState
    ) {
        guard let index = state.files.firstIndex(where: { $0.uniqueId == id }) else { return }
        let file = state.files[index]
        list.lastModified = now
        if moving, file.listId == list.id {
            state.files[index].folder = folder
            state.files[index].name = name
            list.stored[file.itemId]?.values["FileLeafRef"] = .text(name)
            list.stored[file.itemId]?.values["FileRef"] = .text(state.files[index].serverRelativeUrl)
            state.logFileChange(.rename, state.files[index])
            return
        }
        var made: [SPFile] = []
        SiteContent.addFile(
            to: list, folder: folder, name: name, content: file.content, seed: options.seed ^ UInt64(now),
            author: user, files: &made)
        guard var copy = made.first else { return }
        copy.uniqueId = moving ? file.uniqueId : Tokens.guid()
        copy.created = moving ? file.created : now
        copy.modified = moving ? file.modified : now
        copy.title = file.title
        if moving {
            state.logFileChange(.moveAway, file)
            state.files.remove(at: index)
            if let source = state.lists.first(where: { $0.id == file.listId }) {
                source.stored[file.itemId] = nil
                source.deleted.insert(file.itemId)
            }
        }
        state.files.append(copy)
        state.logFileChange(moving ? .moveInto : .add, copy)
    }

    /// The library whose root folder is `folder` or holds it (a folder made in it); nil for anything else.
    func library(holding folder: String) -> SPList? {
        let wanted = folder.lowercased()
        let root = state.withLock { state in state.lists.first { $0.isLibrary && $0.url.lowercased() == wanted } }
        if let root { return root }
        guard subfolder(folder) != nil, let list = listOwning(folder: folder), list.isLibrary,
            list.subfolderURL.lowercased() != wanted
        else { return nil }
        return list
    }

    /// A file and its list item gone (replaced by a move or copy with overwrite).
    func removeFile(_ file: SPFile) {
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

    /// A move's or copy's answer: no value.
    private func done(_ function: String, _ context: RESTContext) -> HTTPServerResponse {
        switch context.flavour {
        case .verbose: return jsonResponse(.object([("d", .object([(function, .null)]))]), context)
        default: return jsonResponse(.object([("odata.null", .bool(true))]), context)
        }
    }
}
