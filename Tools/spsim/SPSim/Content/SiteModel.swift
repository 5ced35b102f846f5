import Foundation

/// A field value as stored.
enum FieldValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case date(Int)
    case bool(Bool)
    /// A person or lookup id.
    case lookup(Int)
    case null
}

/// One column.
struct FieldDef: Sendable {
    var internalName: String
    var title: String
    var typeAsString: String
    var kind: Int
    var id: String
    var hidden = false
    var readOnly = false
    var indexed = false
    var choices: [String] = []
    /// Only returned when `$select` names it (FileRef, FileLeafRef).
    var selectOnly = false

    /// The key in item JSON: people and lookups appear as `<Name>Id`, except the built-in path lookups (`FileRef`,
    /// `FileDirRef`), whose value is a server-relative URL under their own name.
    var jsonName: String {
        let isIdLookup =
            typeAsString == "User" || (typeAsString == "Lookup" && !FieldDef.pathLookups.contains(internalName))
        return isIdLookup ? internalName + "Id" : internalName
    }

    /// Lookup-typed system fields that hold a path, not a lookup id.
    static let pathLookups: Set<String> = ["FileRef", "FileDirRef"]
}

/// One list row.
struct ListItem: Sendable {
    var id: Int
    var values: [String: FieldValue]
    var version: Int
    var created: Int
    var modified: Int
    var authorId: Int
    var editorId: Int
    var guid: String
    /// The item's earlier versions, oldest first (each an earlier copy of this item, its own `history` empty).
    var history: [ListItem] = []
}

/// An earlier version of a file: kept when the file's content is replaced (upload again, `$value` PUT, a chunked
/// upload's end), as SharePoint keeps one per save when versioning is on (the default for libraries).
struct SPFileVersion: Sendable {
    var major: Int
    var created: Int
    var content: FileContent
    var editorId: Int
}

/// A file attached to a list item (`…/Lists/Tasks/Attachments/7/name`).
struct SPAttachment: Sendable {
    var name: String
    var bytes: [UInt8]
}

/// An entry of the site's recycle bin (`SP.RecycleBinItem`): a file or a folder moved there with `recycle()`.
struct SPRecycled: Sendable {
    var id: String
    /// The name (`LeafName`, `Title`).
    var title: String
    /// The folder it was in (`DirName`, without the leading slash as SharePoint sends it).
    var dirName: String
    /// `SP.RecycleBinItemType`: 1 file, 5 folder.
    var itemType: Int
    var deleted: Int
    var deletedById: Int
    var size: Int
}

/// A file's bytes: stored, or generated on the fly (big downloads stream without being held).
enum FileContent: Sendable {
    case bytes([UInt8])
    case generated(length: Int, seed: UInt64)

    var length: Int {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .generated(let length, _): return length
        }
    }

    /// Bytes `offset..<offset+count` (generated content is a deterministic printable pattern).
    func slice(_ offset: Int, _ count: Int) -> [UInt8] {
        switch self {
        case .bytes(let bytes):
            guard offset < bytes.count else { return [] }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        case .generated(let length, let seed):
            let end = min(length, offset + count)
            guard offset < end else { return [] }
            // One pass over a preallocated buffer: a 50 MB file is 800 of these 64 KiB slices per download.
            return [UInt8](unsafeUninitializedCapacity: end - offset) { buffer, initialized in
                FileContent.alphabet.withUnsafeBufferPointer { alphabet in
                    let size = UInt64(alphabet.count)
                    for index in offset..<end {
                        buffer[index - offset] = alphabet[Int((UInt64(index) &* 2_654_435_761 &+ seed) % size)]
                    }
                }
                initialized = end - offset
            }
        }
    }

    /// The characters generated content is made of.
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789\n".utf8)
}

/// A file in a library folder.
struct SPFile: Sendable {
    var name: String
    /// Server-relative folder URL, e.g. `/Shared Documents`.
    var folder: String
    var content: FileContent
    var uniqueId: String
    var majorVersion: Int
    var created: Int
    var modified: Int
    var listId: String
    var itemId: Int
    var title: String = ""
    /// Earlier versions, oldest first.
    var history: [SPFileVersion] = []
    /// Who has the file checked out (`checkout()`), as a SharePoint user id; nil when nobody.
    var checkedOutBy: Int?
    /// The comment of the last `checkin(comment='…')`.
    var checkInComment = ""
    var serverRelativeUrl: String { folder == "/" ? "/" + name : folder + "/" + name }
    var etag: String { "\"{\(uniqueId.uppercased())},\(majorVersion)\"" }
    var contentTag: String { "{\(uniqueId.uppercased())},\(majorVersion),\(majorVersion + 1)" }
}

