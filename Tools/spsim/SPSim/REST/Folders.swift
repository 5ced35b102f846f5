import Foundation
import HTTPServer

/// Folders: the folder entity, `GetFolderByServerRelativeUrl('…')` and what lies below a folder (`/Files`, `/Folders`),
/// and folders of one's own inside lists and libraries: `…/Folders/add(url='Name')` (and
/// `AddUsingPath(decodedurl=…)`) on a list's root folder or any folder below it.
extension SimulatorCore {
    /// The list whose root folder holds `folder` (its built-in sub-folder, or a folder made below it).
    func listOwning(folder: String) -> SPList? {
        let wanted = folder.lowercased()
        return state.withLock { state in
            state.lists.first { list in
                let root = list.url.lowercased()
                return list.subfolderURL.lowercased() == wanted || wanted.hasPrefix(root + "/")
            }
        }
    }

    /// `DELETE …/GetFolderByServerRelativePath(decodedurl='…')`: removes a folder below a list's root folder with
    /// everything below it (its files' items too), as SharePoint does (there: to the recycle bin).
    func deleteFolder(_ folder: String, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        removeFolder(folder)
        return HTTPServerResponse(status: 200, headers: standardHeaders())
    }

    /// Removes the folder at `folder` with everything below it, each file and made folder logged as deleted.
    func removeFolder(_ folder: String) {
        let root = folder.lowercased()
        let below = { (url: String) in url.lowercased() == root || url.lowercased().hasPrefix(root + "/") }
        let owner = listOwning(folder: folder)
        state.withLock { state in
            for file in state.files where below(file.folder) { state.logFileChange(.deleteObject, file) }
            for made in state.createdFolders where below(made.url) {
                state.logFolderChange(.deleteObject, url: made.url, listId: owner?.id ?? "")
            }
            state.createdFolders.removeAll { below($0.url) }
            for file in state.files where below(file.folder) {
                if let list = state.lists.first(where: { $0.id == file.listId }) {
                    list.stored[file.itemId] = nil
                    list.deleted.insert(file.itemId)
                }
            }
            state.files.removeAll { below($0.folder) }
        }
    }

