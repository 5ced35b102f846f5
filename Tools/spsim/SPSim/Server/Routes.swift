import HTTPServer

/// The paths a route answers, compared with the request's decoded path, lower-cased.
enum PathPattern: Sendable {
    /// Exactly this path (`/_layouts/15/authenticate.aspx`; a trailing `/` is part of it).
    case path(String)
    /// Every path that starts with this text (`/adfs/` answers `/adfs/ls/` and `/adfs/services/…`).
    case below(String)
    /// Exactly these segments (empty ones between `//` dropped), `*` standing for any one: `*`, `oauth2`,
    /// `authorize` answers `/{tenant}/oauth2/authorize`.
    case segments([String])
    /// Two segments or more, the last one this one (`/{tenant}/ProofUp`, `/a/b/changepassword`).
    case endingIn(String)
    /// Every path.
    case anyPath

    /// Whether `path` (lower-cased) with its `segments` (lower-cased, empty ones dropped) fits.
    func matches(path: String, segments: [String]) -> Bool {
        switch self {
        case .path(let wanted): return path == wanted
        case .below(let prefix): return path.hasPrefix(prefix)
        case .segments(let wanted):
            return segments.count == wanted.count && zip(wanted, segments).allSatisfy { $0 == "*" || $0 == $1 }
        case .endingIn(let last): return segments.count >= 2 && segments.last == last
        case .anyPath: return true
        }
    }
}

/// One endpoint of a host: the method and paths it answers, an optional condition (the sign-in mode, a header), and
/// the handler. A host's routes are checked in order; the first that fits answers.
struct Route: Sendable {
    typealias Handler = @Sendable (SimulatorCore, HTTPServerRequest) -> HTTPServerResponse
    typealias Condition = @Sendable (SimulatorCore, HTTPServerRequest) -> Bool

    /// The request method it answers (upper case), nil for every method.
    let method: String?
    let patterns: [PathPattern]
    let condition: Condition?
    let handler: Handler

    /// A route for every method on any of `patterns`, taken only when `condition` holds.
    init(_ patterns: PathPattern..., when condition: Condition? = nil, _ handler: @escaping Handler) {
        self.method = nil
        self.patterns = patterns
        self.condition = condition
        self.handler = handler
    }

    /// A route for `method` (`POST`) on any of `patterns`, taken only when `condition` holds.
    init(_ method: String, _ patterns: PathPattern..., when condition: Condition? = nil, _ handler: @escaping Handler) {
        self.method = method
        self.patterns = patterns
        self.condition = condition
        self.handler = handler
    }

    func fits(_ request: HTTPServerRequest, path: String, segments: [String], core: SimulatorCore) -> Bool {
        if let method, request.method != method { return false }
        guard patterns.contains(where: { $0.matches(path: path, segments: segments) }) else { return false }
        return condition?(core, request) ?? true
    }
}

extension [Route] {
    /// The answer of the first route that fits `request`, nil when none does.
    func answer(_ request: HTTPServerRequest, core: SimulatorCore) -> HTTPServerResponse? {
        let path = request.path.lowercased()
        let segments = request.lowercasedSegments
        guard let route = first(where: { $0.fits(request, path: path, segments: segments, core: core) }) else {
            return nil
        }
        return route.handler(core, request)
    }
}

extension HTTPServerRequest {
    /// The decoded path's segments, lower-cased, empty ones dropped (`/{tenant}/oauth2/token` → tenant, `oauth2`,
    /// `token`).
    var lowercasedSegments: [String] { path.lowercased().split(separator: "/").map(String.init) }
}
