public import Foundation
public import JSON

/// One entry of a change log (`SP.ChangeItem`, as `GetChanges` answers with `Item` in the query): what changed, how,
/// when, and the token that marks the change. Decoding requires `ChangeType` and `ChangeToken.StringValue`.
public struct Change: ODataDecodable, Equatable {
    /// `SP.ChangeType` as sent: 1 add, 2 update, 3 delete, 4 rename, 5 move away, 6 move into, 7 restore, … .
    public var changeType: Int
    /// `ChangeToken.StringValue`: a change token for the position just after this change.
    public var token: String
    /// The changed item's id (`ItemId`), when sent.
    public var itemID: Int?
    /// The list holding the item (`ListId`), when sent.
    public var listID: String?
    /// The item's or file's unique id (`UniqueId`), when sent.
    public var uniqueID: String?
    /// The item's, file's or folder's server-relative URL (`ServerRelativeUrl`, SharePoint Online), when sent.
    public var serverRelativeURL: String?
    /// `FileSystemObjectType` 1: a folder.
    public var isFolder: Bool
    /// When the change was made.
    public var time: Date?
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        changeType = try entity.requiredInt("ChangeType")
        guard let token = entity["ChangeToken"]?["StringValue"]?.stringValue else {
            throw SharePointError(unexpectedResponse: "a change without ChangeToken.StringValue")
        }
        self.token = token
        itemID = entity.int("ItemId")
        listID = entity.string("ListId")
        uniqueID = entity.string("UniqueId")
        serverRelativeURL = entity.string("ServerRelativeUrl")
        isFolder = entity.int("FileSystemObjectType") == 1
        time = entity.date("Time")
    }

    /// The change type in one word: `add`, `update`, `delete`, `rename`, `moveAway`, `moveInto`, `restore`, or
    /// `type N` for the others.
    public var typeName: String {
        switch changeType {
        case 1: return "add"
        case 2: return "update"
        case 3: return "delete"
        case 4: return "rename"
        case 5: return "moveAway"
        case 6: return "moveInto"
        case 7: return "restore"
        default: return "type \(changeType)"
        }
    }

    /// Whether the object is gone after this change (a delete, or a move away).
    public var removes: Bool { changeType == 3 || changeType == 5 }

    /// Whether the object arrived at its URL by this change (a rename, or a move into the list): what was below a
    /// folder came with it.
    public var arrives: Bool { changeType == 4 || changeType == 6 }
}

/// What a `GetChanges` request asks for (`SP.ChangeQuery`): the change types and objects, where to start and how many
/// changes per request.
public struct ChangeQuery: Sendable, Equatable {
    /// Adds, updates, deletes, renames, and moves and restores.
    public var add = true
    public var update = true
    public var deleteObject = true
    public var rename = true
    public var move = true
    public var restore = true
    /// List items (library files and folders are items too).
    public var item = true
    /// Files and folders (as objects of their own).
    public var file = false
    public var folder = false
    /// The change token to start after (`ChangeTokenStart`); nil: from the start of the change log.
    public var start: String?
    /// Changes per request (`FetchLimit`; SharePoint's own default is 1000).
    public var fetchLimit = 1000

    /// Adds, updates, deletes, renames, moves and restores of items, after `start`.
    public init(start: String? = nil, fetchLimit: Int = 1000) {
        self.start = start
        self.fetchLimit = fetchLimit
    }

    /// The request body: `{"query":{…}}` (verbose with its `__metadata` types).
    public func body(flavor: ODataFlavor) -> Data {
        func typed(_ type: String, _ members: [(String, JSONValue)]) -> JSONValue {
            .object((flavor == .verbose ? [("__metadata", .object([("type", .string(type))]))] : []) + members)
        }
        var members: [(String, JSONValue)] = [
            ("Add", .bool(add)), ("Update", .bool(update)), ("DeleteObject", .bool(deleteObject)),
            ("Rename", .bool(rename)), ("Move", .bool(move)), ("Restore", .bool(restore)), ("Item", .bool(item)),
            ("File", .bool(file)), ("Folder", .bool(folder)), ("FetchLimit", .integer(Int64(fetchLimit))),
        ]
        if let start {
            members.append(("ChangeTokenStart", typed("SP.ChangeToken", [("StringValue", .string(start))])))
        }
        return JSONValue.object([("query", typed("SP.ChangeQuery", members))]).encoded()
    }
}

extension API {
    /// `/_api/web/GetChanges` (POST, an `SP.ChangeQuery` body).
    public static let webChanges = web.appending("GetChanges")
}

