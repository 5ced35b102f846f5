public import CommandLineKit
import Foundation
public import JSON
public import SharePoint

/// A `--select` list checked against the list's fields before any item is read: each name in the server's spelling,
/// `a/b` projections of lookups and people with the `$expand=a` each needs, and a usage error naming the closest
/// fields for a name the list does not have (SharePoint itself may answer a typo with the field silently missing).
public struct FieldSelection: Equatable, Sendable {
    /// The names for `$select` and the columns, in the order given, each once.
    public var names: [String] = []
    /// The lookups, people and navigation properties to expand (`AssignedTo` for `AssignedTo/Title`), each once.
    public var expand: [String] = []

    /// Item properties that are no field of the list but may be selected.
    static let itemProperties = [
        "Id", "ID", "GUID", "FileSystemObjectType", "ServerRedirectedEmbedUri", "ServerRedirectedEmbedUrl",
        "ContentTypeId", "OData__UIVersionString", "Attachments", "ComplianceAssetId", "OData__ColorTag", "FileRef",
        "FileLeafRef", "FileDirRef", "FSObjType", "UniqueId", "AuthorId", "EditorId", "FieldValuesAsText",
        "FieldValuesAsHtml", "File", "Folder",
    ]
    /// Navigation properties of an item that `a/b` may name besides the list's lookup and person fields.
    static let navigationProperties = [
        "File", "Folder", "ParentList", "FieldValuesAsText", "FieldValuesAsHtml", "ContentType", "AttachmentFiles",
    ]
    /// Field types whose values are other items or people: `a/b` expands them.
    static let lookupTypes: Set<String> = ["lookup", "lookupmulti", "user", "usermulti"]

    /// No selection: every field the server sends.
    public init() {}

    /// `requested` checked against the fields of `list` (`name` as the user wrote it, for messages); the fields are
    /// only read when a name is not an item property every list has (`Id`, `Title` needs them).
    public static func checked(_ requested: [String], in list: ListPath, named name: String, site: SharePointSite)
        async throws -> FieldSelection
    {
        if requested.isEmpty { return FieldSelection() }
        let properties = Set(itemProperties.map { $0.lowercased() })
        let fields =
            requested.allSatisfy { properties.contains($0.lowercased()) } ? [] : try await site.fields(of: list)
        return try FieldSelection(requested, fields: fields, list: name)
    }

    /// Checks `requested` against `fields` (every field of the list, hidden ones included).
    ///
    /// - Throws: a usage error for a name that is no field or item property ("did you mean …"), and for `a/b` where
    ///   `a` is not a lookup, a person or a navigation property.
    public init(_ requested: [String], fields: [SharePoint.Field], list: String) throws(UsageError) {
        // Lower-cased name → the server's spelling; a name given exactly as one of them stays as given (`Id` and
        // `ID` are both item properties).
        var exact: Set<String> = []
        var known: [String: String] = [:]
        func add(_ name: String) {
            exact.insert(name)
            known[name.lowercased()] = name
        }
        var lookups: [String: String] = [:]
        Self.itemProperties.forEach(add)
        for property in Self.navigationProperties { lookups[property.lowercased()] = property }
        for field in fields {
            let name = OData.jsonPropertyName(forInternalName: field.internalName)
            add(name)
            if Self.lookupTypes.contains(field.typeAsString.lowercased()) {
                lookups[name.lowercased()] = name
                add(name + "Id")
                add(name + "StringId")
            }
        }
        for word in requested {
            let parts = word.split(separator: "/", maxSplits: 1).map(String.init)
            let canonical: String
            if parts.count == 1, exact.contains(word) {
                canonical = word
            } else if parts.count == 2 {
                guard let base = lookups[parts[0].lowercased()] else {
                    if let plain = known[parts[0].lowercased()] {
                        let type = fields.first { $0.internalName.lowercased() == plain.lowercased() }?.typeAsString
                        throw UsageError(
                            description:
                                "--select \(word): '\(plain)' is \(type.map { "a \($0) field" } ?? "no lookup")"
                                + ", and only lookup and person fields (and File, Folder) can be expanded with '/'")
                    }
                    throw Self.unknown(parts[0], in: word, fields: fields, list: list)
                }
                canonical = base + "/" + parts[1]
                if !expand.contains(base) { expand.append(base) }
            } else {
                guard let name = known[word.lowercased()] else {
                    throw Self.unknown(word, in: word, fields: fields, list: list)
                }
                canonical = name
            }
            if !names.contains(canonical) { names.append(canonical) }
        }
    }

    /// The usage error for a name the list does not have, with the closest field names.
    private static func unknown(_ name: String, in word: String, fields: [SharePoint.Field], list: String) -> UsageError
    {
        let visible = fields.filter { $0.hidden != true }
        let suggestions = closest(
            to: name, among: visible.map { (OData.jsonPropertyName(forInternalName: $0.internalName), $0.title) })
        let hint = suggestions.isEmpty ? "" : "; did you mean " + suggestions.joined(separator: ", ") + "?"
        let whole = word == name ? "" : " (in '\(word)')"
        return UsageError(
            description: "--select: list '\(list)' has no field '\(name)'\(whole)\(hint) Fields are selected by "
                + "internal name: 'spconnect fields \(list)' lists them")
    }

    /// ``names`` with `Id` first when they name fields but not the id (every item is decoded by its id); empty
    /// when nothing is selected (every field).
    public var namesWithID: [String] {
        if names.isEmpty || names.contains(where: { $0.lowercased() == "id" }) { return names }
        return ["Id"] + names
    }

    /// `a, b,c` → `["a", "b", "c"]`: a `--select` or `--orderby` list as given.
    public static func split(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Up to three field names nearest to `name` by edit distance (case-insensitive) to the name or its title: those
    /// within a typo or two when there are any, else the three nearest.
    static func closest(to name: String, among candidates: [(name: String, title: String)]) -> [String] {
        Suggestions.nearest(to: name, among: candidates)
    }

    /// The value an item has for a selected `a/b` name: `b` of the expanded `a` (an array of them for multi-valued
    /// lookups and people, in any flavour), or nil when the item has no such value.
    public static func projectedValue(_ name: String, of item: ListItem) -> JSONValue? {
        let parts = name.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let base = item[parts[0]] else { return nil }
        func pick(_ value: JSONValue) -> JSONValue {
            if case .array(let elements) = value { return .array(elements.map(pick)) }
            if let results = value["results"], case .array = results { return pick(results) }
            return value[parts[1]] ?? .null
        }
        return pick(base)
    }
}
