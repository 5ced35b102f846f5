import Foundation
import HTTPServer

/// The recycle bin: a file's or folder's `recycle()` (POST) moves it there and answers the entry's id
/// (`{"value":"<guid>"}`, verbose `{"d":{"Recycle":"<guid>"}}`); `web/RecycleBin` lists the entries
/// (`SP.RecycleBinItem`).
extension SimulatorCore {
    /// Moves `file` to the recycle bin (its list item goes with it).
    func recycleFile(_ file: SPFile, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        let entry = SPRecycled(
            id: Tokens.guid(), title: file.name, dirName: String(file.folder.dropFirst()), itemType: 1,
            deleted: nowEpoch(), deletedById: spUserId(context.user ?? 0), size: file.content.length)
        state.withLock { state in
            state.logFileChange(.deleteObject, file)
            state.files.removeAll { $0.uniqueId == file.uniqueId }
            if let list = state.lists.first(where: { $0.id == file.listId }) {
                list.stored[file.itemId] = nil
                list.deleted.insert(file.itemId)
                list.lastModified = entry.deleted
            }
            state.recycleBin.append(entry)
        }
        return recycleAnswer(entry, context)
    }

    /// Moves the folder at `url` (one made below a list's root folder) and everything below it to the recycle bin.
    func recycleFolder(_ url: String, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        let prefix = url.lowercased() + "/"
        let builtIn = state.withLock { state in
            state.lists.contains { $0.subfolderURL.lowercased() == url.lowercased() }
        }
        guard !builtIn else {
            throw RESTError(
                status: 403, code: "-2147024891, System.UnauthorizedAccessException",
                message: "Access denied. You do not have permission to perform this action or access this resource.")
        }
        let entry = SPRecycled(
            id: Tokens.guid(), title: String(url.split(separator: "/").last ?? ""),
            dirName: String(Self.parent(of: url).dropFirst()), itemType: 5, deleted: nowEpoch(),
            deletedById: spUserId(context.user ?? 0), size: 0)
        state.withLock { state in
            let gone = state.files.filter {
                $0.folder.lowercased() == url.lowercased() || $0.folder.lowercased().hasPrefix(prefix)
            }
            let owner =
                gone.first?.listId ?? state.lists.first { url.lowercased().hasPrefix($0.url.lowercased() + "/") }?.id
            for file in gone { state.logFileChange(.deleteObject, file) }
            for made in state.createdFolders
            where made.url.lowercased() == url.lowercased() || made.url.lowercased().hasPrefix(prefix) {
                state.logFolderChange(.deleteObject, url: made.url, listId: owner ?? "")
            }
            for file in gone {
                if let list = state.lists.first(where: { $0.id == file.listId }) {
                    list.stored[file.itemId] = nil
                    list.deleted.insert(file.itemId)
                }
            }
            state.files.removeAll { file in gone.contains { $0.uniqueId == file.uniqueId } }
            state.createdFolders.removeAll {
                $0.url.lowercased() == url.lowercased() || $0.url.lowercased().hasPrefix(prefix)
            }
            state.recycleBin.append(entry)
        }
        return recycleAnswer(entry, context)
    }

    private func recycleAnswer(_ entry: SPRecycled, _ context: RESTContext) -> HTTPServerResponse {
        let value = JSON.string(entry.id)
        switch context.flavour {
        case .verbose: return jsonResponse(.object([("d", .object([("Recycle", value)]))]), context)
        case .minimal, .atom:
            return jsonResponse(
                .object([("odata.metadata", .string(context.site + "/_api/$metadata#Edm.Guid")), ("value", value)]),
                context)
        case .nometadata: return jsonResponse(.object([("value", value)]), context)
        }
    }

    /// `web/RecycleBin`: every entry, oldest first.
    func recycleBinEndpoint(_ match: RESTMatch) -> HTTPServerResponse {
        let context = match.context
        let entries = state.withLock { state in state.recycleBin }.map { entry -> JSON in
            applySelect(
                entity(
                    type: "SP.RecycleBinItem", path: "Web/RecycleBin('\(entry.id)')", set: "SP.RecycleBinItem",
                    props: [
                        ("DeletedDate", .string(CivilTime(entry.deleted).iso)), ("DirName", .string(entry.dirName)),
                        ("Id", .string(entry.id)), ("ItemState", .int(1)), ("ItemType", .int(entry.itemType)),
                        ("LeafName", .string(entry.title)), ("Size", .string(String(entry.size))),
                        ("Title", .string(entry.title)),
                    ], deferred: ["Author", "DeletedBy"], context: context, top: false), context.query)
        }
        return jsonResponse(collection(entries, set: "SP.RecycleBinItem", next: nil, context: context), context)
    }
}

/// The endpoints answered in this file (every `RESTRoute` declared so is routed; see `RESTRoutes.swift`).
extension RESTRoute {
    static let recycleBin = RESTRoute("web/recyclebin/**") { $0.recycleBinEndpoint($1) }
}
