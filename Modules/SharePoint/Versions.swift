public import Foundation
public import JSON

/// An earlier version of a file: `GET …/GetFileByServerRelativeUrl('…')/Versions` (`SP.FileVersion`). SharePoint
/// lists only the versions before the current one, oldest first; the current version is the file itself.
/// Decoding requires `VersionLabel`.
public struct FileVersion: ODataDecodable, Equatable {
    /// The version's id: 512 × major + minor (`512` is `1.0`, `1025` is `2.1`).
    public var id: Int?
    /// The version label, e.g. `1.0`.
    public var label: String
    /// When this version was saved.
    public var created: Date?
    /// Size in bytes (`Length`, an Int64 sent as a string; older servers send only `Size`).
    public var length: Int64?
    /// Whether this is the current version (SharePoint sends `false` for every entry of `Versions`).
    public var isCurrent: Bool
    /// The check-in comment (empty when none).
    public var checkInComment: String
    /// The version's address relative to the site, e.g. `_vti_history/512/Shared Documents/a.docx`.
    public var url: String?
    /// Who saved it, when the request expanded `CreatedBy`.
    public var createdBy: User?
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        label = try entity.requiredString("VersionLabel")
        id = entity.int("ID") ?? entity.int("Id")
        created = entity.date("Created")
        length = entity.int64("Length") ?? entity.int64("Size")
        isCurrent = entity.bool("IsCurrentVersion") ?? false
        checkInComment = entity.string("CheckInComment") ?? ""
        url = entity.string("Url")
        if let user = entity.entity("CreatedBy") { createdBy = try User(entity: user) }
    }
}

/// A version of a list item: `GET …/items(ID)/Versions` (`SP.ListItemVersion`), newest first, the current version
/// included. Each version carries the item's field values as they were then, under their internal names. Decoding
/// requires `VersionLabel`.
public struct ItemVersion: ODataDecodable, Equatable {
    /// The version's id: 512 × major + minor.
    public var id: Int?
    /// The version label, e.g. `2.0`.
    public var label: String
    /// When this version was saved.
    public var created: Date?
    /// Whether this is the item as it is now.
    public var isCurrent: Bool
    /// Who saved it: the expanded `CreatedBy`'s name, else the `Editor` value's `LookupValue` as versions send it.
    public var createdBy: String?
    /// The field values of this version (everything but the version's own properties), in server order.
    public var fields: [(String, JSONValue)]
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// The version's own properties, left out of ``fields``.
    static let ownProperties: Set<String> = ["VersionId", "VersionLabel", "IsCurrentVersion", "Created", "CreatedBy"]

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        label = try entity.requiredString("VersionLabel")
        id = entity.int("VersionId")
        created = entity.date("Created")
        isCurrent = entity.bool("IsCurrentVersion") ?? false
        createdBy =
            entity.entity("CreatedBy")?.string("Title") ?? entity["Editor"]?["LookupValue"]?.stringValue
        fields = entity.properties.filter { !ItemVersion.ownProperties.contains($0.0) }
    }

    public static func == (lhs: ItemVersion, rhs: ItemVersion) -> Bool { lhs.entity == rhs.entity }
}

extension SharePointSite {
    /// A file's earlier versions, oldest first: `GET …/GetFileByServerRelativeUrl('…')/Versions?$expand=CreatedBy`.
    /// The current version is not among them (read it with ``fileProperties(serverRelativeURL:)``). A missing file →
    /// ``SharePointError/Kind/fileNotFound``.
    public func fileVersions(serverRelativeURL: String) async throws(SharePointError) -> [FileVersion] {
        try await collect(
            API.file(serverRelativeUrl: serverRelativeURL).versions, query: ODataQuery(expand: ["CreatedBy"]))
    }

    /// An item's versions, newest first, the current one included: `GET …/items(ID)/Versions`. A missing item →
    /// ``SharePointError/Kind/itemNotFound``.
    public func itemVersions(in list: ListPath, id: Int) async throws(SharePointError) -> [ItemVersion] {
        try await collect(list.item(id).versions, query: ODataQuery())
    }
}
