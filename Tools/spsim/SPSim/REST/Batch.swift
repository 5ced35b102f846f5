import Foundation
import HTTPServer

/// OData `$batch` (`POST /_api/$batch`, `multipart/mixed` with changesets) and `web/ensureuser`, as SharePoint
/// answers them.
enum BatchRequest {
    /// One embedded `application/http` request.
    struct Operation {
        var method: String
        var url: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]
    }

    /// How many operations a `$batch` request carries (for the request log).
    static func operationCount(_ request: HTTPServerRequest) -> Int {
        operations(request.body, contentType: request.header("Content-Type") ?? "").count
    }

    /// Every embedded request, in order (changesets flattened).
    static func operations(_ body: [UInt8], contentType: String) -> [Operation] {
        guard let boundary = boundary(of: contentType) else { return [] }
        var result: [Operation] = []
        for section in sections(String(decoding: body, as: UTF8.self), boundary: boundary) {
            let (headers, content) = splitHead(section)
            let type = headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
            if type.lowercased().hasPrefix("multipart/mixed") {
                result += operations(Array(content.utf8), contentType: type)
            } else if type.lowercased().hasPrefix("application/http") {
                let trimmed = content.drop { $0 == "\n" }
                let end = trimmed.firstIndex(of: "\n") ?? trimmed.endIndex
                let words = trimmed[..<end].split(separator: " ")
                guard words.count >= 2 else { continue }
                let rest = end < trimmed.endIndex ? String(trimmed[trimmed.index(after: end)...]) : ""
                let (innerHeaders, innerBody) = splitHead(rest)
                let payload = innerBody.trimmingCharacters(in: .whitespacesAndNewlines)
                result.append(
                    Operation(
                        method: String(words[0]), url: String(words[1]), headers: innerHeaders,
                        body: Array(payload.utf8)))
            }
        }
        return result
    }

    static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";") {
            let trimmed = parameter.trimmingCharacters(in: .whitespaces)
            if trimmed.lowercased().hasPrefix("boundary=") {
                return String(trimmed.dropFirst("boundary=".count)).trimmingCharacters(in: CharacterSet(["\""]))
            }
        }
        return nil
    }

    static func sections(_ text: String, boundary: String) -> [String] {
        var sections: [String] = []
        var current: [Substring]?
        for line in text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            if line.hasPrefix("--" + boundary) {
                if let current { sections.append(current.joined(separator: "\n")) }
                current = line.hasPrefix("--" + boundary + "--") ? nil : []
            } else {
                current?.append(line)
            }
        }
        return sections
    }

    static func splitHead(_ text: String) -> ([(name: String, value: String)], String) {
        var headers: [(name: String, value: String)] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.first, !line.trimmingCharacters(in: .whitespaces).isEmpty {
            lines = lines.dropFirst()
            if let colon = line.firstIndex(of: ":") {
                headers.append(
                    (
                        String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                        String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                    ))
            }
        }
        return (headers, lines.dropFirst().joined(separator: "\n"))
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 412: return "Precondition Failed"
        default: return "Error"
        }
    }
}

