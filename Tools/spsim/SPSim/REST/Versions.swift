import Foundation
import HTTPServer

/// Versions: a file's earlier versions (`…/Versions`, `SP.FileVersion`: only the ones before the current, oldest
/// first) and an item's versions (`…/items(ID)/Versions`, `SP.ListItemVersion`: newest first, the current one
/// included, each with the field values it had then and `Editor` as a lookup value), as SharePoint answers them.
extension SimulatorCore {
    /// Keeps the current content of `state.files[index]` as an earlier version (before it is replaced).
    static func keepVersion(of index: Int, in state: inout SimulatorState) {
        let file = state.files[index]
        let editor =
            state.lists.first { $0.id == file.listId }.flatMap { $0.stored[file.itemId]?.editorId } ?? 10
        state.files[index].history.append(
            SPFileVersion(major: file.majorVersion, created: file.modified, content: file.content, editorId: editor))
    }

    /// `…/GetFileByServerRelativeUrl('…')/Versions` (`$expand=CreatedBy` gives each its user).
    func fileVersionsCollection(_ file: SPFile, _ context: RESTContext) -> HTTPServerResponse {
        let entries = file.history.map { version -> JSON in
            let id = 512 * version.major
            let url = "_vti_history/\(id)" + percentEncodePath(file.serverRelativeUrl)
            var expanded: [(String, JSON)] = []
            if context.query.expands("CreatedBy"), users.indices.contains(version.editorId - 10) {
                expanded.append(("CreatedBy", userEntity(version.editorId - 10, context, top: false)))
            }
            let entry = entity(
                type: "SP.FileVersion", path: filePath(file) + "/Versions(\(id))", set: "SP.ApiData.FileVersions",
                props: [
                    ("CheckInComment", .string("")), ("Created", .string(CivilTime(version.created).iso)),
                    ("ID", .int(id)), ("IsCurrentVersion", .bool(false)),
                    ("Length", .string(String(version.content.length))), ("Size", .int(version.content.length)),
                    ("Url", .string(url)), ("VersionLabel", .string("\(version.major).0")),
                ], deferred: ["CreatedBy"], context: context, top: false, expanded: expanded)
            return applySelect(entry, context.query)
        }
        return jsonResponse(collection(entries, set: "SP.ApiData.FileVersions", next: nil, context: context), context)
    }

    /// `…/items(ID)/Versions`: the current item first, then its earlier versions, newest first.
    func itemVersionsCollection(_ item: ListItem, _ list: SPList, _ context: RESTContext) -> HTTPServerResponse {
        let versions = [item] + item.history.reversed()
        let entries = versions.enumerated().map { index, version -> JSON in
            let id = 512 * version.version
            var props: [(String, JSON)] = []
            for field in list.fields
            where !["ID", "ContentType", "Author", "Editor", "Modified", "Created"].contains(
                field.internalName)
            {
                guard let value = version.values[field.internalName] else { continue }
                props.append((field.internalName, jsonValue(value, field: field)))
            }
            props += [
                ("Created", .string(CivilTime(version.modified).iso)), ("IsCurrentVersion", .bool(index == 0)),
                ("VersionId", .int(id)), ("VersionLabel", .string("\(version.version).0")),
                ("Modified", .string(CivilTime(version.modified).iso)), ("Editor", lookupValue(version.editorId)),
                ("Author", lookupValue(version.authorId)),
            ]
            let entry = entity(
                type: "SP.ListItemVersion", path: itemPath(list, item.id) + "/Versions(\(id))",
                set: "SP.ApiData.ListItemVersions", props: props, deferred: ["CreatedBy", "Fields"],
                context: context, top: false)
            return applySelect(entry, context.query)
        }
        return jsonResponse(
            collection(entries, set: "SP.ApiData.ListItemVersions", next: nil, context: context), context)
    }

    /// A person as item versions carry it: `{"LookupId":12,"LookupValue":"Alice","Email":"alice@…"}`.
    func lookupValue(_ spId: Int) -> JSON {
        guard users.indices.contains(spId - 10) else { return .null }
        let user = users[spId - 10]
        return .object([
            ("LookupId", .int(spId)), ("LookupValue", .string(user.displayName)), ("Email", .string(user.email)),
        ])
    }
}
