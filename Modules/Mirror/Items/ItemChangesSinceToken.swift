public import SharePoint

/// `items LIST --since-token FILE` as a library: which items an incremental export reads. Without a token in FILE
/// (first run) every item; with one, the list's change log (`GetChanges`) says which items were added, changed or
/// deleted since, and only the added and changed ones are read, by id (``IDChunkPages``), so a list past the view
/// threshold is never scanned. A token older than the change log keeps means every item again. The token to save is
/// taken before anything is read (a change made during the run is then read again next time, never lost); the caller
/// saves it only once the whole run has succeeded.
public struct ItemChangesSinceToken: Sendable {
    /// What the run reads.
    public enum Reading: Sendable, Equatable {
        /// No token in the file yet: every item.
        case firstRun
        /// The saved token is older than the list's change log keeps: every item (a full run).
        case tokenTooOld
        /// Only the items `changed` (added, changed, renamed, moved in, restored); `deleted` were removed.
        case changes(changed: [Int], deleted: [Int])
    }

    /// What the run reads.
    public let reading: Reading
    /// The token to save in the file once the run has succeeded.
    public let nextToken: String

    /// Reads `file` and the list's change log since its token. Throws ``ChangeTokenFileError`` for a file that
    /// cannot be used or holds another list's token.
    public static func plan(_ file: ChangeTokenFile, list: ListPath, named name: String, site: SharePointSite)
        async throws -> ItemChangesSinceToken
    {
        let saved = try file.read()
        let current = try await site.currentChangeToken(of: list)
        guard let saved else { return ItemChangesSinceToken(reading: .firstRun, nextToken: current) }
        if let id = ChangeTokenFile.scopeID(of: current) {
            try file.check(saved, isFor: id, what: "list '\(name)'")
        }
        guard let found = try await changesUnlessTooOld(site, list, since: saved) else {
            return ItemChangesSinceToken(reading: .tokenTooOld, nextToken: current)
        }
        let (changed, deleted) = summary(of: found.changes)
        return ItemChangesSinceToken(
            reading: .changes(changed: changed, deleted: deleted), nextToken: found.token ?? saved)
    }

    /// The items whose last change leaves them in the list (added, changed, renamed, moved in, restored), and
    /// those whose last change removed them, each in id order. Folders made without a list item (id 0) are left
    /// out.
    public static func summary(of changes: [Change]) -> (changed: [Int], deleted: [Int]) {
        var last: [Int: Change] = [:]
        for change in changes {
            guard let id = change.itemID, id > 0 else { continue }
            last[id] = change
        }
        let ids = last.keys.sorted()
        return (ids.filter { last[$0]?.removes == false }, ids.filter { last[$0]?.removes == true })
    }
}

/// Pages of the items with the given ids, 50 ids a request (`$filter=ID ge A and ID le B and (ID eq A or …)`: the
/// range keeps a big list's scan short, and `ID` is indexed, so the view threshold is never hit), the listing's
/// own selection and filter kept.
public struct IDChunkPages: Sendable {
    /// The ids one request asks for.
    public static let chunk = 50
    let site: SharePointSite
    let list: ListPath
    let query: ODataQuery
    private var remaining: ArraySlice<Int>

    /// The items of `list` with `ids`, read with `query`'s selection and filter.
    public init(site: SharePointSite, list: ListPath, query: ODataQuery, ids: [Int]) {
        self.site = site
        self.list = list
        self.query = query
        remaining = ArraySlice(ids.sorted())
    }

    /// The next chunk's items (nil when every id was asked for).
    public mutating func next() async throws(SharePointError) -> Page<ListItem>? {
        guard let first = remaining.first else { return nil }
        let ids = Array(remaining.prefix(Self.chunk))
        remaining = remaining.dropFirst(Self.chunk)
        let any = ids.map { "ID eq \($0)" }.joined(separator: " or ")
        let chunk = ODataFilter("ID ge \(first) and ID le \(ids[ids.count - 1]) and (\(any))")
        var asked = query
        asked.filter = query.filter.map { $0 && chunk } ?? chunk
        asked.top = Self.chunk
        asked.orderBy = []  // ID order, as documented (and no sort of a big list on an unindexed column)
        // At most the ids asked for: a server that answers a 50-id filter with more rows, or with next links
        // without end, cannot grow this chunk.
        var items: [ListItem] = []
        var pages = site.items(in: list, query: asked).keepingAtMost(ids.count).makeAsyncIterator()
        while items.count < ids.count, let page = try await pages.next() { items += page.items }
        return Page(items: Array(items.prefix(ids.count)), nextLink: nil)
    }
}
