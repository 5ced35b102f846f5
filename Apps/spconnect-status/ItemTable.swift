import Presentation
import SharePoint

/// A page of list items as a table: `ID`, `Title`, then the list's own fields, leaving out SharePoint's
/// bookkeeping fields; every value as the server's text.
enum ItemTable {
    /// Fields every item carries that say nothing to a person.
    static let bookkeeping: Set<String> = [
        "Id", "FileSystemObjectType", "ServerRedirectedEmbedUri", "ServerRedirectedEmbedUrl", "ContentTypeId",
        "ComplianceAssetId", "GUID", "OData__UIVersionString", "Attachments", "AuthorId", "EditorId",
        "AuthorStringId", "EditorStringId",
    ]
    /// Most columns shown (the table scrolls sideways on a phone; more would not help).
    static let maxColumns = 8

    static func recordSet(_ items: [ListItem]) -> RecordSet {
        var names: [String] = ["ID", "Title"]
        for item in items {
            for (name, _) in item.fields
            where !names.contains(name) && !bookkeeping.contains(name) && !name.hasPrefix("odata.")
                && !name.hasPrefix("__") && names.count < maxColumns
            {
                names.append(name)
            }
        }
        let records = items.map { item in
            let texts = ListItem.textValues(of: item.fields.filter { !$0.0.hasPrefix("__") })
            return Record(
                names.map { name -> Presentation.Field in
                    if name == "ID" { return Presentation.Field(name, .int(item.id)) }
                    let text = texts.first { $0.0 == name }?.1
                    return Presentation.Field(name, text.map { Cell.string($0) } ?? .null)
                })
        }
        let columns = names.map { name in
            Column(name, title: OData.decodeName(name), alignment: name == "ID" ? .right : .left)
        }
        return RecordSet(columns: columns, records: records)
    }
}
