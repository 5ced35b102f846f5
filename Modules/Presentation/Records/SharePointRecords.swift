import Foundation
public import JSON
public import SharePoint

/// SharePoint values mapped onto ``Record``s with fixed columns, so every app shows a web, a list, a field, an
/// item or a file the same way in every ``OutputFormat``.
///
/// Field names are the JSON keys (stable, machine-friendly); column titles are what tables and CSV headers show.
public enum SharePointRecords {
    // MARK: Cells

    /// A SharePoint JSON value as a cell: strings, numbers, booleans and null as themselves, arrays and objects as
    /// nested JSON (lookups, multi-choice, taxonomy, geolocation).
    public static func cell(_ value: JSONValue) -> Cell {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return Int(exactly: number).map(Cell.int) ?? .double(Double(number))
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array, .object: return .json(value)
        }
    }

    static func optional<T>(_ value: T?, _ make: (T) -> Cell) -> Cell {
        value.map(make) ?? .null
    }

    // MARK: Web and user

    /// Columns of ``record(web:)``.
    public static let webColumns = [
        Column("title", title: "Title"), Column("url", title: "URL"),
        Column("serverRelativeUrl", title: "Server-relative URL"), Column("id", title: "Id"),
        Column("created", title: "Created"), Column("lastItemModified", title: "Last item modified"),
    ]

    /// A web (site).
    public static func record(web: Web) -> Record {
        Record([
            Field("title", .string(web.title)), Field("url", .string(web.url)),
            Field("serverRelativeUrl", .string(web.serverRelativeUrl)), Field("id", .string(web.id)),
            Field("created", optional(web.created, Cell.date)),
            Field("lastItemModified", optional(web.lastItemModifiedDate, Cell.date)),
        ])
    }

    /// Columns of ``record(user:)``.
    public static let userColumns = [
        Column("id", title: "Id"), Column("title", title: "Name"), Column("email", title: "E-mail"),
        Column("loginName", title: "Login name"), Column("isSiteAdmin", title: "Site admin"),
    ]

    /// The signed-in user.
    public static func record(user: User) -> Record {
        Record([
            Field("id", .int(user.id)), Field("title", .string(user.title)), Field("email", .string(user.email)),
            Field("loginName", .string(user.loginName)), Field("isSiteAdmin", .bool(user.isSiteAdmin)),
        ])
    }

    // MARK: Lists and fields

    /// Columns of ``record(list:)``.
    public static let listColumns = [
        Column("title", title: "Title"), Column("itemCount", title: "Items"), Column("kind", title: "Kind"),
        Column("baseTemplate", title: "Template"), Column("hidden", title: "Hidden"), Column("id", title: "Id"),
        Column("lastItemModified", title: "Last item modified"),
    ]

    /// The kind of a list in words: `library` for document and picture libraries, else `list`.
    public static func kind(of list: ListInfo) -> String {
        list.baseType == 1 ? "library" : "list"
    }

    /// A list or library.
    public static func record(list: ListInfo) -> Record {
        Record([
            Field("title", .string(list.title)), Field("itemCount", optional(list.itemCount, Cell.int)),
            Field("kind", .string(kind(of: list))), Field("baseTemplate", optional(list.baseTemplate, Cell.int)),
            Field("hidden", optional(list.hidden, Cell.bool)), Field("id", .string(list.id)),
            Field("lastItemModified", optional(list.lastItemModifiedDate, Cell.date)),
        ])
    }

    /// Columns of ``record(listDetails:)``: the list's columns plus its entity type names and creation time.
    public static let listDetailColumns =
        listColumns + [
            Column("entityTypeName", title: "Entity type"),
            Column("listItemEntityTypeFullName", title: "Item entity type"), Column("created", title: "Created"),
        ]

    /// One list with everything `spconnect list NAME` shows.
    public static func record(listDetails list: ListInfo) -> Record {
        var record = record(list: list)
        record.fields += [
            Field("entityTypeName", optional(list.entityTypeName, Cell.string)),
            Field("listItemEntityTypeFullName", optional(list.listItemEntityTypeFullName, Cell.string)),
            Field("created", optional(list.created, Cell.date)),
        ]
        return record
    }

    /// Columns of ``record(field:)``.
    public static let fieldColumns = [
        Column("internalName", title: "Internal name"), Column("title", title: "Title"),
        Column("type", title: "Type"), Column("required", title: "Required"), Column("readOnly", title: "Read-only"),
        Column("hidden", title: "Hidden"), Column("indexed", title: "Indexed"),
    ]

    /// A field (column) of a list.
    public static func record(field: SharePoint.Field) -> Record {
        Record([
            Field("internalName", .string(field.internalName)), Field("title", .string(field.title)),
            Field("type", .string(field.typeAsString)), Field("required", optional(field.required, Cell.bool)),
            Field("readOnly", optional(field.readOnly, Cell.bool)), Field("hidden", optional(field.hidden, Cell.bool)),
            Field("indexed", optional(field.indexed, Cell.bool)),
        ])
    }

    // MARK: Items

    /// Item properties that say little to a person reading a table; left out of table columns unless selected.
    public static let technicalItemFields: Set<String> = [
        "FileSystemObjectType", "ServerRedirectedEmbedUri", "ServerRedirectedEmbedUrl", "ContentTypeId",
        "ComplianceAssetId", "OData__UIVersionString", "GUID", "ID", "Attachments", "OData__ColorTag",
        // FieldValuesAsText names.
        "MetaInfo", "ScopeId", "owshiddenversion", "FSObjType", "UniqueId", "OData__x005f_UIVersionString",
        "OData__x005f_ModerationStatus", "OData__x005f_Level",
    ]

    /// A list item: every field as sent, in server order, under its internal (JSON) name.
    public static func record(item: ListItem) -> Record {
        Record(item.fields.map { Field($0.0, cell($0.1)) })
    }

    /// An item's display texts (`FieldValuesAsText`), in server order.
    public static func record(textValues: [(String, String)]) -> Record {
        Record(textValues.map { Field($0.0, .string($0.1)) })
    }

    /// Columns for items: the selected fields in the order given (`NameId` when the sample has that instead), else the fields of `sample` (the first item) in
    /// server order, without ``technicalItemFields`` when `forPeople`.
    public static func itemColumns(selected: [String], sample: Record?, forPeople: Bool) -> [Column] {
        if !selected.isEmpty {
            // People and lookup fields come back as `NameId` when selected as `Name` without `$expand`.
            return selected.map { name in
                if let sample, sample[name] == nil, sample[name + "Id"] != nil { return Column(name + "Id") }
                return Column(name)
            }
        }
        guard let sample else { return [Column("Id")] }
        return sample.fields.map(\.name)
            .filter { !forPeople || !technicalItemFields.contains($0) }
            .map { Column($0) }
    }

    // MARK: Files and folders

    /// Columns of ``record(file:)`` and ``record(folder:)``.
    public static let entryColumns = [
        Column("type", title: "Type"), Column("name", title: "Name"), Column("size", title: "Size"),
        Column("modified", title: "Modified"), Column("serverRelativeUrl", title: "Server-relative URL"),
    ]

    /// A file, as an entry of a folder listing.
    public static func record(file: SharePoint.File) -> Record {
        Record([
            Field("type", .string("file")), Field("name", .string(file.name)),
            Field("size", Int(exactly: file.length).map(Cell.int) ?? .null),
            Field("modified", optional(file.timeLastModified, Cell.date)),
            Field("serverRelativeUrl", .string(file.serverRelativeUrl)),
        ])
    }

    /// A folder, as an entry of a folder listing.
    public static func record(folder: Folder) -> Record {
        Record([
            Field("type", .string("folder")), Field("name", .string(folder.name)),
            Field("size", optional(folder.itemCount, Cell.int)),
            Field("modified", optional(folder.timeLastModified, Cell.date)),
            Field("serverRelativeUrl", .string(folder.serverRelativeUrl)),
        ])
    }
}
