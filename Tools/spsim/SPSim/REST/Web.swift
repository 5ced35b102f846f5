import Foundation
import HTTPServer

/// The REST endpoints of the site and the web (`RESTRoutes.swift` routes to them): `contextinfo`, `site`, `web`, its
/// people (`currentuser`, `siteusers`, `getuserbyid(N)`) and the claims login names each mode gives a user, and the
/// lookups of lists, folders and files that hand on to their walkers.
extension SimulatorCore {
    /// `contextinfo` (POST only): the form digest writes need.
    func contextInfoEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        guard match.context.request.method == "POST" else {
            throw RESTError(
                status: 405, code: "-1, System.InvalidOperationException",
                message:
                    "The HTTP method 'GET' cannot be used to access the resource 'GetContextWebInformation'. The operation type of the resource is specified as 'Default'. Please use correct HTTP method to invoke the resource."
            )
        }
        return jsonResponse(contextInfo(match.context), match.context)
    }

    /// `site`: the site collection (whatever follows is ignored).
    func siteEndpoint(_ match: RESTMatch) -> HTTPServerResponse {
        let context = match.context
        return jsonResponse(
            entity(
                type: "SP.Site", path: "Site", set: "SP.Site",
                props: [
                    ("Id", .string(siteId)), ("ServerRelativeUrl", .string(webRootFolder)),
                    ("Url", .string(context.site)),
                ], deferred: ["RootWeb"], context: context, top: true), context)
    }

    /// `web/currentuser` (the signed-in user; an app-only token has none) and `web/currentuser/groups`.
    func currentUserEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        guard let user = match.context.user else {
            throw RESTError(
                status: 403, code: "-2147024891, System.UnauthorizedAccessException",
                message: "Access denied. You do not have permission to perform this action or access this resource.")
        }
        if match.rest.first?.lower == "groups" { return currentUserGroups(user, match.context) }
        return jsonResponse(userEntity(user, match.context, top: true), match.context)
    }

    /// `web/siteusers`: every simulated user.
    func siteUsersEndpoint(_ match: RESTMatch) -> HTTPServerResponse {
        let context = match.context
        let entries = users.indices.map { userEntity($0, context, top: false) }
        return jsonResponse(collection(entries, set: "SP.ApiData.Users", next: nil, context: context), context)
    }

    /// `web/getuserbyid(N)`.
    func userByIdEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        let id = Int(match.last.argument ?? "") ?? -1
        guard users.indices.contains(id - 10) else {
            throw RESTError(
                status: 500, code: "-2146232832, Microsoft.SharePoint.SPException", message: "User cannot be found.")
        }
        return jsonResponse(userEntity(id - 10, match.context, top: true), match.context)
    }

    /// `web/lists` (the collection, or a new list on POST), `web/lists(guid'…')`, `web/lists/getbytitle('…')` and
    /// `web/lists/getbyid('…')`, with whatever follows the list.
    func listsEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        let (lists, tail, method, context) = (match.last, match.rest, match.method, match.context)
        if let argument = lists.guidArgument, lists.argument != nil {
            return try routeList(try list(byId: argument), tail, method: method, context: context)
        }
        if let sub = tail.first {
            if sub.lower == "getbytitle", let title = sub.stringArgument {
                return try routeList(
                    try list(byTitle: title, context: context), Array(tail.dropFirst()), method: method,
                    context: context)
            }
            if sub.lower == "getbyid", let id = sub.guidArgument {
                return try routeList(try list(byId: id), Array(tail.dropFirst()), method: method, context: context)
            }
            throw RESTError.invalidQuery("The expression \"web/lists/\(sub.name)\" is not valid.")
        }
        if method == "POST" { return try createList(context) }
        return jsonResponse(listsCollection(context), context)
    }

    /// `web/GetList('/Lists/Tasks')`: a list by its server-relative URL.
    func listByURLEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        let url = match.last.stringArgument ?? ""
        guard let found = state.withLock({ state in state.lists.first { $0.url.lowercased() == url.lowercased() } })
        else { throw RESTError.notFound("File Not Found.") }
        return try routeList(found, match.rest, method: match.method, context: match.context)
    }

    /// `web/GetFolderByServerRelativeUrl('…')` (`percentEncoded`) and `…Path(decodedurl='…')`.
    func folderByPathEndpoint(_ match: RESTMatch, percentEncoded: Bool) throws -> HTTPServerResponse {
        let url = try serverRelativePath(match.last.stringArgument ?? "", percentEncoded: percentEncoded)
        return try routeFolder(url, match.rest, method: match.method, context: match.context)
    }

    /// `web/GetFileByServerRelativeUrl('…')` (`percentEncoded`) and `…Path(decodedurl='…')`.
    func fileByPathEndpoint(_ match: RESTMatch, percentEncoded: Bool) throws -> HTTPServerResponse {
        let url = try serverRelativePath(match.last.stringArgument ?? "", percentEncoded: percentEncoded)
        guard let file = fileByURL(url) else {
            throw RESTError(
                status: 404, code: "-2130575338, Microsoft.SharePoint.SPException",
                message: "The file \(url) does not exist.")
        }
        return try routeFile(file, match.rest, method: match.method, context: match.context)
    }

    /// `web/getFileById('…')`.
    func fileByIdEndpoint(_ match: RESTMatch) throws -> HTTPServerResponse {
        let id = match.last.guidArgument ?? ""
        guard let file = state.withLock({ state in state.files.first { $0.uniqueId == id } }) else {
            throw RESTError(
                status: 404, code: "-2147024894, System.IO.FileNotFoundException", message: "File Not Found.")
        }
        return try routeFile(file, match.rest, method: match.method, context: match.context)
    }

    func contextInfo(_ context: RESTContext) -> JSON {
        let now = nowEpoch()
        let lifetime = options.faults.digestLifetimeSeconds
        let digest = "0x" + Tokens.hex(bytes: 64) + "," + CivilTime(now).digest
        state.withLock { $0.digests[digest] = now + lifetime }
        let props: [(String, JSON)] = [
            ("FormDigestTimeoutSeconds", .int(lifetime)), ("FormDigestValue", .string(digest)),
            ("LibraryVersion", .string("16.0.26000.12004")), ("SiteFullUrl", .string(context.site)),
            ("SupportedSchemaVersions", stringCollection(["14.0.0.0", "15.0.0.0"], context)),
            ("WebFullUrl", .string(context.site)),
        ]
        switch context.flavour {
        case .verbose:
            return .object([
                (
                    "d",
                    .object([
                        (
                            "GetContextWebInformation",
                            .object([("__metadata", .object([("type", .string("SP.ContextWebInformation"))]))] + props)
                        )
                    ])
                )
            ])
        case .minimal, .atom:
            return .object(
                [("odata.metadata", .string(context.site + "/_api/$metadata#SP.ContextWebInformation"))] + props)
        case .nometadata:
            return .object(props)
        }
    }

    func webEntity(_ context: RESTContext, top: Bool) -> JSON {
        let lastModified = state.withLock { state in state.lists.map(\.lastModified).max() ?? SiteContent.baseEpoch }
        var expanded: [(String, JSON)] = []
        if top, context.query.expands("CurrentUser"), let user = context.user {
            expanded.append(("CurrentUser", userEntity(user, context, top: false)))
        }
        return entity(
            type: "SP.Web", path: "Web", set: "SP.Web",
            props: [
                ("AllowRssFeeds", .bool(true)), ("Configuration", .int(0)),
                ("Created", .string(CivilTime(SiteContent.baseEpoch - 86400 * 30).iso)),
                (
                    "CurrentChangeToken",
                    complex(
                        "SP.ChangeToken", [("StringValue", .string(currentChangeToken(scope: 2, id: webId)))], context)
                ),
                ("Description", .string("Simulated SharePoint team site")), ("Id", .string(webId)),
                ("IsMultilingual", .bool(true)), ("Language", .int(1033)),
                ("LastItemModifiedDate", .string(CivilTime(lastModified).iso)),
                ("ServerRelativeUrl", .string(webRootFolder)), ("Title", .string(webTitle)), ("UIVersion", .int(15)),
                ("Url", .string(context.site)), ("WebTemplate", .string("STS")),
            ],
            deferred: [
                "AllProperties", "CurrentUser", "Fields", "Folders", "Lists", "RootFolder", "SiteUsers", "Webs",
            ], context: context, top: top, expanded: expanded)
    }

    func claimsLogin(_ user: Int) -> String {
        switch options.mode {
        case .adfs: return "i:05.t|adfs|" + users[user].email
        case .fba, .fbaWindows: return "i:0#.f|fbamembership|" + users[user].accountName
        case .basic: return "i:0#.w|contoso\\" + users[user].accountName
        default: return "i:0#.f|membership|" + users[user].email
        }
    }

    func userEntity(_ user: Int, _ context: RESTContext, top: Bool) -> JSON {
        let id = spUserId(user)
        let email = users[user].email
        return entity(
            type: "SP.User", path: "Web/GetUserById(\(id))", set: "SP.User",
            props: [
                ("Id", .int(id)), ("IsHiddenInUI", .bool(false)), ("LoginName", .string(claimsLogin(user))),
                ("Title", .string(users[user].displayName)), ("PrincipalType", .int(1)), ("Email", .string(email)),
                ("Expiration", .string("")), ("IsEmailAuthenticationGuestUser", .bool(false)),
                ("IsShareByEmailGuestUser", .bool(false)), ("IsSiteAdmin", .bool(user == 0)),
                (
                    "UserId",
                    complex(
                        "SP.UserIdInfo",
                        [
                            (
                                "NameId",
                                .string(String(format: "1003%012llx", mix(options.seed, email) & 0xFFFF_FFFF_FFFF))
                            ),
                            ("NameIdIssuer", .string("urn:federation:microsoftonline")),
                        ], context)
                ),
                ("UserPrincipalName", .string(email)),
            ], deferred: ["Alerts", "Groups"], context: context, top: top)
    }
}

