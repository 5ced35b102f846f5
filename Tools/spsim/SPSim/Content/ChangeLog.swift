import Foundation

/// One entry of the web's change log: what changed (an item, a library file's item, or a folder), how
/// (`SP.ChangeType`), and when, under a number that only grows.
struct SPChange: Sendable {
    /// `SP.ChangeType`: 1 Add, 2 Update, 3 DeleteObject, 4 Rename (5 MoveAway, 6 MoveInto, 7 Restore).
    enum Kind: Int, Sendable {
        case add = 1
        case update = 2
        case deleteObject = 3
        case rename = 4
        case moveAway = 5
        case moveInto = 6
    }

    let number: Int
    let kind: Kind
    let listId: String
    /// The item's id (0 for a folder made with `Folders/add`, which is no list item here).
    let itemId: Int
    /// The file's or item's unique id.
    let uniqueId: String
    /// The file's, folder's or item's server-relative URL (`/Lists/Tasks/7_.000` for a plain item).
    let serverRelativeUrl: String
    /// Whether a folder changed (`FileSystemObjectType` 1).
    let isFolder: Bool
    let time: Int
}

/// The change log of the one simulated web (`GetChanges` on the web or one list reads it): every add, update and
/// delete of an item, file or folder, numbered from 1, and each move as SharePoint logs it (within a library a
/// `Rename` at the new address; to another library a `MoveAway` in the one it left and a `MoveInto` in the other). `truncate()` stands for the retention SharePoint applies
/// (60 days online): a change token from before it is refused (`SPInvalidChangeTokenException`).
struct ChangeLog: Sendable {
    private(set) var entries: [SPChange] = []
    /// The number of the last change (0: none yet): the change number of a current change token.
    private(set) var lastNumber = 0
    /// Changes numbered up to this one are no longer kept: a token with a smaller number is too old.
    private(set) var keptAfter = 0

    mutating func record(
        _ kind: SPChange.Kind, listId: String, itemId: Int, uniqueId: String, url: String, isFolder: Bool = false,
        at time: Int
    ) {
        lastNumber += 1
        entries.append(
            SPChange(
                number: lastNumber, kind: kind, listId: listId, itemId: itemId, uniqueId: uniqueId,
                serverRelativeUrl: url, isFolder: isFolder, time: time))
    }

    /// Forgets every change so far (a token taken before now is then too old; the current one stays good).
    mutating func truncate() {
        entries.removeAll()
        keptAfter = lastNumber
    }

    /// Whether changes after `number` are no longer all kept.
    func isTooOld(_ number: Int) -> Bool { number < keptAfter }

    /// At most `limit` changes after `number`, oldest first, of one list (`listId`) or of the web (nil).
    func changes(after number: Int, listId: String?, limit: Int, where wanted: (SPChange) -> Bool) -> [SPChange] {
        var found: [SPChange] = []
        for change in entries where change.number > number {
            if let listId, change.listId != listId { continue }
            guard wanted(change) else { continue }
            found.append(change)
            if found.count >= limit { break }
        }
        return found
    }

    /// .NET ticks (100 ns since 0001-01-01) of a Unix time, as change tokens carry them.
    static func ticks(_ epoch: Int) -> Int { (epoch + 62_135_596_800) * 10_000_000 }

    /// A change token's `StringValue`: `1;<scope>;<guid>;<ticks>;<number>` (scope 2 a web, 3 a list).
    static func token(scope: Int, id: String, time: Int, number: Int) -> String {
        "1;\(scope);\(id);\(ticks(time));\(number)"
    }
}

extension SimulatorState {
    /// Logs a change of item `itemId` of `list` (a library's item: its file, found here), now.
    mutating func logItemChange(_ kind: SPChange.Kind, in list: SPList, itemId: Int, guid: String? = nil) {
        if let file = files.first(where: { $0.listId == list.id && $0.itemId == itemId }) {
            logFileChange(kind, file)
            return
        }
        changes.record(
            kind, listId: list.id, itemId: itemId, uniqueId: guid ?? list.item(itemId)?.guid ?? "",
            url: list.url + "/\(itemId)_.000", at: nowEpoch())
    }

    /// Logs a change of `file` (its list item), now.
    mutating func logFileChange(_ kind: SPChange.Kind, _ file: SPFile) {
        changes.record(
            kind, listId: file.listId, itemId: file.itemId, uniqueId: file.uniqueId, url: file.serverRelativeUrl,
            at: nowEpoch())
    }

    /// Logs a change of the folder at `url` (made with `Folders/add`), now.
    mutating func logFolderChange(_ kind: SPChange.Kind, url: String, listId: String) {
        changes.record(
            kind, listId: listId, itemId: 0, uniqueId: stableFolderId(url), url: url, isFolder: true, at: nowEpoch())
    }

    /// A folder's unique id, the same for the same URL.
    private func stableFolderId(_ url: String) -> String {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in url.lowercased().utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        let hex = String(format: "%016llx", hash)
        return "\(hex.prefix(8))-\(hex.dropFirst(8).prefix(4))-4\(hex.dropFirst(13).prefix(3))-8000-"
            + String(hex.prefix(12))
    }
}

extension Simulator {
    /// Test hook: the change log forgets every change so far, as SharePoint's retention does with old ones; a
    /// change token taken before is then refused as too old.
    public func truncateChangeLog() { core.state.withLock { $0.changes.truncate() } }

    /// The number of changes in the change log (test hook).
    public var changeCount: Int { core.state.withLock { $0.changes.entries.count } }
}
