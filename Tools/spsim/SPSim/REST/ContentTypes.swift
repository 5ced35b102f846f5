import HTTPServer

/// Content types: a list's (`…/lists/getbytitle('…')/contenttypes`), as SharePoint answers them for a new list: the
/// list's own child of Item for a list, its own children of Document and Folder for a library (the ids are the
/// parent's id, `00` and 32 hex digits from the list's id, as SharePoint derives list content types); and a few of
/// the site's own (`web/contenttypes`), the parents of those.
extension SimulatorCore {
    /// One simulated content type.
    struct SimulatedContentType {
        let id: String
        let name: String
        let description: String
        let group: String
        let hidden: Bool
    }

    /// The content types of `list`, in the order SharePoint lists them.
    func contentTypes(of list: SPList) -> [SimulatedContentType] {
        let hex = String(list.id.filter { $0 != "-" }.uppercased().prefix(32))
        guard list.isLibrary else {
            return [
                SimulatedContentType(
                    id: "0x0100" + hex, name: "Item", description: "Create a new list item.",
                    group: "List Content Types", hidden: false)
            ]
        }
        return [
            SimulatedContentType(
                id: "0x010100" + hex, name: "Document", description: "Create a new document.",
                group: "Document Content Types", hidden: false),
            SimulatedContentType(
                id: "0x012000" + hex, name: "Folder", description: "Create a new folder.",
                group: "Folder Content Types", hidden: false),
        ]
    }

    /// The site's content types (a few of a team site's: the parents of the lists' ones and some more).
    var webContentTypes: [SimulatedContentType] {
        [
            SimulatedContentType(
                id: "0x", name: "System", description: "", group: "_Hidden", hidden: true),
            SimulatedContentType(
                id: "0x01", name: "Item", description: "Create a new list item.", group: "List Content Types",
                hidden: false),
            SimulatedContentType(
                id: "0x0101", name: "Document", description: "Create a new document.",
                group: "Document Content Types", hidden: false),
            SimulatedContentType(
                id: "0x0102", name: "Event", description: "Create a new meeting, deadline or other event.",
                group: "List Content Types", hidden: false),
            SimulatedContentType(
                id: "0x0120", name: "Folder", description: "Create a new folder.", group: "Folder Content Types",
                hidden: false),
        ]
    }

    /// `…/contenttypes` of a list, and `…/contenttypes('0x…')` for one of them.
    func contentTypesEndpoint(_ list: SPList, _ rest: [Segment], context: RESTContext) throws -> HTTPServerResponse {
        try contentTypesAnswer(contentTypes(of: list), owner: list, rest, context: context)
    }

    /// `web/contenttypes` and `web/contenttypes('0x…')`.
    func webContentTypesEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        try contentTypesAnswer(webContentTypes, owner: nil, match.rest, context: match.context)
    }

    /// The collection, or the one content type the first of `rest` names, of `owner` (nil: the web).
    private func contentTypesAnswer(
        _ all: [SimulatedContentType], owner list: SPList?, _ rest: [Segment], context: RESTContext
    ) throws -> HTTPServerResponse {
        guard let wanted = rest.first?.stringArgument ?? rest.first?.argument else {
            let entries = all.map { applySelect(contentTypeEntity($0, list, context, top: false), context.query) }
            return jsonResponse(collection(entries, set: "SP.ContentType", next: nil, context: context), context)
        }
        guard let found = all.first(where: { $0.id.lowercased() == wanted.lowercased() }) else {
            throw RESTError.invalidQuery("The content type '\(wanted)' does not exist here.")
        }
        return jsonResponse(contentTypeEntity(found, list, context, top: true), context)
    }

    /// An `SP.ContentType` entity of `list` (nil: of the web).
    func contentTypeEntity(_ type: SimulatedContentType, _ list: SPList?, _ context: RESTContext, top: Bool) -> JSON {
        let isDocument = type.name == "Document"
        let template = list.map { $0.url + "/Forms/template.dotx" } ?? webRoot + "/_cts/Document/template.dotx"
        return entity(
            type: "SP.ContentType", path: (list.map(listPath) ?? "Web") + "/ContentTypes('\(type.id)')",
            set: "SP.ContentType",
            props: [
                ("Description", .string(type.description)), ("DisplayFormTemplateName", .string("ListForm")),
                ("DisplayFormUrl", .string("")),
                ("DocumentTemplate", .string(isDocument ? "template.dotx" : "")),
                ("DocumentTemplateUrl", .string(isDocument ? template : "")),
                ("EditFormTemplateName", .string("ListForm")), ("EditFormUrl", .string("")),
                ("Group", .string(type.group)), ("Hidden", .bool(type.hidden)),
                ("Id", complex("SP.ContentTypeId", [("StringValue", .string(type.id))], context)),
                ("JSLink", .string("")), ("MobileDisplayFormUrl", .string("")), ("MobileEditFormUrl", .string("")),
                ("MobileNewFormUrl", .string("")), ("Name", .string(type.name)),
                ("NewFormTemplateName", .string("ListForm")), ("NewFormUrl", .string("")),
                ("ReadOnly", .bool(false)), ("Scope", .string(list?.url ?? webRootFolder)),
                ("Sealed", .bool(type.hidden)),
                ("StringId", .string(type.id)),
            ], deferred: ["FieldLinks", "Fields", "Parent", "WorkflowAssociations"], context: context, top: top)
    }
}

/// The endpoints answered in this file (every `RESTRoute` declared so is routed; see `RESTRoutes.swift`).
extension RESTRoute {
    static let webContentTypes = RESTRoute("web/contenttypes/**") { try $0.webContentTypesEndpoint($1) }
}
