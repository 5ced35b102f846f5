import HTTPServer

/// The site's SharePoint groups (`web/sitegroups`, `…/getbyid(N)/users`, `…/getbyname('…')/users`) and the signed-in
/// user's (`web/currentuser/groups`), as SharePoint answers them. The three default groups of a team site: the
/// first user owns the site, every user but the last is a member, the last one a visitor.
extension SimulatorCore {
    /// One simulated group: its id, title, description and the indices of its users.
    struct SimulatedGroup {
        let id: Int
        let title: String
        let description: String
        let members: [Int]
    }

    /// The groups, in id order.
    var siteGroups: [SimulatedGroup] {
        let everyone = Array(users.indices)
        return [
            SimulatedGroup(id: 3, title: "Team Site Owners", description: "Full control", members: [0]),
            SimulatedGroup(
                id: 4, title: "Team Site Members", description: "Can edit", members: Array(everyone.dropLast())),
            SimulatedGroup(id: 5, title: "Team Site Visitors", description: "Can read", members: everyone.suffix(1)),
        ]
    }

    /// `web/sitegroups`, `web/sitegroups/getbyid(N)[/users]`, `web/sitegroups/getbyname('…')[/users]`.
    func siteGroupsEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        let context = match.context
        guard let selector = match.rest.first else {
            return jsonResponse(
                collection(
                    siteGroups.map { groupEntity($0, context, top: false) }, set: "SP.Group", next: nil,
                    context: context), context)
        }
        let group: SimulatedGroup?
        switch selector.lower {
        case "getbyid": group = siteGroups.first { $0.id == Int(selector.argument ?? "") }
        case "getbyname":
            group = siteGroups.first { $0.title.lowercased() == selector.stringArgument?.lowercased() }
        default: throw RESTError.invalidQuery("The expression \"web/sitegroups/\(selector.name)\" is not valid.")
        }
        guard let group else {
            throw RESTError(
                status: 404, code: "-2146232832, Microsoft.SharePoint.SPException", message: "Group cannot be found.")
        }
        guard match.rest.count > 1 else { return jsonResponse(groupEntity(group, context, top: true), context) }
        guard match.rest[1].lower == "users" else {
            throw RESTError.invalidQuery("The expression \"\(match.rest[1].name)\" is not valid.")
        }
        let members = group.members.map { userEntity($0, context, top: false) }
        return jsonResponse(collection(members, set: "SP.User", next: nil, context: context), context)
    }

    /// `web/currentuser/groups`: the groups the signed-in user belongs to.
    func currentUserGroups(_ user: Int, _ context: RESTContext) -> HTTPServerResponse {
        let groups = siteGroups.filter { $0.members.contains(user) }.map { groupEntity($0, context, top: false) }
        return jsonResponse(collection(groups, set: "SP.Group", next: nil, context: context), context)
    }

    /// An `SP.Group` entity; its owner is the owners' group, as on a new team site.
    func groupEntity(_ group: SimulatedGroup, _ context: RESTContext, top: Bool) -> JSON {
        entity(
            type: "SP.Group", path: "Web/SiteGroups/GetById(\(group.id))", set: "SP.Group",
            props: [
                ("Id", .int(group.id)), ("IsHiddenInUI", .bool(false)), ("LoginName", .string(group.title)),
                ("Title", .string(group.title)), ("PrincipalType", .int(8)),
                ("AllowMembersEditMembership", .bool(false)), ("AllowRequestToJoinLeave", .bool(false)),
                ("AutoAcceptRequestToJoinLeave", .bool(false)), ("Description", .string(group.description)),
                ("OnlyAllowMembersViewMembership", .bool(false)), ("OwnerTitle", .string("Team Site Owners")),
                ("RequestToJoinLeaveEmailSetting", .string("")),
            ], deferred: ["Owner", "Users"], context: context, top: top)
    }
}

/// The endpoints answered in this file (every `RESTRoute` declared so is routed; see `RESTRoutes.swift`).
extension RESTRoute {
    static let siteGroups = RESTRoute("web/sitegroups/**") { try $0.siteGroupsEndpoint($1) }
}
