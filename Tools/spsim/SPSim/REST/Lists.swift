import Foundation
import HTTPServer

/// Lists: lookups by title, id and URL, the list entity, `web/lists` (with `$filter`), creation, deletion,
/// and what lies below one list.
extension SimulatorCore {
    func list(byTitle title: String, context: RESTContext) throws -> SPList {
        guard let found = state.withLock({ state in state.lists.first { $0.title.lowercased() == title.lowercased() } })
        else {
            throw RESTError(
                status: 404, code: "-1, System.ArgumentException",
                message: "List '\(title)' does not exist at site with URL '\(context.site)'.")
        }
        return found
    }

    func list(byId id: String) throws -> SPList {
        guard let found = state.withLock({ state in state.lists.first { $0.id == id } }) else {
            throw RESTError(
                status: 404, code: "-1, System.ArgumentException",
                message:
                    "List does not exist.\n\nThe page you selected contains a list that does not exist.  It may have been deleted by another user."
            )
        }
        return found
    }

    func listPath(_ list: SPList) -> String { "Web/Lists(guid'\(list.id)')" }

    func listEntity(_ list: SPList, _ context: RESTContext, top: Bool) -> JSON {
        let (count, lastModified, fields) = state.withLock { _ in (list.itemCount, list.lastModified, list.fields) }
        var expanded: [(String, JSON)] = []
        if top, context.query.expands("Fields") {
            let entries = fields.map { fieldEntity($0, list, context, top: false) }
            expanded.append(
                ("Fields", context.flavour == .verbose ? .object([("results", .array(entries))]) : .array(entries)))
        }
        let props: [(String, JSON)] = [
            ("AllowContentTypes", .bool(true)), ("BaseTemplate", .int(list.baseTemplate)),
            ("BaseType", .int(list.baseType)), ("ContentTypesEnabled", .bool(false)),
            ("Created", .string(CivilTime(list.created).iso)),
            (
                "CurrentChangeToken",
                complex(
                    "SP.ChangeToken", [("StringValue", .string(currentChangeToken(scope: 3, id: list.id)))], context)
            ),
            ("Description", .string(list.description)), ("Direction", .string("none")),
            ("DocumentTemplateUrl", list.isLibrary ? .string(list.url + "/Forms/template.dotx") : .null),
            ("EnableAttachments", .bool(!list.isLibrary)), ("EnableFolderCreation", .bool(list.isLibrary)),
            ("EnableVersioning", .bool(list.isLibrary)), ("EntityTypeName", .string(list.entityTypeName)),
            ("Hidden", .bool(list.hidden)), ("Id", .string(list.id)),
            (
                "ImageUrl",
                .string(list.isLibrary ? "/_layouts/15/images/itdl.png?rev=47" : "/_layouts/15/images/itgen.png?rev=47")
            ),
            ("ItemCount", .int(count)), ("LastItemDeletedDate", .string(CivilTime(list.created).iso)),
            ("LastItemModifiedDate", .string(CivilTime(lastModified).iso)),
            ("ListItemEntityTypeFullName", .string(list.itemEntityTypeFullName)),
            ("ParentWebUrl", .string(webRootFolder)), ("Title", .string(list.title)),
        ]
        return entity(
            type: "SP.List", path: listPath(list), set: "SP.ApiData.Lists", props: props,
            deferred: ["ContentTypes", "Fields", "Items", "RootFolder", "Views"], context: context, top: top,
            expanded: expanded)
    }

    func listsCollection(_ context: RESTContext) -> JSON {
        let lists = state.withLock { $0.lists }
        var entries: [JSON] = []
        for list in lists {
            if let filter = context.query.filter, !evaluateListFilter(filter, list) { continue }
            var entry = listEntity(list, context, top: false)
            entry = applySelect(entry, context.query)
            entries.append(entry)
        }
        return collection(entries, set: "SP.ApiData.Lists", next: nil, context: context)
    }

    /// `$filter` on lists: Title, Hidden, BaseTemplate, ItemCount.
    func evaluateListFilter(_ expression: FilterExpression, _ list: SPList) -> Bool {
        evaluate(expression) { name in
            switch name.lowercased() {
            case "title": return .text(list.title)
            case "hidden": return .bool(list.hidden)
            case "basetemplate": return .number(Double(list.baseTemplate))
            case "basetype": return .number(Double(list.baseType))
            case "itemcount": return .number(Double(list.itemCount))
            case "id": return .text(list.id)
            default: return .null
            }
        }
    }

