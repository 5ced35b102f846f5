import HTTPServer

/// One `/_api` endpoint: the effective method it answers (nil: any), the leading segment names it answers, and the
/// handler. Segment names compare case-insensitively and without their arguments (`lists(guid'…')` is `lists`).
struct RESTRoute: Sendable {
    typealias Handler = @Sendable (SimulatorCore, RESTMatch) throws -> HTTPServerResponse

    let method: String?
    /// Lower-cased names, `*` standing for any one.
    let names: [String]
    /// Whether segments may follow the names (the pattern ends in `/**`).
    let allowsMore: Bool
    let handler: Handler

    /// `pattern` is segment names separated by `/`, `*` for any one, ending in `/**` when any number of segments
    /// (none included) may follow: `web/lists/**`, `web/*/**`.
    init(_ pattern: String, _ handler: @escaping Handler) {
        self.init(method: nil, pattern, handler)
    }

    /// A route for the effective `method` (`POST`, `MERGE`) only.
    init(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        self.init(method: method, pattern, handler)
    }

    private init(method: String?, _ pattern: String, _ handler: @escaping Handler) {
        var names = pattern.lowercased().split(separator: "/").map(String.init)
        allowsMore = names.last == "**"
        if allowsMore { names.removeLast() }
        self.method = method
        self.names = names
        self.handler = handler
    }

    func fits(_ segments: [Segment], method: String) -> Bool {
        if let wanted = self.method, wanted != method { return false }
        guard segments.count == names.count || (allowsMore && segments.count > names.count) else { return false }
        return zip(names, segments).allSatisfy { $0 == "*" || $0 == $1.lower }
    }
}

/// A REST request matched by a route: what the handler needs to answer it.
struct RESTMatch {
    let context: RESTContext
    /// The effective method (`X-HTTP-Method` on POST wins).
    let method: String
    /// The path after `/_api` (`/web/lists`).
    let apiPath: String
    /// The segments the route's names matched.
    let matched: [Segment]
    /// The segments after them.
    let rest: [Segment]

    /// The route's last segment (its argument: `getbytitle('Tasks')`).
    var last: Segment { matched[matched.count - 1] }
}

extension SimulatorCore {
    /// Every endpoint below `/_api` after the gate (`RESTGate.swift`), checked in order; an endpoint more is one
    /// entry. Below a list, a file or a folder the object model's own walkers take over (`routeList`, `routeItem`,
    /// `routeFile`, `routeFolder`).
    static let restRoutes: [RESTRoute] = [
        RESTRoute("contextinfo/**") { try $0.contextInfoEndpoint($1) },
        RESTRoute("$batch/**") { try $0.batch($1.context) },
        RESTRoute("site/**") { $0.siteEndpoint($1) },
        RESTRoute("search/query/**") { try $0.searchQuery($1) },
        RESTRoute("web") { $0.jsonResponse($0.webEntity($1.context, top: true), $1.context) },
        RESTRoute("web/currentuser/**") { try $0.currentUserEndpoint($1) },
        RESTRoute("web/siteusers/**") { $0.siteUsersEndpoint($1) },
        RESTRoute("web/sitegroups/**") { try $0.siteGroupsEndpoint($1) },
        RESTRoute("web/getuserbyid/**") { try $0.userByIdEndpoint($1) },
        RESTRoute("web/ensureuser/**") { try $0.ensureUser($1.context) },
        RESTRoute("web/getchanges") { try $0.webChangesEndpoint($1) },
        RESTRoute("web/lists/getchanges") { try $0.listChangesEndpoint($1) },
        RESTRoute("web/lists/*/getchanges") { try $0.listChangesEndpoint($1) },
        RESTRoute("web/lists/**") { try $0.listsEndpoint($1) },
        RESTRoute("web/getlist/**") { try $0.listByURLEndpoint($1) },
        RESTRoute("web/rootfolder/**") {
            try $0.routeFolder($0.webRootFolder, $1.rest, method: $1.method, context: $1.context)
        },
        RESTRoute("web/folders/**") {
            try $0.routeFolder(
                $0.webRootFolder, [Segment(name: "Folders")] + $1.rest, method: $1.method, context: $1.context)
        },
        RESTRoute("web/getfolderbyserverrelativeurl/**") { try $0.folderByPathEndpoint($1, percentEncoded: true) },
        RESTRoute("web/getfolderbyserverrelativepath/**") { try $0.folderByPathEndpoint($1, percentEncoded: false) },
        RESTRoute("web/getfilebyserverrelativeurl/**") { try $0.fileByPathEndpoint($1, percentEncoded: true) },
        RESTRoute("web/getfilebyserverrelativepath/**") { try $0.fileByPathEndpoint($1, percentEncoded: false) },
        RESTRoute("web/getfilebyid/**") { try $0.fileByIdEndpoint($1) },
        RESTRoute("web/recyclebin/**") { $0.recycleBinEndpoint($1) },
        RESTRoute("web/roleassignments/**") { try $0.webSecurableEndpoint($1) },
        RESTRoute("web/hasuniqueroleassignments") { try $0.webSecurableEndpoint($1) },
        RESTRoute("web/contenttypes/**") { try $0.webContentTypesEndpoint($1) },
        RESTRoute("web/*/**") { _, match in
            throw RESTError.invalidQuery(
                "The property '\(match.last.name)' does not exist on type 'SP.Web'. Make sure to only use property names that are defined by the type."
            )
        },
        RESTRoute("*/**") { _, match in
            throw RESTError(
                status: 404, code: "-1, Microsoft.SharePoint.Client.InvalidClientQueryException",
                message: "The expression \"\(match.apiPath.dropFirst())\" is not valid.")
        },
    ]

    /// The answer of the first REST route that fits the request of `context`.
    func route(_ context: RESTContext) throws -> HTTPServerResponse {
        let apiPath = String(context.request.path.dropFirst(webRoot.count + "/_api".count))
        let segments = Segment.split(apiPath)
        let method = effectiveMethod(context.request)
        guard !segments.isEmpty, let route = Self.restRoutes.first(where: { $0.fits(segments, method: method) })
        else {
            throw RESTError.invalidQuery("The requested resource does not exist.")
        }
        let match = RESTMatch(
            context: context, method: method, apiPath: apiPath, matched: Array(segments.prefix(route.names.count)),
            rest: Array(segments.dropFirst(route.names.count)))
        return try route.handler(self, match)
    }
}
