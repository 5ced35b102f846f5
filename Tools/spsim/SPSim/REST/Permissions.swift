import HTTPServer

/// Role assignments (`…/roleassignments?$expand=Member,RoleDefinitionBindings`) and `…/HasUniqueRoleAssignments` of
/// the web, a list, an item, a file's or a folder's list item, as a new team site has them: the web gives its owners'
/// group Full Control, its members' group Edit and its visitors' group Read, and everything inherits from it except
/// the `Projects` list, whose inheritance is broken: it keeps the web's three and gives one user (the third, or the
/// last when fewer) Contribute. Its items inherit from it.
extension SimulatorCore {
    /// A permission level (`SP.RoleDefinition`).
    struct SimulatedRole {
        let id: Int
        let name: String
        let kind: Int
        let order: Int
        let description: String

        static let fullControl = SimulatedRole(
            id: 1_073_741_829, name: "Full Control", kind: 5, order: 1, description: "Has full control.")
        static let edit = SimulatedRole(
            id: 1_073_741_830, name: "Edit", kind: 6, order: 48,
            description: "Can add, edit and delete lists; can view, add, update and delete list items and documents.")
        static let contribute = SimulatedRole(
            id: 1_073_741_827, name: "Contribute", kind: 3, order: 64,
            description: "Can view, add, update, and delete list items and documents.")
        static let read = SimulatedRole(
            id: 1_073_741_826, name: "Read", kind: 2, order: 128,
            description: "Can view pages and list items and download documents.")
    }

    /// Who a role assignment is for: a SharePoint group (by id) or a user (by index in `users`).
    enum SimulatedPrincipal {
        case group(Int)
        case user(Int)
    }

    /// One role assignment: a principal and its permission levels.
    struct SimulatedRoleAssignment {
        let principal: SimulatedPrincipal
        let roles: [SimulatedRole]
    }

    /// The path segments below a securable object this file answers.
    static let securableProperties: Set<String> = ["roleassignments", "hasuniqueroleassignments"]

    /// The title of the one seeded list with broken inheritance.
    static let uniquePermissionsList = "Projects"

    /// The web's role assignments.
    var webRoleAssignments: [SimulatedRoleAssignment] {
        [
            SimulatedRoleAssignment(principal: .group(3), roles: [.fullControl]),
            SimulatedRoleAssignment(principal: .group(4), roles: [.edit]),
            SimulatedRoleAssignment(principal: .group(5), roles: [.read]),
        ]
    }

    /// The assignments of `list` and whether they are its own (inheritance broken).
    func roleAssignments(of list: SPList) -> (assignments: [SimulatedRoleAssignment], unique: Bool) {
        guard list.title.lowercased() == Self.uniquePermissionsList.lowercased(), !users.isEmpty else {
            return (webRoleAssignments, false)
        }
        let extra = SimulatedRoleAssignment(principal: .user(min(2, users.count - 1)), roles: [.contribute])
        return (webRoleAssignments + [extra], true)
    }

