public import Foundation
public import JSON

/// A value that can be read from one ``ODataEntity`` of any flavour.
public protocol ODataDecodable: Sendable {
    /// Reads the value from an entity.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when a required property is missing.
    init(entity: ODataEntity) throws(SharePointError)
}

extension ODataDecodable {
    /// Decodes a response body holding one entity, in any flavour.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) for non-JSON bodies, collections or missing
    ///   required properties. Error bodies are not recognised here: check the HTTP status first and use
    ///   ``SharePointError/init(status:headers:body:url:)`` for non-2xx responses.
    public static func decode(_ data: Data) throws(SharePointError) -> Self {
        try Self(entity: try ODataDocument(data: data).entity())
    }
}

/// A web (site): `GET {site}/_api/web`. Decoding requires `Id`; other strings are empty when not selected.
public struct Web: ODataDecodable, Equatable {
    /// The web's title.
    public var title: String
    /// Absolute URL, e.g. `https://contoso.sharepoint.com/sites/team`.
    public var url: String
    /// Server-relative URL, e.g. `/sites/team`.
    public var serverRelativeUrl: String
    /// The web's id.
    public var id: String
    /// When the web was created (zone-less values read as UTC).
    public var created: Date?
    /// When an item in the web last changed.
    public var lastItemModifiedDate: Date?
    /// The signed-in user, when the request expanded `CurrentUser`.
    public var currentUser: User?
    /// Type, id and etag when the flavour carries them (`SP.Web`).
    public var metadata: EntityMetadata
    /// Every property as sent (normalised), for fields this type does not model.
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        metadata = entity.metadata
        title = entity.string("Title") ?? ""
        url = entity.string("Url") ?? ""
        serverRelativeUrl = entity.string("ServerRelativeUrl") ?? ""
        id = try entity.requiredString("Id")
        created = entity.date("Created")
        lastItemModifiedDate = entity.date("LastItemModifiedDate")
        if let user = entity.entity("CurrentUser") { currentUser = try User(entity: user) }
    }
}

/// A user (principal): `GET {site}/_api/web/currentuser`, `…/siteusers`. Decoding requires `Id`.
public struct User: ODataDecodable, Equatable {
    /// The user's id in this site collection.
    public var id: Int
    /// Display name.
    public var title: String
    /// Claims login name, e.g. `i:0#.f|membership|alice@contoso.com`.
    public var loginName: String
    /// E-mail address (empty when unknown).
    public var email: String
    /// Whether the user is a site collection administrator.
    public var isSiteAdmin: Bool
    /// SharePoint principal type (1 = user, 4 = security group, 8 = SharePoint group).
    public var principalType: Int?
    /// The user principal name, when sent.
    public var userPrincipalName: String?
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        id = try entity.requiredInt("Id")
        title = entity.string("Title") ?? ""
        loginName = entity.string("LoginName") ?? ""
        email = entity.string("Email") ?? ""
        isSiteAdmin = entity.bool("IsSiteAdmin") ?? false
        principalType = entity.int("PrincipalType")
        userPrincipalName = entity.string("UserPrincipalName")
    }
}

/// A list or library: `GET …/web/lists`, `…/lists/getbytitle('…')`. Decoding requires `Id`.
public struct ListInfo: ODataDecodable, Equatable {
    /// Display title.
    public var title: String
    /// The list's GUID (lower case, as sent).
    public var id: String
    /// Entity type name, e.g. `Shared_x0020_Documents`.
    public var entityTypeName: String?
    /// The item entity type to put in `__metadata.type` when writing items, e.g.
    /// `SP.Data.Shared_x0020_DocumentsItem`. Read it from the list; never derive it from the title.
    public var listItemEntityTypeFullName: String?
    /// Number of items (folders included).
    public var itemCount: Int?
    /// List template (100 generic list, 101 document library, …).
    public var baseTemplate: Int?
    /// Base type (0 generic list, 1 document library).
    public var baseType: Int?
    /// Whether the list is hidden from the UI.
    public var hidden: Bool?
    /// Creation time.
    public var created: Date?
    /// Last item change.
    public var lastItemModifiedDate: Date?
    /// `CurrentChangeToken.StringValue`, when sent.
    public var currentChangeToken: String?
    /// Fields, when the request expanded `Fields`.
    public var fields: [Field]?
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        id = try entity.requiredString("Id")
        title = entity.string("Title") ?? ""
        entityTypeName = entity.string("EntityTypeName")
        listItemEntityTypeFullName = entity.string("ListItemEntityTypeFullName")
        itemCount = entity.int("ItemCount")
        baseTemplate = entity.int("BaseTemplate")
        baseType = entity.int("BaseType")
        hidden = entity.bool("Hidden")
        created = entity.date("Created")
        lastItemModifiedDate = entity.date("LastItemModifiedDate")
        currentChangeToken = entity["CurrentChangeToken"]?["StringValue"]?.stringValue
        if let expanded = entity.collection("Fields") {
            var fields: [Field] = []
            for field in expanded { fields.append(try Field(entity: field)) }
            self.fields = fields
        }
    }
}

