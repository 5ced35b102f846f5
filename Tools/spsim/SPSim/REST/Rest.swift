import Foundation
import HTTPServer

/// How the client asked for JSON (`Accept: application/json;odata=…`).
enum Flavour {
    case verbose, minimal, nometadata, atom

    init(accept: String?) {
        let text = (accept ?? "").lowercased()
        if text.contains("odata=verbose") {
            self = .verbose
        } else if text.contains("odata=nometadata") {
            self = .nometadata
        } else if text.contains("odata=minimalmetadata") || text.contains("application/json") {
            self = .minimal
        } else {
            self = .atom
        }
    }

    var contentType: String {
        switch self {
        case .verbose: return "application/json;odata=verbose;charset=utf-8"
        case .minimal: return "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"
        case .nometadata: return "application/json;odata=nometadata;streaming=true;charset=utf-8"
        case .atom: return "application/xml;charset=utf-8"
        }
    }
}

/// One path segment of a REST URL: `getbytitle('Tasks')` → name `getbytitle`, argument `'Tasks'`.
struct Segment {
    var name: String
    var argument: String?
    var lower: String { name.lowercased() }

    /// The argument as an OData string literal (`'O''Brien'` → `O'Brien`), also `decodedurl='…'` / `url='…'`
    /// (the first named parameter's literal).
    var stringArgument: String? {
        guard let text = argument?.trimmingCharacters(in: .whitespaces) else { return nil }
        if !text.hasPrefix("'"), let first = Segment.arguments(text).first,
            let equals = Segment.unquotedIndex(of: "=", in: first)
        {
            return Segment.literal(String(first[first.index(after: equals)...]))
        }
        return Segment.literal(text)
    }

    /// Named parameters `a=1,b=guid'x',c='x, y'` (commas inside quoted literals do not separate).
    func parameter(_ wanted: String) -> String? {
        guard let argument else { return nil }
        for part in Segment.arguments(argument) {
            guard let equals = Segment.unquotedIndex(of: "=", in: part) else { continue }
            let key = part[..<equals].trimmingCharacters(in: .whitespaces)
            guard key.lowercased() == wanted.lowercased() else { continue }
            var value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.lowercased().hasPrefix("guid'") { value = String(value.dropFirst(4)) }
            return Segment.literal(value) ?? value
        }
        return nil
    }

