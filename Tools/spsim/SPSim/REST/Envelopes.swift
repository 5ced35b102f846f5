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

/// REST envelopes: the flavour asked for, SharePoint's standard headers, entities, collections and
/// error bodies in verbose, minimal and no metadata JSON (Atom for clients that ask for no JSON).
extension SimulatorCore {
    func standardHeaders() -> [(name: String, value: String)] {
        let guid = Tokens.guid()
        return [
            ("SPRequestGuid", guid), ("request-id", guid), ("SPClientServiceRequestDuration", "12"),
            ("X-SharePointHealthScore", "0"), ("X-SP-SERVERSTATE", "ReadOnly=0"),
            ("MicrosoftSharePointTeamServices", "16.0.0.26000"), ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "private, max-age=0"),
        ]
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

    /// Applies `$select` to a collection entry (metadata keys survive).
    func applySelect(_ entry: JSON, _ query: QueryOptions) -> JSON {
        guard !query.selectsAll, case .object(let members) = entry else { return entry }
        return .object(
            members.filter { member in
                member.0 == "__metadata" || member.0.hasPrefix("odata.")
                    || query.select.contains(where: { $0.lowercased() == member.0.lowercased() })
            })
    }
}
