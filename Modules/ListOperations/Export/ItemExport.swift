public import CommandLineKit
import Foundation
import Mirror
public import Presentation
public import SharePoint

/// What an `items` listing asks for: the fields, the filter and order, how many items and how many per request,
/// whether ranges of `ID` are read side by side, and whether display texts replace raw values.
public struct ItemQuery: Sendable {
    /// Field names as the user gave them (checked against the list's fields by ``ItemExport``).
    public var select: [String] = []
    /// An OData filter expression.
    public var filter: String?
    /// `F` or `F desc`, comma-separated, as the user gave it.
    public var orderBy: String?
    /// `$top` of each request.
    public var pageSize = 5000
    /// At most this many items; nil for every item.
    public var cap: Int?
    /// Read this many ranges of `ID` at once (output still in `ID` order); nil reads page after page.
    public var parallel: Int?
    /// Each item's display texts (`FieldValuesAsText`) instead of its raw values.
    public var asText = false

    /// A query for every item, every field.
    public init() {}

    /// Whether the next page is requested while this one is written: for every item, or a cap of many pages (a
    /// request ahead may then fetch one page past the cap, which is dropped unread; for a few pages that would be a
    /// large share of the work, so they are read one after the other).
    public var readsAhead: Bool { cap.map { $0 > 4 * pageSize } ?? true }
}

/// The items of a list as records, page by page: the selection checked against the list's fields first (a usage
/// error names the closest field), then each page's items mapped with their `a/b` projections or display texts,
/// stopping at the cap. It never prints: the caller writes each page's records as they come.
public struct ItemExport {
    private let site: SharePointSite
    private let list: ListPath
    private let columnsAsked: [String]
    private let projections: [String]
    private let asText: Bool
    private let cap: Int?
    private var pages: ItemPages
    private var written = 0

    /// Checks `request` against the list `list` (`name` as the user wrote it, for messages) and prepares its pages;
    /// with `only`, just the items of those ids (an incremental export).
    public init(
        site: SharePointSite, list: ListPath, named name: String, request: ItemQuery, only: [Int]? = nil
    ) async throws {
        let selection = try await FieldSelection.checked(request.select, in: list, named: name, site: site)
        var query = ODataQuery()
        if let filter = request.filter { query.filter = ODataFilter(filter) }
        if let order = request.orderBy {
            query.orderBy = FieldSelection.split(order).map { part in
                let words = part.split(separator: " ")
                return ODataQuery.Order(
                    String(words.first ?? ""), descending: words.count > 1 && words[1].lowercased() == "desc")
            }
        }
        query.top = request.pageSize
        // The id is always asked for and always shown, first unless the selection places it.
        columnsAsked = selection.namesWithID
        query.select = columnsAsked
        query.expand = selection.expand
        if request.asText {
            // Display texts come with each page (`$expand=FieldValuesAsText`), not one request per item.
            query.expand.append("FieldValuesAsText")
            if !query.select.isEmpty { query.select.append("FieldValuesAsText") }
        }
        self.site = site
        self.list = list
        projections = columnsAsked.filter { $0.contains("/") }
        asText = request.asText
        cap = request.cap
        pages =
            try only.map { ItemPages.ids(IDChunkPages(site: site, list: list, query: query, ids: $0)) }
            ?? ItemPages(list, query: query, request: request, site: site)
    }

    /// Reads the next page and hands each of its records (fewer at the cap) to `write`, one at a time, so a page's
    /// records are never all held; returns how many, or nil when every item asked for was given.
    public mutating func nextPage(_ write: (Record) throws -> Void) async throws -> Int? {
        if let cap, written >= cap { return nil }
        guard let page = try await pages.next() else { return nil }
        var count = 0
        for item in page.items {
            if let cap, written >= cap { break }
            var record = SharePointRecords.record(item: item)
            for name in projections {
                record.fields.append(
                    Field(name, FieldSelection.projectedValue(name, of: item).map(SharePointRecords.cell) ?? .null))
            }
            if asText {
                let texts =
                    if let expanded = item["FieldValuesAsText"]?.objectValue {
                        ListItem.textValues(of: expanded)
                    } else {
                        try await site.fieldValuesAsText(in: list, id: item.id)
                    }
                record = SharePointRecords.record(textValues: texts)
            }
            try write(record)
            written += 1
            count += 1
        }
        return count
    }

    /// The columns of the listing, shaped by its first record (`sample`; nil when there was none) and, for a table,
    /// people shown by name.
    public func columns(sample: Record?, forPeople: Bool) -> [Column] {
        guard let sample else {
            return SharePointRecords.itemColumns(selected: columnsAsked, sample: nil, forPeople: false)
        }
        // Display texts name people and lookups without the `Id` suffix of their raw values.
        let selected = asText ? columnsAsked.map { Self.textFieldName($0, in: sample) } : columnsAsked
        return SharePointRecords.itemColumns(selected: selected, sample: sample, forPeople: forPeople)
    }

    /// The lock file of an export of `list` on the site at `siteURL` by `profile` (`PROFILE.export-HASH.lock`, the
    /// hash of the lower-cased site and list, FNV-1a): two exports of one list by one profile take the same lock;
    /// other lists, sites and profiles do not.
    public static func lockName(profile: String, siteURL: String, list: String) -> String {
        let key = siteURL.lowercased() + "\n" + list.lowercased()
        let hash = key.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return "\(profile).export-\(String(hash, radix: 16)).lock"
    }

    /// The name under which display texts hold field `name`: as given, in another case (`ID`), or without the `Id`
    /// suffix of a person or lookup's raw value (`AssignedToId` → `AssignedTo`).
    static func textFieldName(_ name: String, in record: Record) -> String {
        if record[name] != nil { return name }
        if let match = record.fields.first(where: { $0.name.lowercased() == name.lowercased() }) { return match.name }
        if name.hasSuffix("Id"), record[String(name.dropLast(2))] != nil { return String(name.dropLast(2)) }
        return name
    }
}
