import Presentation
import SharePoint

/// A page of list items as a table. The columns are `ID`, then the ones `--columns` names (internal names or
/// display names, for every list that has them), else the list's default view's (`LinkTitle` shown as Title,
/// `LinkFilename` as the file name, `DocIcon` and other computed link columns left out), else a guess from the
/// fields (Title, the list's own editable fields, Modified, Modified By). A library's file name links to its
/// download through the app and is followed by its size. Headers are the fields' display names and values their
/// display text (`$expand=FieldValuesAsText`: people by name, dates and numbers as the site formats them).
enum ItemTable {
    /// How a column's cells are laid out.
    enum Kind: Sendable, Equatable {
        /// Numbers and sizes: right-aligned, tabular digits, never wrapped.
        case number
        /// Free text (titles, notes, links): wraps when the screen is narrow.
        case text
        /// Dates, people, choices, yes/no: short values kept on one line.
        case short
    }

    /// One column: the field's internal name (or ``sizeKey``), its header and its layout.
    struct Column: Sendable, Equatable {
        var key: String
        var title: String
        var kind: Kind
    }

    /// One cell: its text and, for a library's file name, the app's download link target (a server-relative URL).
    struct Cell: Sendable, Equatable {
        var text: String
        var download: String?

        init(_ text: String, download: String? = nil) {
            self.text = text
            self.download = download
        }
    }

    /// The key of the size column of a library (from the expanded `File`).
    static let sizeKey = "File.Length"

    /// View columns that are not fields a page can show (icons, check boxes, menus).
    static let decorations: Set<String> = ["DocIcon", "Checkmark", "Edit", "SelectTitle", "_IsRecord", "AppAuthor"]

    /// View columns that stand for another field.
    static let aliases: [String: String] = [
        "LinkTitle": "Title", "LinkTitleNoMenu": "Title", "LinkTitle2": "Title", "LinkFilename": "FileLeafRef",
        "LinkFilenameNoMenu": "FileLeafRef", "LinkFilename2": "FileLeafRef", "BaseName": "FileLeafRef",
    ]

    /// Fields a guessed table leaves out: they say nothing to a person looking at a page of items.
    static let bookkeeping: Set<String> = [
        "ID", "ContentType", "ContentTypeId", "Attachments", "Edit", "LinkTitle", "LinkTitleNoMenu", "DocIcon",
        "ItemChildCount", "FolderChildCount", "AppAuthor", "AppEditor", "ComplianceAssetId", "FileRef", "Created",
        "Author", "Modified", "Editor", "SelectTitle", "LinkFilename", "LinkFilenameNoMenu",
    ]

    /// The `$expand` that brings the display text of every field with the items (and, for a library, the file).
    static func expand(isLibrary: Bool) -> [String] {
        isLibrary ? ["FieldValuesAsText", "File"] : ["FieldValuesAsText"]
    }

    /// The columns for a list with these fields: `requested` (from `--columns`) when any of them exists, else the
    /// default view's `viewFields` when known and not empty, else a guess.
    static func columns(
        _ fields: [SharePoint.Field], viewFields: [String]?, requested: [String]? = nil, isLibrary: Bool
    ) -> [Column] {
        func find(_ name: String) -> SharePoint.Field? {
            let wanted = (aliases[name] ?? name).lowercased()
            return fields.first { $0.internalName.lowercased() == wanted }
                ?? fields.first { $0.title.lowercased() == wanted }
        }
        var chosen: [SharePoint.Field] = []
        func add(_ field: SharePoint.Field?) {
            guard let field, field.internalName != "ID",
                !chosen.contains(where: { $0.internalName == field.internalName })
            else { return }
            chosen.append(field)
        }
        if let requested, requested.contains(where: { find($0) != nil }) {
            requested.forEach { add(find($0)) }
        } else if let viewFields, viewFields.contains(where: { !decorations.contains($0) && find($0) != nil }) {
            viewFields.filter { !decorations.contains($0) }.forEach { add(find($0)) }
        } else {
            let visible = fields.filter { $0.hidden != true && !$0.internalName.hasPrefix("_") }
            add(visible.first { $0.internalName == (isLibrary ? "FileLeafRef" : "Title") })
            visible.filter { field in
                !bookkeeping.contains(field.internalName)
                    && (field.readOnly != true || field.internalName == "FileLeafRef")
            }.forEach(add)
            ["Modified", "Editor"].forEach { add(find($0)) }
        }
        if isLibrary, !chosen.contains(where: { $0.internalName == "FileLeafRef" }) {
            if let name = find("FileLeafRef") { chosen.insert(name, at: 0) }
        }
        var columns = [Column(key: "ID", title: "ID", kind: .number)]
        for field in chosen {
            columns.append(Column(key: field.internalName, title: field.title, kind: kind(of: field)))
            if isLibrary, field.internalName == "FileLeafRef" {
                columns.append(Column(key: sizeKey, title: "Size", kind: .number))
            }
        }
        return columns
    }

    /// The layout of a field's cells, from its type.
    static func kind(of field: SharePoint.Field) -> Kind {
        switch field.typeAsString {
        case "Number", "Integer", "Counter", "Currency": return .number
        case "Text", "Note", "URL", "File", "Lookup", "LookupMulti", "MultiChoice", "Computed", "TaxonomyFieldType":
            return .text
        default: return .short
        }
    }

    /// The items' cells for `columns`: display text from `FieldValuesAsText` when expanded, else the raw value's
    /// text; a library's file name carries its server-relative URL, its size the expanded file's length.
    static func rows(_ items: [ListItem], columns: [Column]) -> [[Cell]] {
        items.map { item in
            var texts: [String: String] = [:]
            for (name, text) in ListItem.textValues(of: item.fields) where texts[name] == nil {
                texts[name] = text
            }
            if let display = item["FieldValuesAsText"]?.objectValue {
                for (key, text) in ListItem.textValues(of: display) { texts[OData.decodeName(key)] = text }
            }
            let file = item["File"]
            let fileURL = file?["ServerRelativeUrl"]?.stringValue ?? texts["FileRef"]
            return columns.map { column -> Cell in
                switch column.key {
                case "ID": return Cell(String(item.id))
                case sizeKey: return Cell(file?["Length"]?.int64Value.map { HumanFormat.byteCount($0) } ?? "")
                case "FileLeafRef":
                    let name = texts["FileLeafRef"] ?? file?["Name"]?.stringValue ?? ""
                    return Cell(name, download: fileURL.flatMap { name.isEmpty ? nil : $0 })
                default: return Cell(texts[column.key] ?? texts[column.key + "Id"] ?? "")
                }
            }
        }
    }
}