/// A field (column) of a list: `GET …/lists/getbytitle('…')/fields`. Decoding requires `InternalName`.
public struct Field: ODataDecodable, Equatable {
    /// The internal name used in item JSON, `$select` and `$filter` (e.g. `My_x0020_Field`).
    public var internalName: String
    /// Display title.
    public var title: String
    /// Type name, e.g. `Text`, `Counter`, `DateTime`, `Lookup`, `User`.
    public var typeAsString: String
    /// Numeric field kind (`SP.FieldType`), e.g. 2 = Text, 5 = Counter.
    public var fieldTypeKind: Int?
    /// The field's GUID.
    public var id: String?
    /// Hidden from forms and views (`nil` when not selected).
    public var hidden: Bool?
    /// Computed or system-managed.
    public var readOnly: Bool?
    /// Indexed: safe to `$filter` on in lists above the 5000-item threshold.
    public var indexed: Bool?
    /// Required on item forms.
    public var required: Bool?
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        internalName = try entity.requiredString("InternalName")
        title = entity.string("Title") ?? internalName
        typeAsString = entity.string("TypeAsString") ?? ""
        fieldTypeKind = entity.int("FieldTypeKind")
        id = entity.string("Id")
        hidden = entity.bool("Hidden")
        readOnly = entity.bool("ReadOnlyField")
        indexed = entity.bool("Indexed")
        required = entity.bool("Required")
    }
}

/// A list item: `GET …/items`, `…/items(7)`. Decoding requires `Id` (or `ID`).
public struct ListItem: ODataDecodable, Equatable {
    /// The item id (`Id`, or `ID` when only that was selected).
    public var id: Int
    /// The item's etag for `IF-MATCH`, e.g. `"\"4\""` (`__metadata.etag` or `odata.etag`); `nil` in nometadata.
    public var etag: String?
    /// The item entity type (`__metadata.type` / `odata.type`), e.g. `SP.Data.TasksListItem`.
    public var entityType: String?
    /// Every field as sent, in server order: internal names (`OData__UIVersionString`), lookups as `…Id`,
    /// verbose multi-value wrappers unwrapped to arrays, deferred navigation links left out.
    public var fields: [(String, JSONValue)]

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        guard let id = entity.int("Id") ?? entity.int("ID") else { throw entity.missing("Id") }
        self.id = id
        etag = entity.metadata.etag
        entityType = entity.metadata.type
        fields = entity.properties
    }

    public static func == (lhs: ListItem, rhs: ListItem) -> Bool {
        lhs.id == rhs.id && lhs.etag == rhs.etag && lhs.entityType == rhs.entityType
            && JSONValue.object(lhs.fields) == JSONValue.object(rhs.fields)
    }

    /// The value of the field with internal name `name`, or `nil` when the response did not include it.
    public subscript(name: String) -> JSONValue? {
        fields.first { $0.0 == name }?.1
    }

    /// Decodes `…/items(ID)/FieldValuesAsText` (or an expanded `FieldValuesAsText` object): each field's
    /// display text in the web's locale, in server order.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when the body is not an entity.
    public static func textValues(_ data: Data) throws(SharePointError) -> [(String, String)] {
        textValues(of: try ODataDocument(data: data).entity().properties)
    }

    /// Reads display-text pairs from the members of a `FieldValuesAsText` object (null becomes `""`).
    public static func textValues(of members: [(String, JSONValue)]) -> [(String, String)] {
        members.map { name, value in
            switch value {
            case .string(let s): return (name, s)
            case .null: return (name, "")
            default: return (name, value.description)
            }
        }
    }
}

/// A folder: `GET …/GetFolderByServerRelativeUrl('…')`, `…/Folders`. Decoding requires `Name`.
public struct Folder: ODataDecodable, Equatable {
    /// Folder name.
    public var name: String
    /// Server-relative URL (spaces unencoded, as SharePoint sends them).
    public var serverRelativeUrl: String
    /// Number of files and folders inside.
    public var itemCount: Int?
    /// The folder's unique id.
    public var uniqueId: String?
    /// Creation time.
    public var timeCreated: Date?
    /// Last modification time.
    public var timeLastModified: Date?
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        name = try entity.requiredString("Name")
        serverRelativeUrl = entity.string("ServerRelativeUrl") ?? ""
        itemCount = entity.int("ItemCount")
        uniqueId = entity.string("UniqueId")
        timeCreated = entity.date("TimeCreated")
        timeLastModified = entity.date("TimeLastModified")
    }
}

