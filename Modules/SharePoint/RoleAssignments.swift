import Foundation
import JSON

/// A permission level: `SP.RoleDefinition` (`Full Control`, `Edit`, `Read`…). Decoding requires `Name`.
public struct RoleDefinition: ODataDecodable, Equatable {
    /// The id in this site collection, e.g. `1073741829` for Full Control.
    public var id: Int?
    /// The name, e.g. `Full Control`.
    public var name: String
    /// `SP.RoleType`: 2 Reader, 3 Contributor, 4 WebDesigner, 5 Administrator, 6 Editor, 0 none (custom levels).
    public var roleTypeKind: Int?
    /// The description (empty when none).
    public var description: String
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        name = try entity.requiredString("Name")
        id = entity.int("Id")
        roleTypeKind = entity.int("RoleTypeKind")
        description = entity.string("Description") ?? ""
    }
}

/// Who a role assignment is for (`SP.Principal`: a user, a security group or a SharePoint group).
public struct Principal: Equatable, Sendable {
    /// The principal's id in this site collection.
    public var id: Int
    /// The display name (a person's name, a group's name).
    public var title: String
    /// The login name (the claims login of a user, the name of a SharePoint group).
    public var loginName: String
    /// `SP.PrincipalType`: 1 user, 2 distribution list, 4 security group, 8 SharePoint group.
    public var principalType: Int?

    /// The principal type as a word: `user`, `distribution list`, `security group`, `SharePoint group`, or the
    /// number when SharePoint sends another one.
    public var typeName: String {
        switch principalType {
        case 1: "user"
        case 2: "distribution list"
        case 4: "security group"
        case 8: "SharePoint group"
        case let other?: String(other)
        case nil: ""
        }
    }
}

/// One role assignment of a securable object (web, list, item): `GET …/roleassignments?$expand=Member,
/// RoleDefinitionBindings` (`SP.RoleAssignment`). Decoding requires `PrincipalId`; without the expansion the member
/// has only its id and the roles are empty.
public struct RoleAssignment: ODataDecodable, Equatable {
    /// The principal's id.
    public var principalId: Int
    /// The user or group, from the expanded `Member`.
    public var member: Principal
    /// The permission levels given, from the expanded `RoleDefinitionBindings`, in server order.
    public var roles: [RoleDefinition]
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        principalId = try entity.requiredInt("PrincipalId")
        let member = entity.entity("Member")
        self.member = Principal(
            id: member?.int("Id") ?? principalId, title: member?.string("Title") ?? "",
            loginName: member?.string("LoginName") ?? "", principalType: member?.int("PrincipalType"))
        var roles: [RoleDefinition] = []
        for role in entity.collection("RoleDefinitionBindings") ?? [] { roles.append(try RoleDefinition(entity: role)) }
        self.roles = roles
    }
}

/// The permissions of one securable object: its role assignments and whether they are its own.
public struct Permissions: Equatable, Sendable {
    /// `HasUniqueRoleAssignments`: true when inheritance is broken (the object has its own assignments), false when
    /// they are its parent's, nil when SharePoint did not say (see ``SharePointSite/permissions(of:)``).
    public var hasUniqueRoleAssignments: Bool?
    /// The role assignments, in server order.
    public var assignments: [RoleAssignment]
}

extension API {
    /// `/_api/web/roleassignments`: the web's role assignments.
    public static let webRoleAssignments = web.appending("roleassignments")
}

extension FolderPath {
    /// `…/ListItemAllFields`: the folder's list item (what holds a folder's permissions).
    public var listItemAllFields: RESTPath { path.appending("ListItemAllFields") }
}

extension SharePointSite {
    /// The role assignments of the securable object at `path` (the web `/_api/web`, a list, an item, a file's or a
    /// folder's `ListItemAllFields`), every page: `GET …/roleassignments?$expand=Member,RoleDefinitionBindings`.
    /// A missing object throws its "not found" kind.
    public func roleAssignments(of path: RESTPath) async throws(SharePointError) -> [RoleAssignment] {
        try await collect(
            path.appending("roleassignments"), query: ODataQuery(expand: ["Member", "RoleDefinitionBindings"]))
    }

    /// Whether the securable object at `path` has its own role assignments (inheritance broken):
    /// `GET …/HasUniqueRoleAssignments` (`{"value":true}`; verbose `{"d":{"HasUniqueRoleAssignments":true}}`).
    public func hasUniqueRoleAssignments(of path: RESTPath) async throws(SharePointError) -> Bool {
        let url = path.appending("HasUniqueRoleAssignments").url(site: siteURL)
        let response = try await perform(.read(self, url))
        do throws(SharePointError) {
            guard let value = try ODataDocument(data: Data(response.body)).scalar().boolValue else {
                throw SharePointError(unexpectedResponse: "HasUniqueRoleAssignments is not a Boolean")
            }
            return value
        } catch {
            throw error.at(url)
        }
    }

    /// Both: ``roleAssignments(of:)`` first (its failure is the call's), then ``hasUniqueRoleAssignments(of:)``.
    /// When only the second fails with an answer about that one request (not found, bad request, an unexpected
    /// body: a server or gateway that does not serve the property) the assignments are still returned, with
    /// ``Permissions/hasUniqueRoleAssignments`` nil; any other failure (the session, the network, throttling) is
    /// thrown.
    public func permissions(of path: RESTPath) async throws(SharePointError) -> Permissions {
        let assignments = try await roleAssignments(of: path)
        do {
            return Permissions(
                hasUniqueRoleAssignments: try await hasUniqueRoleAssignments(of: path), assignments: assignments)
        } catch  where [.notFound, .fileNotFound, .badRequest, .unexpectedResponse].contains(error.kind) {
            return Permissions(hasUniqueRoleAssignments: nil, assignments: assignments)
        }
    }
}
