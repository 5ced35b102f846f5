/// A SharePoint group of the site: `GET {site}/_api/web/sitegroups`, `…/currentuser/groups`. Decoding requires `Id`.
public struct SiteGroup: ODataDecodable, Equatable {
    /// The group's id in this site collection.
    public var id: Int
    /// The group's name, e.g. `Team Site Members`.
    public var title: String
    /// The description (empty when none).
    public var description: String
    /// The name of the group's owner (a user or a group).
    public var ownerTitle: String
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        id = try entity.requiredInt("Id")
        title = entity.string("Title") ?? ""
        description = entity.string("Description") ?? ""
        ownerTitle = entity.string("OwnerTitle") ?? ""
    }
}

extension API {
    /// `/_api/web/siteusers`.
    public static let siteUsers = web.appending("siteusers")
    /// `/_api/web/sitegroups`.
    public static let siteGroups = web.appending("sitegroups")
    /// `/_api/web/currentuser/groups`.
    public static let currentUserGroups = currentUser.appending("groups")

    /// `/_api/web/sitegroups/getbyid(N)/users`.
    public static func groupMembers(id: Int) -> RESTPath {
        siteGroups.appending("getbyid(\(id))").appending("users")
    }
}

extension SharePointSite {
    /// Every user of the site (all pages): `GET /_api/web/siteusers`.
    public func siteUsers() async throws(SharePointError) -> [User] {
        try await collect(API.siteUsers, query: ODataQuery())
    }

    /// Every SharePoint group of the site (all pages): `GET /_api/web/sitegroups`.
    public func siteGroups() async throws(SharePointError) -> [SiteGroup] {
        try await collect(API.siteGroups, query: ODataQuery())
    }

    /// The users of one group (all pages): `GET /_api/web/sitegroups/getbyid(N)/users`.
    public func groupMembers(groupID: Int) async throws(SharePointError) -> [User] {
        try await collect(API.groupMembers(id: groupID), query: ODataQuery())
    }

    /// The groups the signed-in user belongs to (all pages): `GET /_api/web/currentuser/groups`.
    public func currentUserGroups() async throws(SharePointError) -> [SiteGroup] {
        try await collect(API.currentUserGroups, query: ODataQuery())
    }
}