/// The endpoints answered in this file (every `RESTRoute` declared so is routed; see `RESTRoutes.swift`).
extension RESTRoute {
    static let contextInfo = RESTRoute("contextinfo/**") { try $0.contextInfoEndpoint($1) }
    static let site = RESTRoute("site/**") { $0.siteEndpoint($1) }
    static let web = RESTRoute("web") { $0.jsonResponse($0.webEntity($1.context, top: true), $1.context) }
    static let currentUser = RESTRoute("web/currentuser/**") { try $0.currentUserEndpoint($1) }
    static let siteUsers = RESTRoute("web/siteusers/**") { $0.siteUsersEndpoint($1) }
    static let userById = RESTRoute("web/getuserbyid/**") { try $0.userByIdEndpoint($1) }
    static let lists = RESTRoute("web/lists/**") { try $0.listsEndpoint($1) }
    static let listByURL = RESTRoute("web/getlist/**") { try $0.listByURLEndpoint($1) }
    static let folderByURL = RESTRoute("web/getfolderbyserverrelativeurl/**") {
        try $0.folderByPathEndpoint($1, percentEncoded: true)
    }
    static let folderByPath = RESTRoute("web/getfolderbyserverrelativepath/**") {
        try $0.folderByPathEndpoint($1, percentEncoded: false)
    }
    static let fileByURL = RESTRoute("web/getfilebyserverrelativeurl/**") {
        try $0.fileByPathEndpoint($1, percentEncoded: true)
    }
    static let fileByPath = RESTRoute("web/getfilebyserverrelativepath/**") {
        try $0.fileByPathEndpoint($1, percentEncoded: false)
    }
    static let fileById = RESTRoute("web/getfilebyid/**") { try $0.fileByIdEndpoint($1) }
}
