import CommandLineKit
import Foundation
import LocalFiles
import Mirror
import Presentation
import SharePoint

/// `spconnect items LIST`: every item of a list (or the first `--top N`), streamed page by page.
let itemsCommand = Command(
    name: "items",
    summary: "List the items of a list: every item, streamed page by page (memory stays flat); --top N caps the count.",
    synopsis:
        "LIST [--select F,..] [--filter EXPR] [--orderby F] [--top N] [--page-size N] [--as-text] [--parallel N] "
        + "[--since-token FILE] [--wait SECONDS] [--all]",
    options: [
        .value(.select, "F,..", "fields to return, by internal name (also the columns shown; Id is always shown)"),
        .value(.filter, "EXPR", "an OData filter, e.g. \"Status eq 'Done'\" or \"Id gt 100\""),
        .value(.orderby, "F", "order by field F ('F desc' for descending); above 5000 items it must be indexed"),
        .value(.top, "N", "at most N items (default: every item)"),
        .integer(.pageSize, "N", in: 1...5000, "items per request, 1-5000 (default 5000)"),
        .integer(
            .parallel, "N", in: 1...16,
            "read N ranges of ID at once (1-16; output still in ID order; not with --orderby): for big lists"),
        .flag(.all, "every item (the default; with --top N, N is the page size as before --page-size existed)"),
        .flag(.asText, "show each item's display texts (FieldValuesAsText) instead of raw values"),
        sinceTokenOption, ExportLock.waitOption,
    ] + SiteContext.options,
    examples: [
        "spconnect items Tasks",
        "spconnect items Tasks --select Id,Title,AssignedTo/Title --filter \"Status eq 'Completed'\"",
        "spconnect items Tasks -o ndjson > tasks.ndjson",
        "spconnect items Tasks --all -o ndjson > tasks.ndjson",
        "spconnect items Tasks --orderby 'Modified desc' --top 10 --as-text",
        "spconnect items Big --parallel 4 -o csv > big.csv",
        "spconnect items Tasks --since-token tasks.token --out tasks-changed.ndjson",
    ]
) { arguments in
    try await withSiteErrors("items") {
        let name = try positionals(arguments, "LIST")[0]
        let output = try Output(arguments)
        let limits = try ItemLimits(arguments, output: output)
        // Before the transfer thread starts, so it shares the one arena.
        if limits.readsAhead { MemoryPolicy.returnLargeBuffersPromptly() }
        if arguments.value(.wait) != nil, !ExportLock.applies(arguments) {
            throw UsageError(description: "--wait goes with --out FILE or --since-token FILE (an export's lock)")
        }
        let context = try SiteContext.open(arguments)
        let site = context.site
        var exportLock: FolderLock?
        if ExportLock.applies(arguments) {
            let taken = try await ExportLock.take(list: name, context: context, arguments: arguments, output: output)
            if taken.held { return .locked }
            exportLock = taken.lock
        }
        defer { withExtendedLifetime(exportLock) {} }
        return try await site.withList(named: name) { list in
            try await ItemsSinceToken.run(arguments, list: list, named: name, site: site, output: output) { only in
                try await listItems(
                    of: list, named: name, arguments: arguments, limits: limits, site: site, output: output, only: only)
            }
        }
    }
}

/// How many items to list and how many to ask for per request.
struct ItemLimits {
    /// At most this many items (`--top`), or every item.
    let cap: Int?
    /// `$top` of each request.
    let pageSize: Int

    /// Whether the next page is requested while this one is written: for every item, or a cap of many pages (a
    /// request ahead may then fetch one page past the cap, which is dropped unread; for a few pages that would be a
    /// large share of the work, so they are read one after the other).
    var readsAhead: Bool { cap.map { $0 > 4 * pageSize } ?? true }

    init(_ arguments: ParsedArguments, output: Output) throws(UsageError) {
        let top = try Self.positive(arguments, .top)
        let pageSize = arguments.integer(.pageSize)
        if arguments.has(.all), let top, pageSize == nil {
            // Before --page-size, `--all --top N` asked for every item in pages of N: a job written so keeps working.
            guard top <= 5000 else {
                throw UsageError(description: "option '--top' with --all is the page size, at most 5000")
            }
            output.note("note: --all --top \(top) lists every item in pages of \(top); write --page-size \(top)")
            cap = nil
            self.pageSize = top
            return
        }
        cap = top
        self.pageSize = min(pageSize ?? 5000, top ?? 5000)
    }

    private static func positive(_ arguments: ParsedArguments, _ key: OptionKey) throws(UsageError) -> Int? {
        guard let text = arguments.value(key) else { return nil }
        guard let number = Int(text), number > 0 else {
            throw UsageError(description: "option '--\(key.name)' wants a whole number from 1")
        }
        return number
    }
}

