/// A content type of a list or of the site: `GET {site}/_api/web/lists/getbytitle('…')/contenttypes`,
/// `GET {site}/_api/web/contenttypes` (`SP.ContentType`).
/// Decoding requires `Name`; the id is `Id.StringValue` (or `StringId`, which SharePoint Online also sends).
public struct ContentType: ODataDecodable, Equatable {
    /// The content type id, e.g. `0x0100…` (a list's Item), `0x0101…` (Document), `0x0120…` (Folder).
    public var id: String
    /// The name, e.g. `Item`, `Document`, `Folder`.
    public var name: String
    /// The description (empty when none).
    public var description: String
    /// The group it is filed under, e.g. `List Content Types`.
    public var group: String
    /// Whether the content type is hidden from the "New" menu.
    public var hidden: Bool
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        name = try entity.requiredString("Name")
        id = entity.entity("Id")?.string("StringValue") ?? entity.string("StringId") ?? ""
        description = entity.string("Description") ?? ""
        group = entity.string("Group") ?? ""
        hidden = entity.bool("Hidden") ?? false
    }
}

extension ListPath {
    /// `…/contenttypes`: the list's content types.
    public var contentTypes: RESTPath { path.appending("contenttypes") }
}

extension API {
    /// `/_api/web/contenttypes`: the site's content types.
    public static let webContentTypes = web.appending("contenttypes")
}

extension SharePointSite {
    /// The site's content types (all pages): `GET /_api/web/contenttypes`.
    public func webContentTypes() async throws(SharePointError) -> [ContentType] {
        try await collect(API.webContentTypes, query: ODataQuery())
    }

    /// The content types of a list (all pages): `GET …/contenttypes`. A missing list →
    /// ``SharePointError/Kind/listNotFound``.
    public func contentTypes(of list: ListPath) async throws(SharePointError) -> [ContentType] {
        try await collect(list.contentTypes, query: ODataQuery())
    }
}
