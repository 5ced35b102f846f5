import Foundation
public import JSON
import Transport

/// One item write inside an OData `$batch`: a create (`POST …/items`), a change (`PATCH …/items(ID)`, SharePoint's
/// MERGE) or a delete (`DELETE …/items(ID)`).
public struct BatchItemChange: Sendable {
    /// What the change does to its item.
    public enum Action: Sendable, Equatable {
        /// Creates an item from ``BatchItemChange/fields``.
        case create
        /// Changes ``BatchItemChange/fields`` of item ``BatchItemChange/id``.
        case update
        /// Deletes item ``BatchItemChange/id`` (to the recycle bin).
        case delete
    }

    /// What the change does.
    public var action: Action
    /// The item to change or delete; nil for a create.
    public var id: Int?
    /// JSON property names and values, as for ``SharePointSite/addItem(to:fields:)`` (empty for a delete).
    public var fields: [(String, JSONValue)]
    /// The etag for a change or delete (`*` overwrites).
    public var etag: String

    /// A create (`id` nil) or a change of item `id`.
    public init(id: Int?, fields: [(String, JSONValue)], etag: String = "*") {
        self.action = id == nil ? .create : .update
        self.id = id
        self.fields = fields
        self.etag = etag
    }

    /// A delete of item `id`, refused by the server when the item's etag is no longer `etag` (`*`: whatever it is).
    public static func delete(id: Int, etag: String = "*") -> BatchItemChange {
        var change = BatchItemChange(id: id, fields: [], etag: etag)
        change.action = .delete
        return change
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

    /// Ends the message of a batch failure after which the server may have written changes.
    static let mayHaveWrittenSentence =
        "The server may have written some of the changes: check them before sending them again."

    /// Sends `changes` (at most ``maximumBatchChanges``) as one `POST /_api/$batch`: a `multipart/mixed` body with
    /// one changeset whose parts are `application/http` requests. Returns one outcome per change, in order.
    ///
    /// A change that fails does not stop the others, and nothing is rolled back (SharePoint's changesets are not
    /// transactions): each outcome says what happened to its change. The batch as a whole is sent again only when
    /// the server surely did nothing with it: a 429 or 503 answer to the batch itself, a connection that could not
    /// be made, an ended session (401) or an expired digest (403) — never after a timeout or a broken connection,
    /// which could have written some changes. Throws when the batch itself fails (the session, the network,
    /// throttling after the retries) or its answer cannot be read as one part per change (cut short, the wrong
    /// boundary, a part missing or too many). The error's ``SharePointError/mayHaveBeenWritten`` says whether the
    /// server may have carried out some changes (then its message says to check them before sending them again):
    /// true for an unreadable answer, a failure after the batch was sent, a 5xx other than 503.
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
        let writesFields = changes.contains { $0.action != .delete }
        let entityType = flavor == .verbose && writesFields ? try await itemEntityType(of: list) : nil
        let batch = "batch_" + UUID().uuidString.lowercased()
        let changeset = "changeset_" + UUID().uuidString.lowercased()
        var body = "--\(batch)\r\nContent-Type: multipart/mixed; boundary=\(changeset)\r\n\r\n"
        var targets: [String] = []
        for change in changes {
            body += "--\(changeset)\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
            let target = change.id.map { list.item($0).path.url(site: siteURL) } ?? list.items.url(site: siteURL)
            targets.append(target)
            switch change.action {
            case .create:
                body += "POST \(target) HTTP/1.1\r\n"
            case .update:
                body += "PATCH \(target) HTTP/1.1\r\nIF-MATCH: \(try checkedEtag(change.etag, url: target))\r\n"
            case .delete:
                body += "DELETE \(target) HTTP/1.1\r\nIF-MATCH: \(try checkedEtag(change.etag, url: target))\r\n"
                body += "Accept: \(flavor.mediaType)\r\n\r\n\r\n"
                continue
            }
            let payload = RESTRequest.itemBody(fields: change.fields, entityType: entityType, flavor: flavor)
            body += "Content-Type: \(flavor.mediaType)\r\nAccept: \(flavor.mediaType)\r\n\r\n"
            body += String(decoding: payload, as: UTF8.self) + "\r\n"
        }
        body += "--\(changeset)--\r\n\r\n--\(batch)--\r\n"
        // Repeatable in Transport's sense: it repeats only on a 429/503 answer or a connection never made, when the
        // server has written nothing.
        let exchange = Exchange.write(
            self, url, body: .bytes(Array(body.utf8)), contentType: "multipart/mixed; boundary=\(batch)",
            repeatable: true)
        let response: HTTPResponse
        do {
            response = try await perform(exchange)
        } catch  where error.mayHaveBeenWritten {
            var failure = error
            failure.message = (error.message.map { $0 + " " } ?? "") + Self.mayHaveWrittenSentence
            throw failure
        }
        let parts: [BatchResponse.Part]
        do throws(BatchResponse.Unreadable) {
            parts = try BatchResponse.parts(Array(response.body), contentType: response.header("Content-Type") ?? "")
            guard parts.count == changes.count else {
                throw BatchResponse.Unreadable(reason: "it has \(parts.count) parts for \(changes.count) changes")
            }
        } catch {
            // A 2xx: the server took the batch, and its parts cannot be matched to the changes.
            let detail = "The $batch answer could not be read: \(error.reason). " + Self.mayHaveWrittenSentence
            var failure = SharePointError(
                kind: .unexpectedResponse(detail), status: response.status, message: detail, url: url)
            failure.mayHaveBeenWritten = true
            throw failure
        }
        return zip(zip(changes, parts), targets).map { pair, target in
            let (change, part) = pair
            guard (200..<300).contains(part.status) else {
                return BatchItemOutcome(
                    status: part.status, id: change.id,
                    error: SharePointError(status: part.status, headers: part.headers, body: part.body, url: target))
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