extension ListPath {
    /// `…/GetChanges` (POST, an `SP.ChangeQuery` body).
    public var changes: RESTPath { path.appending("GetChanges") }
}

extension SharePointSite {
    /// One request of changes: `POST …/GetChanges` for `list` (nil: the web), at most `query.fetchLimit` of them,
    /// oldest first. A start token older than the change log keeps → an error whose
    /// ``SharePointError/isChangeTokenTooOld`` is true: read everything again and take a new token.
    /// Sent again on 429/503 (it changes nothing).
    public func changes(in list: ListPath?, query: ChangeQuery) async throws(SharePointError) -> [Change] {
        let url = (list?.changes ?? API.webChanges).url(site: siteURL)
        let exchange = Exchange.write(
            self, url, body: .bytes(Array(query.body(flavor: flavor))), contentType: flavor.mediaType,
            repeatable: true)
        let response = try await perform(exchange)
        do {
            return try ODataDocument(data: Data(response.body)).collection().entities.map {
                (entity) throws(SharePointError) in try Change(entity: entity)
            }
        } catch {
            throw error.at(url)
        }
    }

    /// Every change after `start` (nil: from the start of the log), request after request of `fetchLimit` until
    /// one comes back short, with the token to start after next time: the last change's, or `start` when there
    /// were none. A server whose pages never end cannot hold the run: a page that starts again at a token already
    /// sent, or goes back in the log, is an error (a loop), and past ``changeLimit`` changes the error's
    /// ``SharePointError/isChangeLogOverrun`` says to read everything instead.
    public func allChanges(in list: ListPath?, since start: String?, fetchLimit: Int = 1000)
        async throws(SharePointError) -> (changes: [Change], token: String?)
    {
        var all: [Change] = []
        var query = ChangeQuery(start: start, fetchLimit: fetchLimit)
        var sent: Set<String> = [start ?? ""]
        var position = start.flatMap(Self.changeNumber)
        while true {
            let page = try await changes(in: list, query: query)
            all += page
            guard page.count >= fetchLimit, let last = page.last, last.token != query.start else { break }
            guard all.count < Self.changeLimit else {
                throw SharePointError(unexpectedResponse: Self.overrunMessage + " (more than \(Self.changeLimit))")
            }
            let next = Self.changeNumber(last.token)
            guard sent.insert(last.token).inserted, next == nil || position == nil || next! > position! else {
                throw SharePointError(
                    unexpectedResponse: "the change log went back to a token it had given before (\(last.token)); "
                        + "stopped reading it")
            }
            position = next ?? position
            query.start = last.token
        }
        return (all, all.last?.token ?? start)
    }

    /// The most changes ``allChanges(in:since:fetchLimit:)`` gathers: past it, reading everything is cheaper, and a
    /// log that never ends cannot keep a run going.
    public static let changeLimit = 200_000

    static let overrunMessage = "the change log holds more changes since the token than a run reads"

    /// A change token's position in the log (its fifth part, `1;3;GUID;TICKS;NUMBER`), nil when it has none.
    static func changeNumber(_ token: String) -> Int? {
        let parts = token.split(separator: ";", omittingEmptySubsequences: false)
        return parts.count == 5 ? Int(parts[4]) : nil
    }

    /// The change token of `list` (nil: the web) now: `CurrentChangeToken.StringValue`.
    public func currentChangeToken(of list: ListPath?) async throws(SharePointError) -> String {
        let path = list?.path ?? API.web
        let response = try await perform(
            .read(self, path.url(site: siteURL, query: ODataQuery(select: ["CurrentChangeToken"]))))
        let entity: ODataEntity
        do {
            entity = try ODataDocument(data: Data(response.body)).entity()
        } catch {
            throw error.at(response.url)
        }
        guard let token = entity["CurrentChangeToken"]?["StringValue"]?.stringValue else {
            var error = SharePointError(unexpectedResponse: "no CurrentChangeToken.StringValue")
            error.url = response.url
            throw error
        }
        return token
    }
}

extension SharePointError {
    /// Whether SharePoint refused a change token as older than its change log keeps
    /// (`SPInvalidChangeTokenException`: "The changeToken refers to a time before the start of the current change
    /// log."): start over with a full read.
    public var isChangeTokenTooOld: Bool {
        exceptionName?.hasSuffix("SPInvalidChangeTokenException") == true
            || message?.contains("before the start of the current change log") == true
    }

    /// Whether ``SharePointSite/allChanges(in:since:fetchLimit:)`` stopped at its limit: more changed since the
    /// token than a run reads, so read everything, as for a token too old.
    public var isChangeLogOverrun: Bool {
        message?.hasPrefix(SharePointSite.overrunMessage) == true
    }
}