    /// The text of an OData string literal `'…'` (`''` inside is one quote); nil when `text` is not one.
    static func literal(_ text: String) -> String? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 else { return nil }
        return String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
    }

    /// `argument` cut at the commas outside quoted literals (a doubled `''` inside a literal stays inside).
    static func arguments(_ argument: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuote = false
        for character in argument {
            if character == "'" { inQuote.toggle() }
            if character == ",", !inQuote {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    /// The first `character` of `text` outside quoted literals.
    static func unquotedIndex(of character: Character, in text: String) -> String.Index? {
        var inQuote = false
        for index in text.indices {
            if text[index] == "'" { inQuote.toggle() }
            if text[index] == character, !inQuote { return index }
        }
        return nil
    }

    /// `guid'…'` or a bare GUID.
    var guidArgument: String? {
        guard var text = argument?.trimmingCharacters(in: .whitespaces) else { return nil }
        if text.lowercased().hasPrefix("guid") { text = String(text.dropFirst(4)) }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "'")).lowercased()
    }

    static func split(_ path: String) -> [Segment] {
        var segments: [Segment] = []
        var current = ""
        var depth = 0
        var inQuote = false
        for character in path {
            if character == "'" { inQuote.toggle() }
            if !inQuote {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
            }
            if character == "/", depth == 0, !inQuote {
                if !current.isEmpty { segments.append(parse(current)) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { segments.append(parse(current)) }
        return segments
    }

    static func parse(_ text: String) -> Segment {
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return Segment(name: text) }
        return Segment(
            name: String(text[..<open]),
            argument: String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
    }
}

/// Rendering context of one REST request.
struct RESTContext {
    var flavour: Flavour
    var site: String
    var query: QueryOptions
    var request: HTTPServerRequest
    var user: Int?
    /// The app of an app-only bearer token (no user).
    var app: String? = nil
}

extension SimulatorCore {
    // MARK: Entry

    func standardHeaders() -> [(name: String, value: String)] {
        let guid = Tokens.guid()
        return [
            ("SPRequestGuid", guid), ("request-id", guid), ("SPClientServiceRequestDuration", "12"),
            ("X-SharePointHealthScore", "0"), ("X-SP-SERVERSTATE", "ReadOnly=0"),
            ("MicrosoftSharePointTeamServices", "16.0.0.26000"), ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "private, max-age=0"),
        ]
    }

    func restEndpoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let flavour = Flavour(accept: request.header("Accept"))
        // Throttling faults first: they hit before authentication, as at the front door.
        let faults = options.faults
        let number = state.withLock { state -> Int in
            defer { state.apiRequests += 1 }
            return state.apiRequests
        }
        if number < faults.status429 + faults.status503 {
            let status = number < faults.status429 ? 429 : 503
            let text = status == 429 ? "Too Many Requests" : "Service Unavailable"
            let retryAfter = faults.noRetryAfter ? [] : [("Retry-After", String(faults.retryAfterSeconds))]
            return HTTPServerResponse(
                status: status, contentType: "text/plain; charset=utf-8", text: text,
                headers: retryAfter + standardHeaders())
        }
        if number < faults.status429 + faults.status503 + faults.status500 {
            return errorResponse(
                RESTError(
                    status: 500, code: "-2146233088, System.InvalidOperationException",
                    message: "Simulated server error."),
                flavour: flavour)
        }
        if request.path.lowercased() == "/_api/sp.oauth.nativeclient/authenticate" {
            return nativeClientAuthenticate(request)
        }
        // An Entra access token (JWT) is checked the way SharePoint checks it; the password grant's opaque tokens
        // and cookies go the older way.
        var verdict: BearerVerdict?
        if let token = bearerToken(request), !token.isEmpty, state.withLock({ $0.accessTokens[token] == nil }) {
            verdict = bearerVerdict(token, request: request, flavour: flavour)
        }
        var app: String?
        var delegated: Int?
        switch verdict {
        case .refused(let response): return response
        case .app(let id, _): app = id
        case .user(let index): delegated = index
        case nil: break
        }
        let user = app == nil ? delegated ?? authenticatedUser(request) : nil
        if user == nil, app == nil, bearerToken(request) != nil {
            return bearerChallenge("Invalid JWT token. The token is expired or not issued by this tenant.")
        }
        if user == nil, app == nil, wantsWindowsChallenge(request) { return windowsChallenge() }
        if user == nil, app == nil, options.mode != .anonymous {
            var error = RESTError(
                status: 403, code: "-2147024891, System.UnauthorizedAccessException",
                message: "Access denied. You do not have permission to perform this action or access this resource.")
            error.headers = unauthenticatedHeaders(path: rawPath(request))
            return errorResponse(error, flavour: flavour)
        }
        do {
            let query = try QueryOptions(request.query)
            let context = RESTContext(
                flavour: flavour, site: siteURL, query: query, request: request, user: user, app: app)
            return try route(context)
        } catch let error as RESTError {
            return errorResponse(error, flavour: flavour)
        } catch {
            return errorResponse(RESTError.argument("\(error)"), flavour: flavour)
        }
    }

    func errorResponse(_ error: RESTError, flavour: Flavour) -> HTTPServerResponse {
        let body: String
        let contentType: String
        switch flavour {
        case .atom:
            contentType = "application/xml;charset=utf-8"
            body =
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><m:error xmlns:m=\"http://schemas.microsoft.com/ado/2007/08/dataservices/metadata\"><m:code>\(xmlEscape(error.code))</m:code><m:message xml:lang=\"en-US\">\(xmlEscape(error.message))</m:message></m:error>"
        default:
            contentType = flavour.contentType
            let inner = JSON.object([
                ("code", .string(error.code)),
                ("message", .object([("lang", .string("en-US")), ("value", .string(error.message))])),
            ])
            body = JSON.object([(flavour == .verbose ? "error" : "odata.error", inner)]).serialized()
        }
        return HTTPServerResponse(
            status: error.status, contentType: contentType, text: body, headers: error.headers + standardHeaders())
    }

    func jsonResponse(
        _ json: JSON, _ context: RESTContext, status: Int = 200, headers: [(name: String, value: String)] = []
    ) -> HTTPServerResponse {
        if context.flavour == .atom {
            return HTTPServerResponse(
                status: status, contentType: "application/atom+xml;type=entry;charset=utf-8",
                text: AtomRenderer.render(json),
                headers: headers + standardHeaders())
        }
        return HTTPServerResponse(
            status: status, headers: [("Content-Type", context.flavour.contentType)] + headers + standardHeaders(),
            body: .bytes(json.serializedBytes()))
    }

    /// The effective method (`X-HTTP-Method` on POST wins).
    func effectiveMethod(_ request: HTTPServerRequest) -> String {
        if request.method == "POST", let override = request.header("X-HTTP-Method") { return override.uppercased() }
        if request.method == "PATCH" { return "MERGE" }
        return request.method.uppercased()
    }

    /// Writes need a valid, unexpired `X-RequestDigest` (anonymous users cannot write at all).
    func requireDigest(_ context: RESTContext) throws {
        if options.mode == .anonymous, context.user == nil {
            throw RESTError(
                status: 403, code: "-2147024891, System.UnauthorizedAccessException",
                message: "Access denied. You do not have permission to perform this action or access this resource.")
        }
        // No digest with OAuth.
        if context.user != nil || context.app != nil, bearerToken(context.request) != nil { return }
        let digest = context.request.header("X-RequestDigest") ?? ""
        let now = nowEpoch()
        let valid = state.withLock { ($0.digests[digest] ?? 0) > now }
        guard valid else {
            throw RESTError(
                status: 403, code: "-2130575252, Microsoft.SharePoint.SPException",
                message:
                    "The security validation for this page is invalid and might be corrupted. Please use your web browser's Back button to try your operation again."
            )
        }
    }

    // MARK: Routing

    func route(_ context: RESTContext) throws -> HTTPServerResponse {
        let apiPath = String(context.request.path.dropFirst("/_api".count))
        let segments = Segment.split(apiPath)
        let method = effectiveMethod(context.request)
        guard let first = segments.first else {
            throw RESTError.invalidQuery("The requested resource does not exist.")
        }
        switch first.lower {
        case "contextinfo":
            guard context.request.method == "POST" else {
                throw RESTError(
                    status: 405, code: "-1, System.InvalidOperationException",
                    message:
                        "The HTTP method 'GET' cannot be used to access the resource 'GetContextWebInformation'. The operation type of the resource is specified as 'Default'. Please use correct HTTP method to invoke the resource."
                )
            }
            return jsonResponse(contextInfo(context), context)
        case "site":
            return jsonResponse(
                entity(
                    type: "SP.Site", path: "Site", set: "SP.Site",
                    props: [
                        ("Id", .string(siteId)), ("ServerRelativeUrl", .string("/")), ("Url", .string(context.site)),
                    ], deferred: ["RootWeb"], context: context, top: true), context)
        case "web":
            return try routeWeb(Array(segments.dropFirst()), method: method, context: context)
        default:
            throw RESTError(
                status: 404, code: "-1, Microsoft.SharePoint.Client.InvalidClientQueryException",
                message: "The expression \"\(apiPath.dropFirst())\" is not valid.")
        }
    }

    func routeWeb(_ rest: [Segment], method: String, context: RESTContext) throws -> HTTPServerResponse {
        guard let next = rest.first else { return jsonResponse(webEntity(context, top: true), context) }
        let tail = Array(rest.dropFirst())
        switch next.lower {
        case "currentuser":
            guard let user = context.user else {
                throw RESTError(
                    status: 403, code: "-2147024891, System.UnauthorizedAccessException",
                    message: "Access denied. You do not have permission to perform this action or access this resource."
                )
            }
            return jsonResponse(userEntity(user, context, top: true), context)
        case "siteusers":
            let entries = users.indices.map { userEntity($0, context, top: false) }
            return jsonResponse(collection(entries, set: "SP.ApiData.Users", next: nil, context: context), context)
        case "getuserbyid":
            let id = Int(next.argument ?? "") ?? -1
            guard users.indices.contains(id - 10) else {
                throw RESTError(
                    status: 500, code: "-2146232832, Microsoft.SharePoint.SPException", message: "User cannot be found."
                )
            }
            return jsonResponse(userEntity(id - 10, context, top: true), context)
        case "lists":
            if let argument = next.guidArgument, next.argument != nil {
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
        case "getlist":
            let url = next.stringArgument ?? ""
            guard let found = state.withLock({ state in state.lists.first { $0.url.lowercased() == url.lowercased() } })
            else { throw RESTError.notFound("File Not Found.") }
            return try routeList(found, tail, method: method, context: context)
        case "rootfolder":
            return try routeFolder("/", tail, method: method, context: context)
        case "folders":
            return try routeFolder("/", [Segment(name: "Folders")] + tail, method: method, context: context)
        case "getfolderbyserverrelativeurl", "getfolderbyserverrelativepath":
            let url = try serverRelativePath(
                next.stringArgument ?? "", percentEncoded: next.lower == "getfolderbyserverrelativeurl")
            return try routeFolder(url, tail, method: method, context: context)
        case "getfilebyserverrelativeurl", "getfilebyserverrelativepath":
            let url = try serverRelativePath(
                next.stringArgument ?? "", percentEncoded: next.lower == "getfilebyserverrelativeurl")
            guard let file = fileByURL(url) else {
                throw RESTError(
                    status: 404, code: "-2130575338, Microsoft.SharePoint.SPException",
                    message: "The file \(url) does not exist.")
            }
            return try routeFile(file, tail, method: method, context: context)
        case "getfilebyid":
            let id = next.guidArgument ?? ""
            guard let file = state.withLock({ state in state.files.first { $0.uniqueId == id } }) else {
                throw RESTError(
                    status: 404, code: "-2147024894, System.IO.FileNotFoundException", message: "File Not Found.")
            }
            return try routeFile(file, tail, method: method, context: context)
        default:
            throw RESTError.invalidQuery(
                "The property '\(next.name)' does not exist on type 'SP.Web'. Make sure to only use property names that are defined by the type."
            )
        }
    }

    // MARK: Entities and envelopes

    /// One entity in the requested flavour. `path` is relative to `_api/` (e.g. `Web/Lists(guid'…')`).
    func entity(
        type: String, path: String, set: String, props: [(String, JSON)], deferred: [String], context: RESTContext,
        top: Bool, etag: String? = nil, expanded: [(String, JSON)] = [], idOverride: String? = nil
    ) -> JSON {
        let query = context.query
        let selected = top ? props.filter { query.selects($0.0) } : props
        let absolute = context.site + "/_api/" + path
        switch context.flavour {
        case .verbose:
            var metadata: [(String, JSON)] = [("id", .string(idOverride ?? absolute)), ("uri", .string(absolute))]
            if let etag { metadata.append(("etag", .string(etag))) }
            metadata.append(("type", .string(type)))
            var members: [(String, JSON)] = [("__metadata", .object(metadata))]
            for name in deferred
            where !expanded.contains(where: { $0.0 == name }) && (!top || query.selectsAll || query.selects(name)) {
                members.append((name, .object([("__deferred", .object([("uri", .string(absolute + "/" + name))]))])))
            }
            members += expanded + selected
            return top ? .object([("d", .object(members))]) : .object(members)
        case .minimal, .atom:
            var members: [(String, JSON)] = []
            if top {
                members.append(("odata.metadata", .string(context.site + "/_api/$metadata#" + set + "/@Element")))
            }
            members += [("odata.type", .string(type)), ("odata.id", .string(idOverride ?? absolute))]
            if let etag { members.append(("odata.etag", .string(etag))) }
            members.append(("odata.editLink", .string(path)))
            return .object(members + expanded + selected)
        case .nometadata:
            return .object(expanded + selected)
        }
    }

    /// A collection page: verbose `d.results` (+ `d.__next`), light `value` (+ `odata.nextLink`).
    func collection(_ entries: [JSON], set: String, next: String?, context: RESTContext) -> JSON {
        switch context.flavour {
        case .verbose:
            var members: [(String, JSON)] = [("results", .array(entries))]
            if let next { members.append(("__next", .string(next))) }
            return .object([("d", .object(members))])
        case .minimal, .atom:
            var members: [(String, JSON)] = [("odata.metadata", .string(context.site + "/_api/$metadata#" + set))]
            if let next { members.append(("odata.nextLink", .string(next))) }
            members.append(("value", .array(entries)))
            return .object(members)
        case .nometadata:
            var members: [(String, JSON)] = []
            if let next { members.append(("odata.nextLink", .string(next))) }
            members.append(("value", .array(entries)))
            return .object(members)
        }
    }

    /// A string collection (`Collection(Edm.String)` in verbose).
    func stringCollection(_ values: [String], _ context: RESTContext) -> JSON {
        let array = JSON.array(values.map { .string($0) })
        guard context.flavour == .verbose else { return array }
        return .object([("__metadata", .object([("type", .string("Collection(Edm.String)"))])), ("results", array)])
    }

    /// A nested complex value (`SP.ChangeToken`, `SP.UserIdInfo`…).
    func complex(_ type: String, _ props: [(String, JSON)], _ context: RESTContext) -> JSON {
        guard context.flavour == .verbose else { return .object(props) }
        return .object([("__metadata", .object([("type", .string(type))]))] + props)
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
                ("Description", .string("Simulated SharePoint team site")), ("Id", .string(webId)),
                ("IsMultilingual", .bool(true)), ("Language", .int(1033)),
                ("LastItemModifiedDate", .string(CivilTime(lastModified).iso)),
                ("ServerRelativeUrl", .string("/")), ("Title", .string("SPSim Team")), ("UIVersion", .int(15)),
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

    // MARK: Lists

    func list(byTitle title: String, context: RESTContext) throws -> SPList {
        guard let found = state.withLock({ state in state.lists.first { $0.title.lowercased() == title.lowercased() } })
        else {
            throw RESTError(
                status: 404, code: "-1, System.ArgumentException",
                message: "List '\(title)' does not exist at site with URL '\(context.site)'.")
        }
        return found
    }

    func list(byId id: String) throws -> SPList {
        guard let found = state.withLock({ state in state.lists.first { $0.id == id } }) else {
            throw RESTError(
                status: 404, code: "-1, System.ArgumentException",
                message:
                    "List does not exist.\n\nThe page you selected contains a list that does not exist.  It may have been deleted by another user."
            )
        }
        return found
    }

    func listPath(_ list: SPList) -> String { "Web/Lists(guid'\(list.id)')" }

    func listEntity(_ list: SPList, _ context: RESTContext, top: Bool) -> JSON {
        let (count, lastModified, fields) = state.withLock { _ in (list.itemCount, list.lastModified, list.fields) }
        var expanded: [(String, JSON)] = []
        if top, context.query.expands("Fields") {
            let entries = fields.map { fieldEntity($0, list, context, top: false) }
            expanded.append(
                ("Fields", context.flavour == .verbose ? .object([("results", .array(entries))]) : .array(entries)))
        }
        let props: [(String, JSON)] = [
            ("AllowContentTypes", .bool(true)), ("BaseTemplate", .int(list.baseTemplate)),
            ("BaseType", .int(list.baseType)), ("ContentTypesEnabled", .bool(false)),
            ("Created", .string(CivilTime(list.created).iso)),
            (
                "CurrentChangeToken",
                complex(
                    "SP.ChangeToken", [("StringValue", .string("1;3;\(list.id);\(lastModified);860589836"))], context)
            ),
            ("Description", .string(list.description)), ("Direction", .string("none")),
            ("DocumentTemplateUrl", list.isLibrary ? .string(list.url + "/Forms/template.dotx") : .null),
            ("EnableAttachments", .bool(!list.isLibrary)), ("EnableFolderCreation", .bool(list.isLibrary)),
            ("EnableVersioning", .bool(list.isLibrary)), ("EntityTypeName", .string(list.entityTypeName)),
            ("Hidden", .bool(list.hidden)), ("Id", .string(list.id)),
            (
                "ImageUrl",
                .string(list.isLibrary ? "/_layouts/15/images/itdl.png?rev=47" : "/_layouts/15/images/itgen.png?rev=47")
            ),
            ("ItemCount", .int(count)), ("LastItemDeletedDate", .string(CivilTime(list.created).iso)),
            ("LastItemModifiedDate", .string(CivilTime(lastModified).iso)),
            ("ListItemEntityTypeFullName", .string(list.itemEntityTypeFullName)),
            ("ParentWebUrl", .string("/")), ("Title", .string(list.title)),
        ]
        return entity(
            type: "SP.List", path: listPath(list), set: "SP.ApiData.Lists", props: props,
            deferred: ["ContentTypes", "Fields", "Items", "RootFolder", "Views"], context: context, top: top,
            expanded: expanded)
    }

    func listsCollection(_ context: RESTContext) -> JSON {
        let lists = state.withLock { $0.lists }
        var entries: [JSON] = []
        for list in lists {
            if let filter = context.query.filter, !evaluateListFilter(filter, list) { continue }
            var entry = listEntity(list, context, top: false)
            entry = applySelect(entry, context.query)
            entries.append(entry)
        }
        return collection(entries, set: "SP.ApiData.Lists", next: nil, context: context)
    }

    /// `$filter` on lists: Title, Hidden, BaseTemplate, ItemCount.
    func evaluateListFilter(_ expression: FilterExpression, _ list: SPList) -> Bool {
        evaluate(expression) { name in
            switch name.lowercased() {
            case "title": return .text(list.title)
            case "hidden": return .bool(list.hidden)
            case "basetemplate": return .number(Double(list.baseTemplate))
            case "basetype": return .number(Double(list.baseType))
            case "itemcount": return .number(Double(list.itemCount))
            case "id": return .text(list.id)
            default: return .null
            }
        }
    }

    /// Applies `$select` to a collection entry (metadata keys survive).
    func applySelect(_ entry: JSON, _ query: QueryOptions) -> JSON {
        guard !query.selectsAll, case .object(let members) = entry else { return entry }
        return .object(
            members.filter { member in
                member.0 == "__metadata" || member.0.hasPrefix("odata.")
                    || query.select.contains(where: { $0.lowercased() == member.0.lowercased() })
            })
    }

    func createList(_ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        guard let body = parseJSONObject(context.request.body), let title = body["Title"] as? String, !title.isEmpty
        else { throw RESTError.invalidQuery("The parameter Title is required.") }
        let template = (body["BaseTemplate"] as? Int) ?? 100
        let created: SPList? = state.withLock { state in
            if state.lists.contains(where: { $0.title.lowercased() == title.lowercased() }) { return nil }
            let isLibrary = template == 101 || template == 109
            let urlName = title.filter { $0 != " " }
            let list = SPList(
                id: stableGUID(options.seed, "list/created/\(title)/\(state.lists.count)"), title: title,
                baseTemplate: template, url: isLibrary ? "/" + urlName : "/Lists/" + urlName,
                fields: SiteContent.standardFields(seed: options.seed, listLabel: title), created: nowEpoch(),
                description: body["Description"] as? String ?? "")
            state.lists.append(list)
            return list
        }
        guard let created else {
            throw RESTError(
                status: 500, code: "-2130575342, Microsoft.SharePoint.SPException",
                message:
                    "A list, survey, discussion board, or document library with the specified title already exists in this Web site.  Please choose another title."
            )
        }
        return jsonResponse(listEntity(created, context, top: true), context, status: 201)
    }

    func routeList(_ list: SPList, _ rest: [Segment], method: String, context: RESTContext) throws -> HTTPServerResponse
    {
        guard let next = rest.first else {
            if method == "DELETE" {
                try requireDigest(context)
                state.withLock { state in state.lists.removeAll { $0 === list } }
                return HTTPServerResponse(status: 200, headers: standardHeaders())
            }
            return jsonResponse(listEntity(list, context, top: true), context)
        }
        let tail = Array(rest.dropFirst())
        switch next.lower {
        case "fields":
            let fields = state.withLock { _ in list.fields }
            if let sub = tail.first, sub.lower == "getbyinternalnameortitle" || sub.lower == "getbytitle" {
                let name = (sub.stringArgument ?? "").lowercased()
                guard
                    let field = fields.first(where: {
                        $0.internalName.lowercased() == name || $0.title.lowercased() == name
                    })
                else {
                    throw RESTError.argument(
                        "Column '\(sub.stringArgument ?? "")' does not exist. It may have been deleted by another user."
                    )
                }
                return jsonResponse(fieldEntity(field, list, context, top: true), context)
            }
            var entries: [JSON] = []
            for field in fields {
                if let filter = context.query.filter,
                    !evaluate(
                        filter,
                        lookup: { name in
                            switch name.lowercased() {
                            case "hidden": return .bool(field.hidden)
                            case "internalname": return .text(field.internalName)
                            case "title": return .text(field.title)
                            case "readonlyfield": return .bool(field.readOnly)
                            case "typeasstring": return .text(field.typeAsString)
                            case "fieldtypekind": return .number(Double(field.kind))
                            default: return .null
                            }
                        })
                {
                    continue
                }
                entries.append(applySelect(fieldEntity(field, list, context, top: false), context.query))
            }
            return jsonResponse(collection(entries, set: "SP.ApiData.Fields", next: nil, context: context), context)
        case "items":
            if let id = next.argument.flatMap({ Int($0) }) {
                return try routeItem(list, id: id, tail, method: method, context: context)
            }
            if method == "POST" { return try addItem(list, context) }
            return jsonResponse(try itemsPage(list, context), context)
        case "getitembyid":
            let id = Int(next.argument ?? "") ?? -1
            return try routeItem(list, id: id, tail, method: method, context: context)
        case "rootfolder":
            return try routeFolder(list.url, tail, method: method, context: context)
        case "defaultview":
            return try defaultView(list, tail, context: context)
        default:
            throw RESTError.invalidQuery(
                "The property '\(next.name)' does not exist on type 'SP.List'. Make sure to only use property names that are defined by the type."
            )
        }
    }

    /// `…/DefaultView` (the view's name and URL) and `…/DefaultView/ViewFields` (its columns' internal names).
    func defaultView(_ list: SPList, _ rest: [Segment], context: RESTContext) throws -> HTTPServerResponse {
        let (fields, url) = state.withLock { _ in (list.defaultViewFields, list.url) }
        let path = "Web/Lists(guid'\(list.id)')/DefaultView"
        guard let next = rest.first else {
            let page = url + (list.isLibrary ? "/Forms/AllItems.aspx" : "/AllItems.aspx")
            return jsonResponse(
                entity(
                    type: "SP.View", path: path, set: "SP.View",
                    props: [
                        ("Id", .string(stableGUID(options.seed, "view" + list.id))), ("DefaultView", .bool(true)),
                        ("Title", .string(list.isLibrary ? "All Documents" : "All Items")),
                        ("ServerRelativeUrl", .string(page)),
                    ], deferred: ["ViewFields"], context: context, top: true), context)
        }
        guard next.lower == "viewfields", rest.count == 1 else {
            throw RESTError.invalidQuery(
                "The property '\(next.name)' does not exist on type 'SP.View'. Make sure to only use property names that are defined by the type."
            )
        }
        let schema = "<FieldRefs>" + fields.map { "<FieldRef Name=\"\($0)\" />" }.joined() + "</FieldRefs>"
        return jsonResponse(
            entity(
                type: "SP.ViewFieldCollection", path: path + "/ViewFields", set: "SP.ViewFieldCollection",
                props: [("Items", stringCollection(fields, context)), ("SchemaXml", .string(schema))], deferred: [],
                context: context, top: true), context)
    }

    func fieldEntity(_ field: FieldDef, _ list: SPList, _ context: RESTContext, top: Bool) -> JSON {
        let type: String
        switch field.typeAsString {
        case "Text": type = "SP.FieldText"
        case "Number", "Integer": type = "SP.FieldNumber"
        case "DateTime": type = "SP.FieldDateTime"
        case "Choice": type = "SP.FieldChoice"
        case "User": type = "SP.FieldUser"
        case "Lookup": type = "SP.FieldLookup"
        case "Computed": type = "SP.FieldComputed"
        default: type = "SP.Field"
        }
        var props: [(String, JSON)] = [
            ("Id", .string(field.id)), ("InternalName", .string(field.internalName)), ("Title", .string(field.title)),
            ("FieldTypeKind", .int(field.kind)), ("TypeAsString", .string(field.typeAsString)),
            ("Hidden", .bool(field.hidden)), ("Indexed", .bool(field.indexed)),
            ("ReadOnlyField", .bool(field.readOnly)),
            ("Required", .bool(false)), ("Sealed", .bool(field.readOnly)), ("StaticName", .string(field.internalName)),
            ("EntityPropertyName", .string(field.jsonName.hasPrefix("_") ? "OData_" + field.jsonName : field.jsonName)),
        ]
        if field.typeAsString == "Choice" { props.append(("Choices", stringCollection(field.choices, context))) }
        return entity(
            type: type, path: listPath(list) + "/Fields(guid'\(field.id)')", set: "SP.ApiData.Fields", props: props,
            deferred: [], context: context, top: top)
    }

    // MARK: Files and folders

    /// The file at the server-relative `url` (already decoded and normalized), any case.
    func fileByURL(_ url: String) -> SPFile? {
        let wanted = url.lowercased()
        return state.withLock { state in state.files.first { $0.serverRelativeUrl.lowercased() == wanted } }
    }

    /// The site collection's server-relative URL (the simulated site collection is the root one).
    static let siteServerRelativeURL = "/"

    /// Wildcard managed paths: below the root site collection, `/sites/x`, `/teams/x` and `/personal/x` are other
    /// site collections.
    static let managedPaths: Set<String> = ["sites", "teams", "personal"]

    /// The server-relative path named by the literal of a `('…')` argument, after the HTTP layer decoded the request
    /// path once. The `…Url` forms (`GetFileByServerRelativeUrl('…')`, `Files/add(url='…')`) are percent-decoded
    /// once more (§6.3: clients send `%` as `%25` and `#` as `%23` inside the literal, then percent-encode the URL);
    /// the `…Path(decodedurl='…')` forms are the path as is. A path outside the site collection → 400.
    func serverRelativePath(_ literal: String, percentEncoded: Bool) throws -> String {
        let path = normalizedServerRelative(percentEncoded ? try decodedURLLiteral(literal) : literal)
        guard isInSiteCollection(path) else {
            throw RESTError.argument("Server relative urls must start with SPWeb.ServerRelativeUrl")
        }
        return path
    }

    /// A `…Url` literal decoded the once more SharePoint decodes it (§6.3); one that does not decode → 400.
    func decodedURLLiteral(_ literal: String) throws -> String {
        guard let decoded = literal.removingPercentEncoding else {
            throw RESTError.argument("Value does not fall within the expected range.")
        }
        return decoded
    }

    /// Whether the normalized server-relative `path` lies in this site collection: it starts with the site's
    /// server-relative URL and is not below a wildcard managed path (another site collection), nor another host.
    func isInSiteCollection(_ path: String) -> Bool {
        let site = Self.siteServerRelativeURL
        guard path.lowercased() == site.lowercased() || path.lowercased().hasPrefix(site.lowercased()) else {
            return false
        }
        let rest = path.dropFirst(site.count).split(separator: "/", omittingEmptySubsequences: true)
        if let first = rest.first, first.contains(":") { return false }  // `https://other.example/…`
        if rest.count >= 2, let first = rest.first, Self.managedPaths.contains(first.lowercased()) { return false }
        return true
    }

    /// Accepts `/Shared Documents/a.txt`, `Shared Documents/a.txt` and absolute URLs on this site (no decoding).
    func normalizedServerRelative(_ url: String) -> String {
        var text = url
        if text.lowercased().hasPrefix(siteURL.lowercased()) { text = String(text.dropFirst(siteURL.count)) }
        if !text.hasPrefix("/") { text = "/" + text }
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }

    func filePath(_ file: SPFile) -> String {
        "Web/GetFileByServerRelativePath(decodedurl='\(odataQuote(file.serverRelativeUrl))')"
    }

    func fileEntity(_ file: SPFile, _ context: RESTContext, top: Bool) -> JSON {
        let link = context.site + percentEncodePath(file.serverRelativeUrl)
        let editPath =
            "Web/GetFileByServerRelativePath(decodedurl='\(percentEncodePath(odataQuote(file.serverRelativeUrl)))')"
        return entity(
            type: "SP.File", path: editPath, set: "SP.ApiData.Files12",
            props: [
                ("CheckInComment", .string("")), ("CheckOutType", .int(2)), ("ContentTag", .string(file.contentTag)),
                ("CustomizedPageStatus", .int(0)), ("ETag", .string(file.etag)), ("Exists", .bool(true)),
                ("IrmEnabled", .bool(false)), ("Length", .string(String(file.content.length))), ("Level", .int(1)),
                ("LinkingUri", .string(link + "?d=w" + file.uniqueId.replacingOccurrences(of: "-", with: ""))),
                (
                    "LinkingUrl",
                    .string(
                        context.site + file.serverRelativeUrl + "?d=w"
                            + file.uniqueId.replacingOccurrences(of: "-", with: ""))
                ),
                ("MajorVersion", .int(file.majorVersion)), ("MinorVersion", .int(0)), ("Name", .string(file.name)),
                ("ServerRelativeUrl", .string(file.serverRelativeUrl)),
                ("TimeCreated", .string(CivilTime(file.created).iso)),
                ("TimeLastModified", .string(CivilTime(file.modified).iso)), ("Title", .string(file.title)),
                ("UIVersion", .int(512 * file.majorVersion)), ("UIVersionLabel", .string("\(file.majorVersion).0")),
                ("UniqueId", .string(file.uniqueId)),
            ], deferred: ["Author", "ListItemAllFields", "ModifiedBy", "Versions"], context: context, top: top,
            idOverride: context.site + "/_api/" + filePath(file))
    }

    func folderEntity(_ url: String, _ context: RESTContext, top: Bool) -> JSON {
        let (count, list) = state.withLock { state in
            (
                state.files.filter { $0.folder.lowercased() == url.lowercased() }.count,
                state.lists.first { $0.url.lowercased() == url.lowercased() }
            )
        }
        let name = String(url.split(separator: "/").last ?? "")
        return entity(
            type: "SP.Folder",
            path: "Web/GetFolderByServerRelativePath(decodedurl='\(percentEncodePath(odataQuote(url)))')",
            set: "SP.Folder",
            props: [
                ("Exists", .bool(true)), ("IsWOPIEnabled", .bool(false)), ("ItemCount", .int(count)),
                ("Name", .string(name)), ("ProgID", .null), ("ServerRelativeUrl", .string(url)),
                ("TimeCreated", .string(CivilTime(list?.created ?? SiteContent.baseEpoch).iso)),
                ("TimeLastModified", .string(CivilTime(list?.lastModified ?? SiteContent.baseEpoch).iso)),
                ("UniqueId", .string(stableGUID(options.seed, "folder" + url.lowercased()))),
                ("WelcomePage", .string("")),
            ], deferred: ["Files", "Folders", "ListItemAllFields", "ParentFolder"], context: context, top: top)
    }

    /// The folder at the server-relative `url` (decoded and normalized).
    func routeFolder(_ url: String, _ rest: [Segment], method: String, context: RESTContext) throws
        -> HTTPServerResponse
    {
        guard let list = state.withLock({ state in state.lists.first { $0.url.lowercased() == url.lowercased() } })
        else {
            // The web's root folder, or a folder below a list's root folder.
            guard let folder = url == "/" ? "/" : subfolder(url) else { throw RESTError.notFound("File Not Found.") }
            switch rest.first?.lower {
            case "folders":
                if let sub = rest.dropFirst().first, sub.lower == "add" || sub.lower == "addusingpath" {
                    return try addFolder(in: folder, sub, context)
                }
                return foldersCollection(folder, context)
            case "files":
                if let sub = rest.dropFirst().first, sub.lower == "add" || sub.lower == "addusingpath" {
                    guard let list = listOwning(folder: folder) else {
                        throw RESTError.argument("Files cannot be added to the root folder of this simulated web.")
                    }
                    return try addFile(list, folder: folder, sub, context)
                }
                return filesCollection(folder, context)
            case let property?:
                guard folder == "/" else {
                    throw RESTError.invalidQuery("The property '\(property)' does not exist on type 'SP.Folder'.")
                }
                return jsonResponse(folderEntity(folder, context, top: true), context)
            case nil: return jsonResponse(folderEntity(folder, context, top: true), context)
            }
        }
        guard let next = rest.first else { return jsonResponse(folderEntity(list.url, context, top: true), context) }
        switch next.lower {
        case "files":
            if let sub = rest.dropFirst().first, sub.lower == "add" || sub.lower == "addusingpath" {
                return try addFile(list, folder: list.url, sub, context)
            }
            return filesCollection(list.url, context)
        case "folders":
            if let sub = rest.dropFirst().first, sub.lower == "add" || sub.lower == "addusingpath" {
                return try addFolder(in: list.url, sub, context)
            }
            return foldersCollection(list.url, context)
        case "listitemallfields":
            return jsonResponse(
                entity(
                    type: "SP.ListItem", path: listPath(list) + "/RootFolder/ListItemAllFields", set: "SP.ListItem",
                    props: [], deferred: [], context: context, top: true),
                context)
        default:
            throw RESTError.invalidQuery("The property '\(next.name)' does not exist on type 'SP.Folder'.")
        }
    }

    /// The folders directly inside the folder at `url`: the libraries' root folders for the web's root (`/`), the
    /// list's own sub-folder (`Forms` or `Attachments`) for a list's root folder, none below that.
    func subfolders(of url: String) -> [String] {
        state.withLock { state in
            if url == "/" { return state.lists.filter { $0.isLibrary && !$0.hidden }.map(\.url) }
            let builtIn = state.lists.filter { $0.url.lowercased() == url.lowercased() }.map(\.subfolderURL)
            return builtIn
                + state.createdFolders.map(\.url).filter { Self.parent(of: $0).lowercased() == url.lowercased() }
        }
    }

    /// The folder below a list's root folder at `url` (any case), as the site spells it; nil when there is none.
    func subfolder(_ url: String) -> String? {
        state.withLock { state in
            (state.lists.map(\.subfolderURL) + state.createdFolders.map(\.url)).first {
                $0.lowercased() == url.lowercased()
            }
        }
    }

    /// `…/Folders` of the folder at `url` (`$select` applied to each entry).
    func foldersCollection(_ url: String, _ context: RESTContext) -> HTTPServerResponse {
        let entries = subfolders(of: url).map { applySelect(folderEntity($0, context, top: false), context.query) }
        return jsonResponse(collection(entries, set: "SP.ApiData.Folders", next: nil, context: context), context)
    }

    /// `…/Files` of the folder at `url` (`$filter` on Name, Length, ServerRelativeUrl; `$select`).
    func filesCollection(_ url: String, _ context: RESTContext) -> HTTPServerResponse {
        let files = state.withLock { state in state.files.filter { $0.folder.lowercased() == url.lowercased() } }
        var entries: [JSON] = []
        for file in files {
            if let filter = context.query.filter,
                !evaluate(
                    filter,
                    lookup: { name in
                        switch name.lowercased() {
                        case "name": return .text(file.name)
                        case "length": return .number(Double(file.content.length))
                        case "serverrelativeurl": return .text(file.serverRelativeUrl)
                        default: return .null
                        }
                    })
            {
                continue
            }
            entries.append(applySelect(fileEntity(file, context, top: false), context.query))
        }
        return jsonResponse(collection(entries, set: "SP.ApiData.Files12", next: nil, context: context), context)
    }

    /// `Files/add(url='…',overwrite=…)` (the name percent-decoded once more, as every `…Url` form) and
    /// `Files/addusingpath(decodedurl='…',overwrite=…)` (the name as is) into `folder` of `list`.
    func addFile(_ list: SPList, folder: String, _ segment: Segment, _ context: RESTContext) throws
        -> HTTPServerResponse
    {
        try requireDigest(context)
        let name: String
        if segment.lower == "addusingpath" {
            name = segment.parameter("decodedurl") ?? ""
        } else {
            name = try decodedURLLiteral(segment.parameter("url") ?? "")
        }
        guard !name.isEmpty, !name.contains("/") else { throw RESTError.argument("The file name is not valid.") }
        let overwrite = (segment.parameter("overwrite") ?? "false").lowercased() == "true"
        let bytes = context.request.body
        let now = nowEpoch()
        let result: SPFile? = state.withLock { state in
            if let index = state.files.firstIndex(where: {
                $0.folder.lowercased() == folder.lowercased() && $0.name.lowercased() == name.lowercased()
            }) {
                guard overwrite else { return nil }
                state.files[index].content = .bytes(bytes)
                state.files[index].majorVersion += 1
                state.files[index].modified = now
                list.lastModified = now
                return state.files[index]
            }
            var created: [SPFile] = []
            SiteContent.addFile(
                to: list, folder: folder, name: name, content: .bytes(bytes), seed: options.seed ^ UInt64(now),
                author: spUserId(context.user ?? 0), files: &created)
            guard var file = created.first else { return nil }
            file.uniqueId = Tokens.guid()
            file.created = now
            file.modified = now
            list.lastModified = now
            state.files.append(file)
            return file
        }
        guard let result else {
            throw RESTError(
                status: 400, code: "-2130575257, Microsoft.SharePoint.SPException",
                message:
                    "A file with the name \(folder)/\(name) already exists. It was last modified by \(claimsLogin(context.user ?? 0))."
            )
        }
        return jsonResponse(fileEntity(result, context, top: true), context)
    }

    func routeFile(_ file: SPFile, _ rest: [Segment], method: String, context: RESTContext) throws -> HTTPServerResponse
    {
        guard let next = rest.first else {
            if method == "DELETE" {
                try requireDigest(context)
                state.withLock { state in
                    state.files.removeAll { $0.uniqueId == file.uniqueId }
                    if let list = state.lists.first(where: { $0.id == file.listId }) {
                        list.stored[file.itemId] = nil
                        list.deleted.insert(file.itemId)
                    }
                }
                return HTTPServerResponse(status: 200, headers: standardHeaders())
            }
            return jsonResponse(fileEntity(file, context, top: true), context)
        }
        switch next.lower {
        case "$value", "openbinarystream":
            if method == "PUT" || (context.request.method == "POST" && method != "GET") {
                try requireDigest(context)
                let updated = replaceContent(file, with: context.request.body)
                return HTTPServerResponse(status: 204, headers: [("ETag", updated.etag)] + standardHeaders())
            }
            return fileBody(file, headers: [("Content-Type", "application/octet-stream")] + standardHeaders())
        case "listitemallfields":
            guard let list = state.withLock({ state in state.lists.first { $0.id == file.listId } }) else {
                throw RESTError.notFound("File Not Found.")
            }
            return try routeItem(list, id: file.itemId, Array(rest.dropFirst()), method: method, context: context)
        case "startupload", "continueupload", "finishupload", "cancelupload":
            return try chunkedUpload(file, next, context)
        default:
            throw RESTError.invalidQuery("The property '\(next.name)' does not exist on type 'SP.File'.")
        }
    }

    @discardableResult
    func replaceContent(_ file: SPFile, with bytes: [UInt8]) -> SPFile {
        let now = nowEpoch()
        return state.withLock { state in
            guard let index = state.files.firstIndex(where: { $0.uniqueId == file.uniqueId }) else { return file }
            state.files[index].content = .bytes(bytes)
            state.files[index].majorVersion += 1
            state.files[index].modified = now
            return state.files[index]
        }
    }

    /// `startupload` / `continueupload` / `finishupload` / `cancelupload` (offsets are Int64 strings).
    func chunkedUpload(_ file: SPFile, _ segment: Segment, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        guard let uploadId = segment.parameter("uploadId")?.lowercased() else {
            throw RESTError.argument("Value does not fall within the expected range.")
        }
        let chunk = context.request.body
        let offset = segment.parameter("fileOffset").flatMap { Int64($0) }
        let operation = segment.lower
        let key = file.uniqueId + "/" + uploadId
        let outcome: Result<Int, RESTError> = state.withLock { state in
            switch operation {
            case "startupload":
                state.uploads[key] = chunk
                return .success(chunk.count)
            case "cancelupload":
                state.uploads[key] = nil
                return .success(0)
            default:
                guard let existing = state.uploads[key] else {
                    return .failure(
                        RESTError(
                            status: 400, code: "-2147018894, Microsoft.SharePoint.SPFileUploadSessionNotFoundException",
                            message: "The upload session was not found."))
                }
                guard offset == Int64(existing.count) else {
                    return .failure(
                        RESTError(
                            status: 400, code: "-2147018893, Microsoft.SharePoint.SPInvalidFileOffsetException",
                            message: "The file offset is not valid: expected \(existing.count)."))
                }
                state.uploads[key] = existing + chunk
                return .success(existing.count + chunk.count)
            }
        }
        let length: Int
        switch outcome {
        case .success(let value): length = value
        case .failure(let error): throw error
        }
        switch operation {
        case "cancelupload":
            return HTTPServerResponse(status: 200, headers: standardHeaders())
        case "finishupload":
            let bytes = state.withLock { state -> [UInt8] in
                defer { state.uploads[key] = nil }
                return state.uploads[key] ?? []
            }
            let updated = replaceContent(file, with: bytes)
            return jsonResponse(fileEntity(updated, context, top: true), context)
        default:
            let name = operation == "startupload" ? "StartUpload" : "ContinueUpload"
            let value = JSON.string(String(length))
            switch context.flavour {
            case .verbose: return jsonResponse(.object([("d", .object([(name, value)]))]), context)
            case .minimal, .atom:
                return jsonResponse(
                    .object([("odata.metadata", .string(context.site + "/_api/$metadata#Edm.Int64")), ("value", value)]
                    ), context)
            case .nometadata: return jsonResponse(.object([("value", value)]), context)
            }
        }
    }
}

/// A plain Atom/XML rendering for clients that do not ask for JSON (SharePoint's default without `Accept`).
enum AtomRenderer {
    static func render(_ json: JSON) -> String {
        var out =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><entry xmlns=\"http://www.w3.org/2005/Atom\" xmlns:d=\"http://schemas.microsoft.com/ado/2007/08/dataservices\" xmlns:m=\"http://schemas.microsoft.com/ado/2007/08/dataservices/metadata\"><content type=\"application/xml\"><m:properties>"
        if case .object(let members) = json {
            for (key, value) in members where !key.hasPrefix("odata.") {
                out += property(key, value)
            }
        }
        return out + "</m:properties></content></entry>"
    }

    static func property(_ key: String, _ value: JSON) -> String {
        let name = "d:" + key
        switch value {
        case .string(let text): return "<\(name)>\(xmlEscape(text))</\(name)>"
        case .int(let number): return "<\(name) m:type=\"Edm.Int32\">\(number)</\(name)>"
        case .double(let number): return "<\(name) m:type=\"Edm.Double\">\(number)</\(name)>"
        case .bool(let flag): return "<\(name) m:type=\"Edm.Boolean\">\(flag)</\(name)>"
        case .null: return "<\(name) m:null=\"true\" />"
        case .object(let members):
            return "<\(name)>" + members.map { property($0.0, $0.1) }.joined() + "</\(name)>"
        case .array(let elements):
            return "<\(name)>" + elements.map { property("element", $0) }.joined() + "</\(name)>"
        }
    }
}