    /// `web/roleassignments`, `web/HasUniqueRoleAssignments` (a web with no parent has its own).
    func webSecurableEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        try securableEndpoint(
            [match.last] + match.rest, assignments: webRoleAssignments, unique: true, path: "Web",
            context: match.context)
    }

    /// `…/roleassignments` or `…/HasUniqueRoleAssignments` below a list.
    func listSecurableEndpoint(_ list: SPList, _ rest: [Segment], context: RESTContext) throws -> HTTPServerResponse {
        let (assignments, unique) = roleAssignments(of: list)
        return try securableEndpoint(
            rest, assignments: assignments, unique: unique, path: listPath(list), context: context)
    }

    /// The same below an item (or a file's or folder's `ListItemAllFields`): inherited from its list.
    func itemSecurableEndpoint(_ list: SPList, id: Int, _ rest: [Segment], context: RESTContext) throws
        -> HTTPServerResponse
    {
        try securableEndpoint(
            rest, assignments: roleAssignments(of: list).assignments, unique: false,
            path: listPath(list) + "/Items(\(id))", context: context)
    }

    /// `rest` starts with `roleassignments` or `HasUniqueRoleAssignments`.
    private func securableEndpoint(
        _ rest: [Segment], assignments: [SimulatedRoleAssignment], unique: Bool, path: String, context: RESTContext
    ) throws -> HTTPServerResponse {
        guard let first = rest.first, rest.count == 1 else {
            throw RESTError.invalidQuery("The expression \"\(rest.map(\.name).joined(separator: "/"))\" is not valid.")
        }
        if first.lower == "hasuniqueroleassignments" {
            switch context.flavour {
            case .verbose:
                return jsonResponse(.object([("d", .object([("HasUniqueRoleAssignments", .bool(unique))]))]), context)
            case .nometadata: return jsonResponse(.object([("value", .bool(unique))]), context)
            case .minimal, .atom:
                return jsonResponse(
                    .object([
                        ("odata.metadata", .string(context.site + "/_api/$metadata#Edm.Boolean")),
                        ("value", .bool(unique)),
                    ]), context)
            }
        }
        let entries = assignments.map { roleAssignmentEntity($0, path: path, context) }
        return jsonResponse(collection(entries, set: "SP.RoleAssignment", next: nil, context: context), context)
    }

    /// An `SP.RoleAssignment`, with `Member` and `RoleDefinitionBindings` when the query expands them.
    private func roleAssignmentEntity(_ assignment: SimulatedRoleAssignment, path: String, _ context: RESTContext)
        -> JSON
    {
        let principalId: Int
        let member: JSON
        switch assignment.principal {
        case .group(let id):
            principalId = id
            member = siteGroups.first { $0.id == id }.map { groupEntity($0, context, top: false) } ?? .null
        case .user(let index):
            principalId = spUserId(index)
            member = userEntity(index, context, top: false)
        }
        var expanded: [(String, JSON)] = []
        if context.query.expands("Member") { expanded.append(("Member", member)) }
        if context.query.expands("RoleDefinitionBindings") {
            let roles = assignment.roles.map { roleDefinitionEntity($0, context) }
            expanded.append(
                (
                    "RoleDefinitionBindings",
                    context.flavour == .verbose ? .object([("results", .array(roles))]) : .array(roles)
                ))
        }
        return entity(
            type: "SP.RoleAssignment", path: path + "/RoleAssignments/GetByPrincipalId(\(principalId))",
            set: "SP.RoleAssignment", props: [("PrincipalId", .int(principalId))],
            deferred: ["Member", "RoleDefinitionBindings"], context: context, top: false, expanded: expanded)
    }

    /// An `SP.RoleDefinition`.
    private func roleDefinitionEntity(_ role: SimulatedRole, _ context: RESTContext) -> JSON {
        entity(
            type: "SP.RoleDefinition", path: "Web/RoleDefinitions(\(role.id))", set: "SP.RoleDefinition",
            props: [
                (
                    "BasePermissions",
                    complex("SP.BasePermissions", [("High", .string("432")), ("Low", .string("1011030767"))], context)
                ),
                ("Description", .string(role.description)), ("Hidden", .bool(false)), ("Id", .int(role.id)),
                ("Name", .string(role.name)), ("Order", .int(role.order)), ("RoleTypeKind", .int(role.kind)),
            ], deferred: [], context: context, top: false)
    }
}

/// The endpoints answered in this file (every `RESTRoute` declared so is routed; see `RESTRoutes.swift`).
extension RESTRoute {
    static let webRoleAssignments = RESTRoute("web/roleassignments/**") { try $0.webSecurableEndpoint($1) }
    static let webHasUniqueRoleAssignments = RESTRoute("web/hasuniqueroleassignments") {
        try $0.webSecurableEndpoint($1)
    }
}
