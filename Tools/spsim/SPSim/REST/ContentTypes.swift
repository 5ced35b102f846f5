import HTTPServer

/// A list's content types (`…/lists/getbytitle('…')/contenttypes`), as SharePoint answers them for a new list:
/// the list's own child of Item for a list, its own children of Document and Folder for a library. The ids are the
/// parent's id, `00` and 32 hex digits from the list's id, as SharePoint derives list content types.
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

    /// `…/contenttypes` of a list, and `…/contenttypes('0x…')` for one of them.
    func contentTypesEndpoint(_ list: SPList, _ rest: [Segment], context: RESTContext) throws -> HTTPServerResponse {
        let all = contentTypes(of: list)
        guard let wanted = rest.first?.stringArgument ?? rest.first?.argument else {
            let entries = all.map { applySelect(contentTypeEntity($0, list, context, top: false), context.query) }
            return jsonResponse(collection(entries, set: "SP.ContentType", next: nil, context: context), context)
        }
        guard let found = all.first(where: { $0.id.lowercased() == wanted.lowercased() }) else {
            throw RESTError.invalidQuery("The content type '\(wanted)' does not exist in this list.")
        }
        return jsonResponse(contentTypeEntity(found, list, context, top: true), context)
    }

    /// An `SP.ContentType` entity.
    func contentTypeEntity(_ type: SimulatedContentType, _ list: SPList, _ context: RESTContext, top: Bool) -> JSON {
        let isDocument = type.name == "Document"
        return entity(
            type: "SP.ContentType", path: listPath(list) + "/ContentTypes('\(type.id)')", set: "SP.ContentType",
            props: [
                ("Description", .string(type.description)), ("DisplayFormTemplateName", .string("ListForm")),
                ("DisplayFormUrl", .string("")),
                ("DocumentTemplate", .string(isDocument ? "template.dotx" : "")),
                ("DocumentTemplateUrl", .string(isDocument ? list.url + "/Forms/template.dotx" : "")),
                ("EditFormTemplateName", .string("ListForm")), ("EditFormUrl", .string("")),
                ("Group", .string(type.group)), ("Hidden", .bool(type.hidden)),
                ("Id", complex("SP.ContentTypeId", [("StringValue", .string(type.id))], context)),
                ("JSLink", .string("")), ("MobileDisplayFormUrl", .string("")), ("MobileEditFormUrl", .string("")),
                ("MobileNewFormUrl", .string("")), ("Name", .string(type.name)),
                ("NewFormTemplateName", .string("ListForm")), ("NewFormUrl", .string("")),
                ("ReadOnly", .bool(false)), ("Scope", .string(list.url)), ("Sealed", .bool(false)),
                ("StringId", .string(type.id)),
            ], deferred: ["FieldLinks", "Fields", "Parent", "WorkflowAssociations"], context: context, top: top)
    }
}