/// A list or library. Mutated only under the simulator's lock.
final class SPList: @unchecked Sendable {
    let id: String
    var title: String
    let baseTemplate: Int
    /// Server-relative root folder URL (`/Lists/Tasks`, `/Shared Documents`).
    let url: String
    let entityTypeName: String
    let itemEntityTypeFullName: String
    var fields: [FieldDef]
    var description: String
    let created: Int
    var lastModified: Int
    var hidden = false
    /// Rows 1...generatedCount come from `generator` unless overridden or deleted.
    var generatedCount = 0
    var generator: (@Sendable (Int) -> ListItem)?
    var stored: [Int: ListItem] = [:]
    var deleted: Set<Int> = []
    /// Files attached to items, by item id.
    var attachments: [Int: [SPAttachment]] = [:]
    var nextId = 1
    /// The default content type id of the list's items (on every item of a page: computed once).
    let contentTypeId: String
    /// The internal names of the default view's columns (`…/DefaultView/ViewFields`), as a new list's "All
    /// Items" (`LinkTitle`) or "All Documents" (`DocIcon`, `LinkFilename`, `Modified`, `Editor`) has them.
    var defaultViewFields: [String]

    init(
        id: String, title: String, baseTemplate: Int, url: String, fields: [FieldDef], created: Int,
        description: String = ""
    ) {
        self.id = id
        self.title = title
        self.baseTemplate = baseTemplate
        self.url = url
        let urlName = String(url.split(separator: "/").last ?? "")
        let isLibrary = baseTemplate == 101 || baseTemplate == 109
        // EntityTypeName comes from the URL name (libraries) or the title (lists), with _xHHHH_ escaping.
        let base = SPList.encodeName(isLibrary ? urlName : title)
        self.entityTypeName = isLibrary ? base : base + "List"
        self.itemEntityTypeFullName = "SP.Data." + (isLibrary ? base + "Item" : base + "ListItem")
        self.fields = fields
        self.created = created
        self.lastModified = created
        self.description = description
        let hex = id.filter { $0 != "-" }.uppercased()
        self.contentTypeId = isLibrary ? "0x010100" + hex.prefix(16) : "0x0100" + hex.prefix(32)
        self.defaultViewFields = isLibrary ? ["DocIcon", "LinkFilename", "Modified", "Editor"] : ["LinkTitle"]
    }

    var isLibrary: Bool { baseTemplate == 101 || baseTemplate == 109 }

    /// The folder every list has below its root folder, as on a real site: `Forms` in a library (its form pages),
    /// `Attachments` in a list. It holds no files here and is not a list item.
    var subfolderURL: String { url + (isLibrary ? "/Forms" : "/Attachments") }

    var baseType: Int { isLibrary ? 1 : 0 }

    /// `_xHHHH_` escaping as SharePoint does for entity names (`Shared Documents` → `Shared_x0020_Documents`).
    static func encodeName(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            let isPlain =
                (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value >= 0x41 && scalar.value <= 0x5A)
                || (scalar.value >= 0x61 && scalar.value <= 0x7A)
            out += isPlain ? String(scalar) : "_x" + String(format: "%04x", scalar.value) + "_"
        }
        return out
    }

    func item(_ id: Int) -> ListItem? {
        if deleted.contains(id) { return nil }
        if let item = stored[id] { return item }
        if id >= 1, id <= generatedCount, let generator { return generator(id) }
        return nil
    }

    var itemCount: Int {
        generatedCount - deleted.filter { $0 <= generatedCount }.count
            + stored.keys.count(where: { $0 > generatedCount && !deleted.contains($0) })
    }

    var maxId: Int { max(generatedCount, nextId - 1) }

    func field(named name: String) -> FieldDef? {
        let lower = name.lowercased()
        if lower == "id" { return fields.first { $0.internalName == "ID" } }
        return fields.first { $0.internalName.lowercased() == lower || $0.jsonName.lowercased() == lower }
    }
}
