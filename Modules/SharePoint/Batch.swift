import Foundation
public import JSON

/// One item write inside an OData `$batch`: a create (`POST …/items`) or a change (`MERGE …/items(ID)`).
public struct BatchItemChange: Sendable {
    /// The item to change, or nil to create one.
    public var id: Int?
    /// JSON property names and values, as for ``SharePointSite/addItem(to:fields:)``.
    public var fields: [(String, JSONValue)]
    /// The etag for a change (`*` overwrites).
    public var etag: String

    /// A create (`id` nil) or a change of item `id`.
    public init(id: Int?, fields: [(String, JSONValue)], etag: String = "*") {
        self.id = id
        self.fields = fields
        self.etag = etag
    }
}

/// The answer to one change of a `$batch`: the item's id on success, else the server's error for that change.
public struct BatchItemOutcome: Sendable {
    /// The HTTP status of the change's own response (`201`, `204`, `400`, …).
    public var status: Int
    /// The new item's id (creates) or the changed item's id.
    public var id: Int?
    /// The failure, when the status is not 2xx.
    public var error: SharePointError?
}

extension SharePointSite {
    /// The most changes SharePoint accepts in one `$batch` request.
    public static let maximumBatchChanges = 100

    /// Sends `changes` (at most ``maximumBatchChanges``) as one `POST /_api/$batch`: a `multipart/mixed` body with
    /// one changeset whose parts are `application/http` requests. Returns one outcome per change, in order.
    ///
    /// A change that fails does not stop the others (SharePoint answers each part on its own). Never repeated
    /// automatically (a repeat could create duplicates). Throws when the batch itself fails (the session, the
    /// network, throttling) or its answer has fewer parts than changes sent.
    public func batchWrite(_ changes: [BatchItemChange], in list: ListPath) async throws(SharePointError)
        -> [BatchItemOutcome]
    {
        guard !changes.isEmpty else { return [] }
        let url = siteURL + "/_api/$batch"
        guard changes.count <= Self.maximumBatchChanges else {
            throw SharePointError(
                kind: .badRequest, status: 0,
                message:
                    "A batch holds at most \(Self.maximumBatchChanges) changes (\(changes.count) given): split it.",
                url: url)
        }
        let entityType = flavor == .verbose ? try await itemEntityType(of: list) : nil
        let batch = "batch_" + UUID().uuidString.lowercased()
        let changeset = "changeset_" + UUID().uuidString.lowercased()
        var body = "--\(batch)\r\nContent-Type: multipart/mixed; boundary=\(changeset)\r\n\r\n"
        for change in changes {
            let payload = RESTRequest.itemBody(fields: change.fields, entityType: entityType, flavor: flavor)
            body += "--\(changeset)\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
            if let id = change.id {
                let target = list.item(id).path.url(site: siteURL)
                body += "PATCH \(target) HTTP/1.1\r\nIF-MATCH: \(try checkedEtag(change.etag, url: target))\r\n"
            } else {
                body += "POST \(list.items.url(site: siteURL)) HTTP/1.1\r\n"
            }
            body += "Content-Type: \(flavor.mediaType)\r\nAccept: \(flavor.mediaType)\r\n\r\n"
            body += String(decoding: payload, as: UTF8.self) + "\r\n"
        }
        body += "--\(changeset)--\r\n\r\n--\(batch)--\r\n"
        let exchange = Exchange.write(
            self, url, body: .bytes(Array(body.utf8)), contentType: "multipart/mixed; boundary=\(batch)",
            repeatable: false)
        let response = try await perform(exchange)
        let parts = BatchResponse.parts(
            Array(response.body), contentType: response.header("Content-Type") ?? "")
        guard parts.count >= changes.count else {
            throw SharePointError(
                kind: .server, status: response.status,
                message: "The $batch answer has \(parts.count) parts for \(changes.count) changes.", url: url)
        }
        return zip(changes, parts).map { change, part in
            guard (200..<300).contains(part.status) else {
                return BatchItemOutcome(
                    status: part.status, id: change.id,
                    error: SharePointError(status: part.status, headers: part.headers, body: part.body, url: url))
            }
            if change.id != nil || part.body.isEmpty { return BatchItemOutcome(status: part.status, id: change.id) }
            let item = try? ListItem.decode(part.body)
            return BatchItemOutcome(status: part.status, id: item?.id)
        }
    }

    /// Resolves a person by e-mail address or login name: `POST /_api/web/ensureuser` with `logonName`, which
    /// adds the user to the site when needed. Returns the user (its ``User/id`` is what `…Id` fields take).
    /// Not found → a ``SharePointError`` with the server's message.
    public func ensureUser(_ logonName: String) async throws(SharePointError) -> User {
        let url = siteURL + "/_api/web/ensureuser"
        let body = JSONValue.object([("logonName", .string(logonName))]).encoded()
        let exchange = Exchange.write(
            self, url, body: .bytes(Array(body)), contentType: flavor.mediaType, repeatable: true)
        return try decodeEntity(try await perform(exchange))
    }
}

/// Reads a `$batch` answer: nested `multipart/mixed` parts down to each `application/http` response.
enum BatchResponse {
    /// One embedded HTTP response.
    struct Part {
        var status: Int
        var headers: [(String, String)]
        var body: Data
    }

    /// Every embedded response, in order (changeset parts flattened).
    static func parts(_ bytes: [UInt8], contentType: String) -> [Part] {
        guard let boundary = boundary(of: contentType) else { return [] }
        var result: [Part] = []
        for section in sections(String(decoding: bytes, as: UTF8.self), boundary: boundary) {
            let (headers, content) = splitHead(section)
            let type = headers.first { $0.0.lowercased() == "content-type" }?.1 ?? ""
            if type.lowercased().hasPrefix("multipart/mixed") {
                result += parts(Array(content.utf8), contentType: type)
            } else if let part = httpResponse(content) {
                result.append(part)
            }
        }
        return result
    }

    /// The `boundary=` parameter of a content type (quotes removed).
    static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";") {
            let trimmed = parameter.trimmingCharacters(in: .whitespaces)
            if trimmed.lowercased().hasPrefix("boundary=") {
                return String(trimmed.dropFirst("boundary=".count)).trimmingCharacters(in: CharacterSet(["\""]))
            }
        }
        return nil
    }

    /// The bodies between `--boundary` lines (the preamble and the closing `--boundary--` dropped).
    static func sections(_ text: String, boundary: String) -> [String] {
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n")
        var sections: [String] = []
        var current: [Substring]?
        for line in normalised.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("--" + boundary) {
                if let current { sections.append(current.joined(separator: "\n")) }
                current = line.hasPrefix("--" + boundary + "--") ? nil : []
            } else {
                current?.append(line)
            }
        }
        return sections
    }

    /// Header lines up to the first blank line, and what follows.
    static func splitHead(_ text: String) -> ([(String, String)], String) {
        var headers: [(String, String)] = []
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

    /// `HTTP/1.1 201 Created`, headers, blank line, body.
    static func httpResponse(_ text: String) -> Part? {
        let trimmed = text.drop { $0 == "\n" }
        guard let end = trimmed.firstIndex(of: "\n") else { return nil }
        let statusLine = trimmed[..<end].split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/"), let status = Int(statusLine[1]) else {
            return nil
        }
        let (headers, body) = splitHead(String(trimmed[trimmed.index(after: end)...]))
        return Part(
            status: status, headers: headers,
            body: Data(body.trimmingCharacters(in: .whitespacesAndNewlines).utf8))
    }
}
