import Foundation
import HTTPServer

/// A list's columns and its default view: `…/fields` entities and `…/DefaultView` (`/ViewFields`).
extension SimulatorCore {
    /// `…/DefaultView` (the view's name and URL) and `…/DefaultView/ViewFields` (its columns' internal names).
    func defaultView(_ list: SPList, _ rest: [Segment], context: RESTContext) throws -> HTTPServerResponse {
        let (fields, url) = state.withLock { _ in (list.defaultViewFields, list.url) }
        let path = "Web/Lists(guid'\(list.id)')/DefaultView"
        guard let next = rest.first else {
            let page = url + (list.isLibrary ? "/Forms/AllItems.aspx" : "/AllItems.aspx")
            return jsonResponse(
                entity(
                    type: "SP.View", path: path, set: "SP.View",
                    props: [
                        ("Id", .string(stableGUID(options.seed, "view" + list.id))), ("DefaultView", .bool(true)),
                        ("Title", .string(list.isLibrary ? "All Documents" : "All Items")),
                        ("ServerRelativeUrl", .string(page)),
                    ], deferred: ["ViewFields"], context: context, top: true), context)
        }
        guard next.lower == "viewfields", rest.count == 1 else {
            throw RESTError.invalidQuery(
                "The property '\(next.name)' does not exist on type 'SP.View'. Make sure to only use property names that are defined by the type."
            )
        }
        let schema = "<FieldRefs>" + fields.map { "<FieldRef Name=\"\($0)\" />" }.joined() + "</FieldRefs>"
        return jsonResponse(
            entity(
                type: "SP.ViewFieldCollection", path: path + "/ViewFields", set: "SP.ViewFieldCollection",
                props: [("Items", stringCollection(fields, context)), ("SchemaXml", .string(schema))], deferred: [],
                context: context, top: true), context)
    }

    func fieldEntity(_ field: FieldDef, _ list: SPList, _ context: RESTContext, top: Bool) -> JSON {
        let type: String
        switch field.typeAsString {
        case "Text": type = "SP.FieldText"
        case "Number", "Integer": type = "SP.FieldNumber"
        case "DateTime": type = "SP.FieldDateTime"
        case "Choice": type = "SP.FieldChoice"
        case "User": type = "SP.FieldUser"
        case "Lookup": type = "SP.FieldLookup"
        case "Computed": type = "SP.FieldComputed"
        default: type = "SP.Field"
        }
        var props: [(String, JSON)] = [
            ("Id", .string(field.id)), ("InternalName", .string(field.internalName)), ("Title", .string(field.title)),
            ("FieldTypeKind", .int(field.kind)), ("TypeAsString", .string(field.typeAsString)),
            ("Hidden", .bool(field.hidden)), ("Indexed", .bool(field.indexed)),
            ("ReadOnlyField", .bool(field.readOnly)),
            ("Required", .bool(false)), ("Sealed", .bool(field.readOnly)), ("StaticName", .string(field.internalName)),
            ("EntityPropertyName", .string(field.jsonName.hasPrefix("_") ? "OData_" + field.jsonName : field.jsonName)),
        ]
        if field.typeAsString == "Choice" { props.append(("Choices", stringCollection(field.choices, context))) }
        return entity(
            type: type, path: listPath(list) + "/Fields(guid'\(field.id)')", set: "SP.ApiData.Fields", props: props,
            deferred: [], context: context, top: top)
    }
}
