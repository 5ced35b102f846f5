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

    /// Whether this route is tried before `other`: position by position, a name before `*` before any number of
    /// segments (`**`); for the same pattern, one for a method before one for any; else by pattern, so the order is
    /// total.
    func isMoreSpecific(than other: RESTRoute) -> Bool {
        let (mine, theirs) = (specificity, other.specificity)
        if mine != theirs { return mine.lexicographicallyPrecedes(theirs) }
        if (method == nil) != (other.method == nil) { return method != nil }
        return (names.joined(separator: "/"), method ?? "") < (other.names.joined(separator: "/"), other.method ?? "")
    }

    /// Each name's rank (0 a name, 1 `*`), then 2 when any number of segments may follow.
    private var specificity: [Int] { names.map { $0 == "*" ? 1 : 0 } + (allowsMore ? [2] : []) }

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
    /// Every endpoint below `/_api` after the gate (`RESTGate.swift`): each `static let … = RESTRoute(` in this
    /// target, listed at build time by the Registry plugin, so an endpoint more is one declaration beside its
    /// handler. The most specific route that fits wins (``RESTRoute/isMoreSpecific(than:)``), whatever the files'
    /// order. Below a list, a file or a folder the object model's own walkers take over (`routeList`, `routeItem`,
    /// `routeFile`, `routeFolder`).
    static let restRoutes: [RESTRoute] = RESTRoute.registered.map(\.value).sorted { $0.isMoreSpecific(than: $1) }

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

/// What no other route answers: a property `SP.Web` does not have, and anything else below `/_api`.
extension RESTRoute {
    static let unknownWebProperty = RESTRoute("web/*/**") { _, match in
        throw RESTError.invalidQuery(
            "The property '\(match.last.name)' does not exist on type 'SP.Web'. Make sure to only use property names that are defined by the type."
        )
    }
    static let unknownEndpoint = RESTRoute("*/**") { _, match in
        throw RESTError(
            status: 404, code: "-1, Microsoft.SharePoint.Client.InvalidClientQueryException",
            message: "The expression \"\(match.apiPath.dropFirst())\" is not valid.")
    }
}