/// A file's metadata: `GET …/Files`, `…/GetFileByServerRelativeUrl('…')`, and the result of uploads.
/// Decoding requires `Name` and `Length`.
public struct File: ODataDecodable, Equatable {
    /// File name with extension.
    public var name: String
    /// Server-relative URL (spaces unencoded).
    public var serverRelativeUrl: String
    /// Size in bytes. SharePoint sends Int64 as a JSON string (`"19817"`); numbers are accepted too.
    public var length: Int64
    /// When the file was created.
    public var timeCreated: Date?
    /// When the file last changed.
    public var timeLastModified: Date?
    /// The file's unique id (a GUID, lower case).
    public var uniqueId: String?
    /// The file's ETag, e.g. `"{0A4F…},1"` (braces, version, and quotes included).
    public var etag: String?
    /// Major version number.
    public var majorVersion: Int?
    /// Minor version number.
    public var minorVersion: Int?
    /// Version label, e.g. `1.0`.
    public var uiVersionLabel: String?
    /// Title property (often empty or null).
    public var title: String?
    /// Whether and how the file is checked out (`CheckOutType`), when sent.
    public var checkOutType: CheckOutType?
    /// The comment of the last check-in (`CheckInComment`; empty when none).
    public var checkInComment: String?
    /// Who created the file, when the request expanded `Author`.
    public var author: User?
    /// Who changed it last, when the request expanded `ModifiedBy`.
    public var modifiedBy: User?
    /// Type, id and edit link when the flavour carries them (`SP.File`).
    public var metadata: EntityMetadata
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        metadata = entity.metadata
        name = try entity.requiredString("Name")
        serverRelativeUrl = entity.string("ServerRelativeUrl") ?? ""
        guard let length = entity.int64("Length") else { throw entity.missing("Length") }
        self.length = length
        timeCreated = entity.date("TimeCreated")
        timeLastModified = entity.date("TimeLastModified")
        uniqueId = entity.string("UniqueId")
        etag = entity.string("ETag")
        majorVersion = entity.int("MajorVersion")
        minorVersion = entity.int("MinorVersion")
        uiVersionLabel = entity.string("UIVersionLabel")
        title = entity.string("Title")
        checkOutType = entity.int("CheckOutType").map(CheckOutType.init(rawValue:))
        checkInComment = entity.string("CheckInComment")
        author = try entity.entity("Author").map(User.init(entity:))
        modifiedBy = try entity.entity("ModifiedBy").map(User.init(entity:))
    }
}

/// The request digest and site information: `POST {site}/_api/contextinfo`.
public struct ContextInfo: ODataDecodable, Equatable {
    /// The value to send as `X-RequestDigest` on writes made with cookies.
    public var formDigestValue: String
    /// How long the digest stays valid; refresh about a minute before it runs out.
    public var formDigestTimeoutSeconds: Int
    /// Absolute URL of the web the digest is for.
    public var webFullUrl: String?
    /// Absolute URL of the site collection.
    public var siteFullUrl: String?
    /// Server library version, e.g. `16.0.20015.12020`.
    public var libraryVersion: String?
    /// `SupportedSchemaVersions`, when sent.
    public var supportedSchemaVersions: [String]

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        // Verbose wraps the result in the function name: {"d":{"GetContextWebInformation":{…}}}.
        let info = entity.entity("GetContextWebInformation") ?? entity
        formDigestValue = try info.requiredString("FormDigestValue")
        formDigestTimeoutSeconds = try info.requiredInt("FormDigestTimeoutSeconds")
        webFullUrl = info.string("WebFullUrl")
        siteFullUrl = info.string("SiteFullUrl")
        libraryVersion = info.string("LibraryVersion")
        supportedSchemaVersions = info["SupportedSchemaVersions"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// How long to reuse this digest: the timeout minus a 60-second safety margin (never negative).
    public var reuseInterval: TimeInterval { TimeInterval(max(0, formDigestTimeoutSeconds - 60)) }
}

/// Results of chunked uploads (`StartUpload`, `ContinueUpload`) and other Int64-returning functions.
public enum UploadResult {
    /// Decodes the byte offset the server has stored: `{"value":"10485760"}` (light) or
    /// `{"d":{"StartUpload":"10485760"}}` (verbose). Int64 arrives as a decimal string; numbers are accepted.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when there is no integer value.
    public static func offset(_ data: Data) throws(SharePointError) -> Int64 {
        let value = try ODataDocument(data: data).scalar()
        guard let offset = value.int64Value else {
            throw SharePointError(unexpectedResponse: "the upload offset is not an integer: \(value.description)")
        }
        return offset
    }
}

extension ListItem {
    /// The server-relative file URL of a library item (`FileRef`; some servers name it `FileRefId` like a lookup), or
    /// nil for an item with no file.
    public var fileURL: String? {
        let value = self["FileRef"]?.stringValue ?? self["FileRefId"]?.stringValue
        return value?.isEmpty == false ? value : nil
    }
}