    func createList(_ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        guard let body = parseJSONObject(context.request.body), let title = body["Title"] as? String, !title.isEmpty
        else { throw RESTError.invalidQuery("The parameter Title is required.") }
        let template = (body["BaseTemplate"] as? Int) ?? 100
        let created: SPList? = state.withLock { state in
            if state.lists.contains(where: { $0.title.lowercased() == title.lowercased() }) { return nil }
            let isLibrary = template == 101 || template == 109
            let urlName = title.filter { $0 != " " }
            let list = SPList(
                id: stableGUID(options.seed, "list/created/\(title)/\(state.lists.count)"), title: title,
                baseTemplate: template, url: isLibrary ? webRoot + "/" + urlName : webRoot + "/Lists/" + urlName,
                fields: SiteContent.standardFields(seed: options.seed, listLabel: title), created: nowEpoch(),
                description: body["Description"] as? String ?? "")
            state.lists.append(list)
            return list
        }
        guard let created else {
            throw RESTError(
                status: 500, code: "-2130575342, Microsoft.SharePoint.SPException",
                message:
                    "A list, survey, discussion board, or document library with the specified title already exists in this Web site.  Please choose another title."
            )
        }
        return jsonResponse(listEntity(created, context, top: true), context, status: 201)
    }

    func routeList(_ list: SPList, _ rest: [Segment], method: String, context: RESTContext) throws -> HTTPServerResponse
    {
        guard let next = rest.first else {
            if method == "DELETE" {
                try requireDigest(context)
                state.withLock { state in state.lists.removeAll { $0 === list } }
                return HTTPServerResponse(status: 200, headers: standardHeaders())
            }
            return jsonResponse(listEntity(list, context, top: true), context)
        }
        let tail = Array(rest.dropFirst())
        switch next.lower {
        case "fields":
            let fields = state.withLock { _ in list.fields }
            if let sub = tail.first, sub.lower == "getbyinternalnameortitle" || sub.lower == "getbytitle" {
                let name = (sub.stringArgument ?? "").lowercased()
                guard
                    let field = fields.first(where: {
                        $0.internalName.lowercased() == name || $0.title.lowercased() == name
                    })
                else {
                    throw RESTError.argument(
                        "Column '\(sub.stringArgument ?? "")' does not exist. It may have been deleted by another user."
                    )
                }
                return jsonResponse(fieldEntity(field, list, context, top: true), context)
            }
            var entries: [JSON] = []
            for field in fields {
                if let filter = context.query.filter,
                    !evaluate(
                        filter,
                        lookup: { name in
                            switch name.lowercased() {
                            case "hidden": return .bool(field.hidden)
                            case "internalname": return .text(field.internalName)
                            case "title": return .text(field.title)
                            case "readonlyfield": return .bool(field.readOnly)
                            case "typeasstring": return .text(field.typeAsString)
                            case "fieldtypekind": return .number(Double(field.kind))
                            default: return .null
                            }
                        })
                {
                    continue
                }
                entries.append(applySelect(fieldEntity(field, list, context, top: false), context.query))
            }
            return jsonResponse(collection(entries, set: "SP.ApiData.Fields", next: nil, context: context), context)
        case "items":
            if let id = next.argument.flatMap({ Int($0) }) {
                return try routeItem(list, id: id, tail, method: method, context: context)
            }
            if method == "POST" { return try addItem(list, context) }
            return jsonResponse(try itemsPage(list, context), context)
        case "getitembyid":
            let id = Int(next.argument ?? "") ?? -1
            return try routeItem(list, id: id, tail, method: method, context: context)
        case "rootfolder":
            return try routeFolder(list.url, tail, method: method, context: context)
        case "defaultview":
            return try defaultView(list, tail, context: context)
        case "roleassignments", "hasuniqueroleassignments":
            return try listSecurableEndpoint(list, rest, context: context)
        case "contenttypes":
            return try contentTypesEndpoint(list, tail, context: context)
        default:
            throw RESTError.invalidQuery(
                "The property '\(next.name)' does not exist on type 'SP.List'. Make sure to only use property names that are defined by the type."
            )
        }
    }
}
