import Presentation
import SharePoint

/// A page of list items as a table: `ID`, `Title`, the list's own visible, editable fields, then `Modified` and
/// `Modified By`, at most ``maxColumns``; headers are the fields' display names and values their display text
/// (`$expand=FieldValuesAsText`: people by name, dates and numbers as the site formats them).
enum ItemTable {
    /// Most columns shown (the table scrolls sideways on a phone; more would not help).
    static let maxColumns = 8
    /// Visible fields that say nothing to a person looking at a page of items.
    static let bookkeeping: Set<String> = [
        "ID", "ContentType", "ContentTypeId", "Attachments", "Edit", "LinkTitle", "LinkTitleNoMenu", "DocIcon",
        "ItemChildCount", "FolderChildCount", "AppAuthor", "AppEditor", "ComplianceAssetId", "FileRef", "Created",
        "Author", "Modified", "Editor", "SelectTitle", "LinkFilename", "LinkFilenameNoMenu",
    ]

    /// The `$expand` that brings the display text of every field with the items.
    static let expand = "FieldValuesAsText"

    /// The columns for a list with these fields.
    static func columns(_ fields: [SharePoint.Field]) -> [Column] {
        let visible = fields.filter { $0.hidden != true && !$0.internalName.hasPrefix("_") }
        var chosen: [SharePoint.Field] = visible.filter { $0.internalName == "Title" }
        chosen += visible.filter { field in
            field.internalName != "Title" && !bookkeeping.contains(field.internalName)
                && (field.readOnly != true || field.internalName == "FileLeafRef")
        }
        chosen += ["Modified", "Editor"].compactMap { name in visible.first { $0.internalName == name } }
        return [Column("ID", title: "ID", alignment: .right)]
            + chosen.prefix(maxColumns - 1).map { Column($0.internalName, title: $0.title, alignment: .left) }
    }

    /// The items as records for `columns`: display text from `FieldValuesAsText` when expanded, else the raw
    /// value's text.
    static func recordSet(_ items: [ListItem], columns: [Column]) -> RecordSet {
        let records = items.map { item in
            var texts: [String: String] = [:]
            for (name, text) in ListItem.textValues(of: item.fields) where texts[name] == nil {
                texts[name] = text
            }
            if let display = item[expand]?.objectValue {
                for (key, text) in ListItem.textValues(of: display) { texts[OData.decodeName(key)] = text }
            }
            return Record(
                columns.map { column -> Presentation.Field in
                    if column.field == "ID" { return Presentation.Field("ID", .int(item.id)) }
                    let text = texts[column.field] ?? texts[column.field + "Id"]
                    return Presentation.Field(column.field, text.map { Cell.string($0) } ?? .null)
                })
        }
        return RecordSet(columns: columns, records: records)
    }
}