extension SimulatorCore {
    /// `POST /_api/$batch`: each operation is routed like a request of its own (with the batch's credentials and
    /// digest) and answered in a `multipart/mixed` body of `application/http` parts, one changeset response per
    /// changeset. A failed operation does not stop the others and nothing is rolled back (SharePoint's changesets
    /// are not atomic either). More than 100 operations → 400, nothing done.
    func batch(_ context: RESTContext) throws -> HTTPServerResponse {
        guard context.request.method == "POST" else {
            throw RESTError(
                status: 405, code: "-1, System.InvalidOperationException",
                message: "The HTTP method '\(context.request.method)' cannot be used with $batch.")
        }
        // SharePoint checks the batch's own digest before any operation (an expired one fails the whole batch, so
        // a client can fetch a new digest and send it again: nothing was written).
        try requireDigest(context)
        let operations = BatchRequest.operations(
            context.request.body, contentType: context.request.header("Content-Type") ?? "")
        guard !operations.isEmpty else {
            throw RESTError.invalidQuery("The batch request body is not a multipart/mixed body with operations.")
        }
        guard operations.count <= 100 else {
            throw RESTError.invalidQuery(
                "The current change set contains too many operations. A maximum number of '100' operations are allowed in a change set."
            )
        }
        let carried = context.request.headers.filter {
            ["cookie", "authorization", "x-requestdigest"].contains($0.name.lowercased())
        }
        let changeset = "changesetresponse_" + Tokens.guid()
        var text = ""
        for operation in operations {
            var target = operation.url
            // The path from the host on: a site collection's routes start with its own path (`/sites/hr/_api`).
            let origin = String(context.site.dropLast(webRoot.count))
            if target.lowercased().hasPrefix(origin.lowercased() + "/") {
                target = String(target.dropFirst(origin.count))
            } else if let schemeEnd = target.range(of: "://"),
                let slash = target[schemeEnd.upperBound...].firstIndex(of: "/")
            {
                target = String(target[slash...])
            }
            let request = HTTPServerRequest(
                method: operation.method, target: target, headers: operation.headers + carried,
                body: operation.body, clientAddress: context.request.clientAddress,
                serverAddress: context.request.serverAddress)
            let flavour = Flavour(accept: request.header("Accept"))
            var response: HTTPServerResponse
            do {
                guard request.path.lowercased().hasPrefix(webRoot.lowercased() + "/_api/") else {
                    throw RESTError.invalidQuery("The batch operation URL '\(operation.url)' is not a REST URL.")
                }
                let inner = RESTContext(
                    flavour: flavour, site: context.site, query: try QueryOptions(request.query), request: request,
                    user: context.user, app: context.app)
                response = try route(inner)
            } catch let error as RESTError {
                response = errorResponse(error, flavour: flavour)
            } catch {
                response = errorResponse(RESTError.argument("\(error)"), flavour: flavour)
            }
            var bytes: [UInt8] = []
            if case .bytes(let body) = response.body { bytes = body }
            text += "--\(changeset)\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
            text += "HTTP/1.1 \(response.status) \(BatchRequest.reason(response.status))\r\n"
            for header in response.headers
            where ["content-type", "etag", "location"].contains(header.name.lowercased()) {
                text += "\(header.name.uppercased()): \(header.value)\r\n"
            }
            text += "\r\n" + String(decoding: bytes, as: UTF8.self) + "\r\n"
        }
        let batch = "batchresponse_" + Tokens.guid()
        let body =
            "--\(batch)\r\nContent-Type: multipart/mixed; boundary=\(changeset)\r\n\r\n" + text
            + "--\(changeset)--\r\n--\(batch)--\r\n"
        return HTTPServerResponse(
            status: 200, contentType: "multipart/mixed; boundary=\(batch)", text: body, headers: standardHeaders())
    }

    /// `POST /_api/web/ensureuser` with `{"logonName": "…"}` (an e-mail, account or claims login): the user
    /// entity; an unknown name → 500 "The specified user … could not be found." as SharePoint answers.
    func ensureUser(_ context: RESTContext) throws -> HTTPServerResponse {
        guard context.request.method == "POST" else {
            throw RESTError(
                status: 405, code: "-1, System.InvalidOperationException",
                message:
                    "The HTTP method '\(context.request.method)' cannot be used to access the resource 'EnsureUser'.")
        }
        try requireDigest(context)
        let object = parseJSONObject(context.request.body) ?? [:]
        let name = (object["logonName"] as? String) ?? (object["logonname"] as? String) ?? ""
        let login = name.split(separator: "|").last.map(String.init) ?? name
        guard !login.isEmpty, let index = userIndex(login: login) else {
            throw RESTError(
                status: 500, code: "-2146232832, Microsoft.SharePoint.SPException",
                message: "The specified user \(name) could not be found.")
        }
        return jsonResponse(userEntity(index, context, top: true), context)
    }
}

/// Fields for bulk writes on the `Asset_Register` list: a person, a lookup (to Projects), a date and a number, so
/// that imports can show each conversion. The seeded items leave them empty.
enum BulkWriteSeed {
    /// The extra fields of `list` (none for other lists).
    static func fields(seed: UInt64, list: String) -> [FieldDef] {
        guard list == "Asset_Register" else { return [] }
        return [
            SiteContent.field(seed, list, "Owner", "Owner", "User", 20),
            SiteContent.field(seed, list, "Project", "Project", "Lookup", 7),
            SiteContent.field(seed, list, "PurchaseDate", "Purchase Date", "DateTime", 4),
            SiteContent.field(seed, list, "Cost", "Cost", "Number", 9),
        ]
    }
}

/// The endpoints answered in this file (every `RESTRoute` declared so is routed; see `RESTRoutes.swift`).
extension RESTRoute {
    static let batch = RESTRoute("$batch/**") { try $0.batch($1.context) }
    static let ensureUser = RESTRoute("web/ensureuser/**") { try $0.ensureUser($1.context) }
}