/// Streams the items of `list` to `output`: the selection checked against the list's fields first, then page after
/// page (the next requested while this one is written out), stopping at the cap; with `only`, just the items of
/// those ids.
private func listItems(
    of list: ListPath, named name: String, arguments: ParsedArguments, limits: ItemLimits, site: SharePointSite,
    output: Output, only: [Int]? = nil
) async throws -> ExitCode {
    var query = ODataQuery()
    let requested = arguments.value(.select).map(splitList) ?? []
    let selection = try await FieldSelection.checked(requested, in: list, named: name, site: site)
    if let filter = arguments.value(.filter) { query.filter = ODataFilter(filter) }
    if let order = arguments.value(.orderby) {
        query.orderBy = splitList(order).map { part in
            let words = part.split(separator: " ")
            return ODataQuery.Order(
                String(words.first ?? ""), descending: words.count > 1 && words[1].lowercased() == "desc")
        }
    }
    query.top = limits.pageSize
    // The id is always asked for and always shown, first unless the selection places it.
    let columnsAsked = withID(selection.names)
    query.select = columnsAsked
    query.expand = selection.expand
    let asText = arguments.has(.asText)
    if asText {
        // Display texts come with each page (`$expand=FieldValuesAsText`), not one request per item.
        query.expand.append("FieldValuesAsText")
        if !query.select.isEmpty { query.select.append("FieldValuesAsText") }
    }
    let projections = columnsAsked.filter { $0.contains("/") }
    var stream: RecordStream?
    var progress = ListingProgress(enabled: output.progressEnabled)
    var pages =
        try only.map { ItemPages.ids(IDChunkPages(site: site, list: list, query: query, ids: $0)) }
        ?? ItemPages(list, query: query, arguments: arguments, limits: limits, site: site)
    var written = 0
    reading: while let page = try await pages.next() {
        var inPage = 0
        for item in page.items {
            if let cap = limits.cap, written >= cap { break }
            var record = SharePointRecords.record(item: item)
            for name in projections {
                record.fields.append(
                    Presentation.Field(
                        name, FieldSelection.projectedValue(name, of: item).map(SharePointRecords.cell) ?? .null))
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
            if stream == nil {
                // Display texts name people and lookups without the `Id` suffix of their raw values.
                let selected = asText ? columnsAsked.map { textFieldName($0, in: record) } : columnsAsked
                stream = output.stream(
                    columns: SharePointRecords.itemColumns(
                        selected: selected, sample: record, forPeople: output.format == .table))
            }
            stream?.write(record)
            written += 1
            inPage += 1
        }
        stream?.flush()
        progress.advance(by: inPage)
        if let cap = limits.cap, written >= cap { break reading }
    }
    progress.finish()
    if stream == nil {
        stream = output.stream(
            columns: SharePointRecords.itemColumns(selected: columnsAsked, sample: nil, forPeople: false))
    }
    stream?.finish()
    return .ok
}

/// The name under which display texts hold field `name`: as given, in another case (`ID`), or without the `Id`
/// suffix of a person or lookup's raw value (`AssignedToId` → `AssignedTo`).
func textFieldName(_ name: String, in record: Record) -> String {
    if record[name] != nil { return name }
    if let match = record.fields.first(where: { $0.name.lowercased() == name.lowercased() }) { return match.name }
    if name.hasSuffix("Id"), record[String(name.dropLast(2))] != nil { return String(name.dropLast(2)) }
    return name
}

/// A one-line item counter on standard error while a listing streams (terminal only), and the count at the end.
struct ListingProgress {
    let enabled: Bool
    private var count = 0
    private let started = ContinuousClock.now

    init(enabled: Bool) { self.enabled = enabled }

    mutating func advance(by items: Int) {
        count += items
        guard enabled else { return }
        printPartial("\ritems: \(count)  (\(rate()) items/s)")
    }

    func finish() {
        guard enabled else { return }
        printPartial("\ritems: \(count)  (\(rate()) items/s)\n")
    }

    private func rate() -> Int {
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        return elapsed > 0 ? Int(Double(count) / elapsed) : count
    }
}

/// The pages of an `items` listing: one link after the other (reading ahead for a long listing), or with
/// `--parallel N` as ranges of `ID` side by side (``SharePointSite/itemsInIDRanges(in:query:parallel:rangeSize:)``),
/// handed out in `ID` order either way.
private enum ItemPages {
    case sequential(PagedSequence<ListItem>.AsyncIterator)
    case ranges(IDRangePages.AsyncIterator)
    /// The items of some ids (`--since-token`).
    case ids(IDChunkPages)

    init(
        _ list: ListPath, query: ODataQuery, arguments: ParsedArguments, limits: ItemLimits, site: SharePointSite
    ) throws(UsageError) {
        guard let parallel = arguments.integer(.parallel) else {
            let listing = site.items(in: list, query: query)
            self = .sequential((limits.readsAhead ? listing.readingAhead() : listing).makeAsyncIterator())
            return
        }
        if let order = query.orderBy.first,
            query.orderBy.count > 1 || order.field.lowercased() != "id" || order.descending
        {
            throw UsageError(
                description: "--parallel reads ranges of ID and writes them in ID order, so it cannot go with "
                    + "--orderby \(arguments.value(.orderby) ?? ""); leave out one of them")
        }
        self = .ranges(
            site.itemsInIDRanges(in: list, query: query, parallel: parallel, rangeSize: query.top ?? 5000)
                .makeAsyncIterator())
    }

    mutating func next() async throws(SharePointError) -> Page<ListItem>? {
        switch self {
        case .sequential(var iterator):
            defer { self = .sequential(iterator) }
            return try await iterator.next()
        case .ranges(var iterator):
            defer { self = .ranges(iterator) }
            return try await iterator.next()
        case .ids(var chunks):
            defer { self = .ids(chunks) }
            return try await chunks.next()
        }
    }
}