    /// `…/Folders/add(url='Name')`: makes the folder `Name` in `parent` (a list's root folder or a folder below it)
    /// and answers it as `SP.Folder`; an existing folder of that name is answered as it is (as SharePoint does).
    func addFolder(in parent: String, _ segment: Segment, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        let name: String
        if segment.lower == "addusingpath" {
            name = segment.parameter("decodedurl") ?? ""
        } else {
            name = try decodedURLLiteral(segment.parameter("url") ?? segment.stringArgument ?? "")
        }
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw RESTError.argument("The folder name is not valid.")
        }
        guard
            let list = listOwning(folder: parent)
                ?? state.withLock({ state in
                    state.lists.first { $0.url.lowercased() == parent.lowercased() }
                })
        else {
            throw RESTError.argument("Folders cannot be added to the root folder of this simulated web.")
        }
        let url = parent + "/" + name
        if let existing = subfolder(url) { return jsonResponse(folderEntity(existing, context, top: true), context) }
        if fileByURL(url) != nil {
            throw RESTError(
                status: 400, code: "-2130575257, Microsoft.SharePoint.SPException",
                message: "A file with the name \(url) already exists.")
        }
        let now = nowEpoch()
        state.withLock { state in
            state.createdFolders.append((url, now))
            list.lastModified = now
            state.logFolderChange(.add, url: url, listId: list.id)
        }
        return jsonResponse(folderEntity(url, context, top: true), context)
    }

    /// The server-relative folder that holds `url` (`/` for a top-level one).
    static func parent(of url: String) -> String {
        guard let slash = url.lastIndex(of: "/"), slash != url.startIndex else { return "/" }
        return String(url[..<slash])
    }

    func folderEntity(_ url: String, _ context: RESTContext, top: Bool) -> JSON {
        let (count, list) = state.withLock { state in
            (
                state.files.filter { $0.folder.lowercased() == url.lowercased() }.count,
                state.lists.first { $0.url.lowercased() == url.lowercased() }
            )
        }
        let name = String(url.split(separator: "/").last ?? "")
        return entity(
            type: "SP.Folder",
            path: "Web/GetFolderByServerRelativePath(decodedurl='\(percentEncodePath(odataQuote(url)))')",
            set: "SP.Folder",
            props: [
                ("Exists", .bool(true)), ("IsWOPIEnabled", .bool(false)), ("ItemCount", .int(count)),
                ("Name", .string(name)), ("ProgID", .null), ("ServerRelativeUrl", .string(url)),
                ("TimeCreated", .string(CivilTime(list?.created ?? SiteContent.baseEpoch).iso)),
                ("TimeLastModified", .string(CivilTime(list?.lastModified ?? SiteContent.baseEpoch).iso)),
                ("UniqueId", .string(stableGUID(options.seed, "folder" + url.lowercased()))),
                ("WelcomePage", .string("")),
            ], deferred: ["Files", "Folders", "ListItemAllFields", "ParentFolder"], context: context, top: top)
    }

    /// The folder at the server-relative `url` (decoded and normalized).
    func routeFolder(_ url: String, _ rest: [Segment], method: String, context: RESTContext) throws
        -> HTTPServerResponse
    {
        guard let list = state.withLock({ state in state.lists.first { $0.url.lowercased() == url.lowercased() } })
        else {
            // The web's root folder, or a folder below a list's root folder.
            guard let folder = url == webRootFolder ? url : subfolder(url) else {
                throw RESTError.notFound("File Not Found.")
            }
            if rest.isEmpty && method == "DELETE" && folder != webRootFolder {
                return try deleteFolder(folder, context)
            }
            switch rest.first?.lower {
            case "folders":
                if let sub = rest.dropFirst().first, sub.lower == "add" || sub.lower == "addusingpath" {
                    return try addFolder(in: folder, sub, context)
                }
                return foldersCollection(folder, context)
            case "files":
                if let sub = rest.dropFirst().first, sub.lower == "add" || sub.lower == "addusingpath" {
                    guard let list = listOwning(folder: folder) else {
                        throw RESTError.argument("Files cannot be added to the root folder of this simulated web.")
                    }
                    return try addFile(list, folder: folder, sub, context)
                }
                return filesCollection(folder, context)
            case "listitemallfields" where rest.count > 1 && folder != webRootFolder:
                guard let list = listOwning(folder: folder) else { throw RESTError.notFound("File Not Found.") }
                return try itemSecurableEndpoint(list, id: 0, Array(rest.dropFirst()), context: context)
            case "moveto" where method == "POST" && folder != webRootFolder,
                "copyto" where method == "POST" && folder != webRootFolder:
                return try moveOrCopyFolder(folder, rest[0], context)
            case "recycle" where method == "POST" && folder != webRootFolder:
                return try recycleFolder(folder, context)
            case let property?:
                guard folder == webRootFolder else {
                    throw RESTError.invalidQuery("The property '\(property)' does not exist on type 'SP.Folder'.")
                }
                return jsonResponse(folderEntity(folder, context, top: true), context)
            case nil: return jsonResponse(folderEntity(folder, context, top: true), context)
            }
        }
        guard let next = rest.first else { return jsonResponse(folderEntity(list.url, context, top: true), context) }
        switch next.lower {
        case "files":
            if let sub = rest.dropFirst().first, sub.lower == "add" || sub.lower == "addusingpath" {
                return try addFile(list, folder: list.url, sub, context)
            }
            return filesCollection(list.url, context)
        case "folders":
            if let sub = rest.dropFirst().first, sub.lower == "add" || sub.lower == "addusingpath" {
                return try addFolder(in: list.url, sub, context)
            }
            return foldersCollection(list.url, context)
        case "listitemallfields":
            return jsonResponse(
                entity(
                    type: "SP.ListItem", path: listPath(list) + "/RootFolder/ListItemAllFields", set: "SP.ListItem",
                    props: [], deferred: [], context: context, top: true),
                context)
        default:
            throw RESTError.invalidQuery("The property '\(next.name)' does not exist on type 'SP.Folder'.")
        }
    }

    /// The folders directly inside the folder at `url`: the libraries' root folders for the web's root (`/`), the
    /// list's own sub-folder (`Forms` or `Attachments`) for a list's root folder, none below that.
    func subfolders(of url: String) -> [String] {
        state.withLock { state in
            if url == webRootFolder { return state.lists.filter { $0.isLibrary && !$0.hidden }.map(\.url) }
            let builtIn = state.lists.filter { $0.url.lowercased() == url.lowercased() }.map(\.subfolderURL)
            return builtIn
                + state.createdFolders.map(\.url).filter { Self.parent(of: $0).lowercased() == url.lowercased() }
        }
    }

    /// The folder below a list's root folder at `url` (any case), as the site spells it; nil when there is none.
    func subfolder(_ url: String) -> String? {
        state.withLock { state in
            (state.lists.map(\.subfolderURL) + state.createdFolders.map(\.url)).first {
                $0.lowercased() == url.lowercased()
            }
        }
    }

    /// `…/Folders` of the folder at `url` (`$select` applied to each entry).
    func foldersCollection(_ url: String, _ context: RESTContext) -> HTTPServerResponse {
        let entries = subfolders(of: url).map { applySelect(folderEntity($0, context, top: false), context.query) }
        return jsonResponse(collection(entries, set: "SP.ApiData.Folders", next: nil, context: context), context)
    }

    /// `…/Files` of the folder at `url` (`$filter` on Name, Length, ServerRelativeUrl; `$select`).
    func filesCollection(_ url: String, _ context: RESTContext) -> HTTPServerResponse {
        let files = state.withLock { state in state.files.filter { $0.folder.lowercased() == url.lowercased() } }
        var entries: [JSON] = []
        for file in files {
            if let filter = context.query.filter,
                !evaluate(
                    filter,
                    lookup: { name in
                        switch name.lowercased() {
                        case "name": return .text(file.name)
                        case "length": return .number(Double(file.content.length))
                        case "serverrelativeurl": return .text(file.serverRelativeUrl)
                        default: return .null
                        }
                    })
            {
                continue
            }
            entries.append(applySelect(fileEntity(file, context, top: false), context.query))
        }
        return jsonResponse(collection(entries, set: "SP.ApiData.Files12", next: nil, context: context), context)
    }
}

/// The endpoints answered in this file (every `RESTRoute` declared so is routed; see `RESTRoutes.swift`).
extension RESTRoute {
    static let webRootFolder = RESTRoute("web/rootfolder/**") {
        try $0.routeFolder($0.webRootFolder, $1.rest, method: $1.method, context: $1.context)
    }
    static let webFolders = RESTRoute("web/folders/**") {
        try $0.routeFolder(
            $0.webRootFolder, [Segment(name: "Folders")] + $1.rest, method: $1.method, context: $1.context)
    }
}
