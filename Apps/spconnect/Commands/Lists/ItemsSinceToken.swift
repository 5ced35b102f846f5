import CommandLineKit
import Foundation
import Mirror
import SharePoint

/// `items LIST --since-token FILE`: an incremental export. Without a token in FILE (first run) every item is listed;
/// with one, the list's change log (`GetChanges`) says which items were added, changed or deleted since, and only the
/// added and changed ones are read, by id (``IDChunkPages``), so a list past the view threshold is never scanned.
/// Deleted ids are reported on standard error, one `deleted: ID` line each. A token older than the change log keeps
/// is said on standard error and the run lists every item instead. FILE gets the new token only once the whole run
/// has succeeded.
enum ItemsSinceToken {
    /// Runs `listing` (with the ids to read, or nil for every item) under the token of `--since-token`, or just runs
    /// it when that option is not given.
    static func run(
        _ arguments: ParsedArguments, list: ListPath, named name: String, site: SharePointSite, output: Output,
        listing: ([Int]?) async throws -> ExitCode
    ) async throws -> ExitCode {
        guard let path = arguments.value(.sinceToken) else { return try await listing(nil) }
        let file = ChangeTokenFile(path: path)
        let saved = try file.read()
        // Taken before anything is read: a change made during the run is then read again next time, never lost.
        let current = try await site.currentChangeToken(of: list)
        var next = current
        var only: [Int]?
        if let saved {
            if let id = ChangeTokenFile.scopeID(of: current) {
                try file.check(saved, isFor: id, what: "list '\(name)'")
            }
            if let found = try await changesUnlessTooOld(site, list, since: saved) {
                let (changed, deleted) = summary(of: found.changes)
                output.note(
                    "spconnect items: \(changed.count) added or changed, \(deleted.count) deleted since the token in "
                        + path)
                for id in deleted { printError("deleted: \(id)") }
                only = changed
                next = found.token ?? saved
            } else {
                printError(
                    "spconnect items: the token in \(path) is older than the change log of list '\(name)' keeps; "
                        + "listing every item (a full run) and saving a new token")
            }
        } else {
            output.note("spconnect items: no token in \(path) yet; listing every item and saving the list's token")
        }
        let code = try await listing(only)
        guard code == .ok else { return code }
        try file.write(next)
        return .ok
    }

    /// The items whose last change leaves them in the list (added, changed, renamed, moved in, restored), and
    /// those whose last change removed them, each in id order. Folders made without a list item (id 0) are left
    /// out.
    static func summary(of changes: [Change]) -> (changed: [Int], deleted: [Int]) {
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
struct IDChunkPages {
    static let chunk = 50
    let site: SharePointSite
    let list: ListPath
    let query: ODataQuery
    private var remaining: ArraySlice<Int>

    init(site: SharePointSite, list: ListPath, query: ODataQuery, ids: [Int]) {
        self.site = site
        self.list = list
        self.query = query
        remaining = ArraySlice(ids.sorted())
    }

    /// The next chunk's items (nil when every id was asked for).
    mutating func next() async throws(SharePointError) -> Page<ListItem>? {
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
