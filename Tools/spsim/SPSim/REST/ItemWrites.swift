import Foundation
import HTTPServer

/// Writing list items: one item's routes (read, MERGE/PUT/DELETE with etags, its file), the values a body
/// sets, and item creation.
extension SimulatorCore {
    func routeItem(_ list: SPList, id: Int, _ rest: [Segment], method: String, context: RESTContext) throws
        -> HTTPServerResponse
    {
        guard let item = state.withLock({ _ in list.item(id) }) else { throw RESTError.itemNotFound }
        if let next = rest.first, next.lower == "file", list.isLibrary {
            guard let file = state.withLock({ state in state.files.first { $0.listId == list.id && $0.itemId == id } })
            else { throw RESTError.notFound("File Not Found.") }
            return try routeFile(file, Array(rest.dropFirst()), method: method, context: context)
        }
        if let next = rest.first, Self.securableProperties.contains(next.lower) {
            return try itemSecurableEndpoint(list, id: id, rest, context: context)
        }
        if let next = rest.first, next.lower == "versions" {
            return itemVersionsCollection(item, list, context)
        }
        if let next = rest.first, next.lower == "attachmentfiles" {
            return try routeAttachments(list, id: id, next, Array(rest.dropFirst()), context: context)
        }
        if let next = rest.first {
            guard next.lower == "fieldvaluesastext" || next.lower == "fieldvaluesashtml" else {
                throw RESTError.invalidQuery(
                    "The property '\(next.name)' does not exist on type '\(list.itemEntityTypeFullName)'.")
            }
            let text = fieldValuesAsText(item, list, context, html: next.lower == "fieldvaluesashtml")
            switch context.flavour {
            case .verbose: return jsonResponse(.object([("d", text)]), context)
            case .minimal, .atom:
                if case .object(let members) = text {
                    return jsonResponse(
                        .object(
                            [
                                (
                                    "odata.metadata",
                                    .string(context.site + "/_api/$metadata#SP.FieldStringValues/@Element")
                                )
                            ] + members), context)
                }
                return jsonResponse(text, context)
            case .nometadata: return jsonResponse(text, context)
            }
        }
        switch method {
        case "GET":
            let entityJSON = itemEntity(item, list, context, top: true)
            return jsonResponse(entityJSON, context, headers: [("ETag", "\"\(item.version)\"")])
        case "MERGE", "PUT", "PATCH", "DELETE":
            try requireDigest(context)
            let ifMatch = context.request.header("IF-MATCH") ?? "*"
            if ifMatch != "*" && ifMatch.trimmingCharacters(in: .whitespaces) != "\"\(item.version)\"" {
                throw RESTError(
                    status: 412, code: "-1, Microsoft.SharePoint.Client.ClientServiceException",
                    message:
                        "The request ETag value '\(ifMatch)' does not match the object's ETag value '\"\(item.version)\"'."
                )
            }
            if method == "DELETE" {
                state.withLock { state in
                    state.logItemChange(.deleteObject, in: list, itemId: id, guid: item.guid)
                    list.stored[id] = nil
                    list.deleted.insert(id)
                    list.lastModified = nowEpoch()
                }
                return HTTPServerResponse(status: 200, headers: standardHeaders())
            }
            let values = try parseItemValues(list, context.request.body)
            let updated = state.withLock { state -> ListItem in
                var changed = item
                var earlier = item
                earlier.history = []
                changed.history.append(earlier)
                if method == "PUT" {
                    for field in list.fields where !field.readOnly { changed.values[field.internalName] = nil }
                }
                for (key, value) in values { changed.values[key] = value }
                changed.version += 1
                changed.modified = nowEpoch()
                changed.editorId = spUserId(context.user ?? 0)
                list.stored[id] = changed
                list.lastModified = changed.modified
                state.logItemChange(.update, in: list, itemId: id)
                return changed
            }
            return HTTPServerResponse(status: 204, headers: [("ETag", "\"\(updated.version)\"")] + standardHeaders())
        default:
            throw RESTError(
                status: 405, code: "-1, System.InvalidOperationException",
                message: "The HTTP method '\(method)' is not allowed.")
        }
    }

    /// JSON body → stored values (by field type); unknown properties are rejected like SharePoint does.
    func parseItemValues(_ list: SPList, _ body: [UInt8]) throws -> [String: FieldValue] {
        guard let object = parseJSONObject(body) else {
            throw RESTError.invalidQuery("The request body is not valid JSON.")
        }
        var values: [String: FieldValue] = [:]
        for (key, raw) in object {
            if key == "__metadata" {
                if let metadata = raw as? [String: Any], let type = metadata["type"] as? String,
                    type != list.itemEntityTypeFullName
                {
                    throw RESTError.invalidQuery(
                        "A type named '\(type)' could not be resolved by the model. When a model is available, each type name must resolve to a valid type."
                    )
                }
                continue
            }
            let fieldName = key.hasSuffix("Id") ? String(key.dropLast(2)) : key
            guard
                let field = list.fields.first(where: {
                    $0.jsonName == key || ($0.internalName == key && $0.typeAsString != "User")
                }) ?? list.fields.first(where: { $0.internalName == fieldName && $0.jsonName == key }),
                !field.readOnly
            else {
                throw RESTError.invalidQuery(
                    "The property '\(key)' does not exist on type '\(list.itemEntityTypeFullName)'. Make sure to only use property names that are defined by the type."
                )
            }
            if raw is NSNull {
                values[field.internalName] = .null
                continue
            }
            switch field.typeAsString {
            case "Number", "Integer":
                if let number = raw as? Double {
                    values[field.internalName] = .number(number)
                } else if let text = raw as? String, let number = Double(text) {
                    values[field.internalName] = .number(number)
                } else {
                    throw RESTError.invalidQuery("Cannot convert a primitive value to the expected type 'Edm.Double'.")
                }
            case "DateTime":
                guard let text = raw as? String, let epoch = CivilTime.parse(text) else {
                    throw RESTError.invalidQuery(
                        "Cannot convert a primitive value to the expected type 'Edm.DateTime'.")
                }
                values[field.internalName] = .date(epoch)
            case "Boolean":
                guard let flag = raw as? Bool else {
                    throw RESTError.invalidQuery("Cannot convert a primitive value to the expected type 'Edm.Boolean'.")
                }
                values[field.internalName] = .bool(flag)
            case "User", "Lookup":
                guard let id = raw as? Int else {
                    throw RESTError.invalidQuery("Cannot convert a primitive value to the expected type 'Edm.Int32'.")
                }
                values[field.internalName] = .lookup(id)
            default:
                values[field.internalName] = .text(raw as? String ?? "\(raw)")
            }
        }
        return values
    }

    func addItem(_ list: SPList, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        let values = try parseItemValues(list, context.request.body)
        let now = nowEpoch()
        let author = spUserId(context.user ?? 0)
        let item = state.withLock { state -> ListItem in
            let id = list.nextId
            list.nextId += 1
            let item = ListItem(
                id: id, values: values, version: 1, created: now, modified: now, authorId: author, editorId: author,
                guid: Tokens.guid())
            list.stored[id] = item
            list.lastModified = now
            state.logItemChange(.add, in: list, itemId: id)
            return item
        }
        return jsonResponse(
            itemEntity(item, list, context, top: true), context, status: 201, headers: [("ETag", "\"1\"")])
    }
}
