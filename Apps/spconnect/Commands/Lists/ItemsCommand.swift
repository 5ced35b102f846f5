import CommandLineKit
import Foundation
import ListOperations
import LocalFiles
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
        let request = try itemQuery(arguments, output: output)
        // Before the transfer thread starts, so it shares the one arena.
        if request.readsAhead { MemoryPolicy.returnLargeBuffersPromptly() }
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
                try await listItems(of: list, named: name, request: request, site: site, output: output, only: only)
            }
        }
    }
}

/// The listing `items` asks for: fields, filter, order, `--top` and `--page-size`, `--parallel`, `--as-text`.
func itemQuery(_ arguments: ParsedArguments, output: Output) throws(UsageError) -> ItemQuery {
    var query = ItemQuery()
    query.select = arguments.value(.select).map(FieldSelection.split) ?? []
    query.filter = arguments.value(.filter)
    query.orderBy = arguments.value(.orderby)
    query.parallel = arguments.integer(.parallel)
    query.asText = arguments.has(.asText)
    let top = try positiveInteger(arguments, .top)
    let pageSize = arguments.integer(.pageSize)
    if arguments.has(.all), let top, pageSize == nil {
        // Before --page-size, `--all --top N` asked for every item in pages of N: a job written so keeps working.
        guard top <= 5000 else {
            throw UsageError(description: "option '--top' with --all is the page size, at most 5000")
        }
        output.note("note: --all --top \(top) lists every item in pages of \(top); write --page-size \(top)")
        query.pageSize = top
        return query
    }
    query.cap = top
    query.pageSize = min(pageSize ?? 5000, top ?? 5000)
    return query
}

private func positiveInteger(_ arguments: ParsedArguments, _ key: OptionKey) throws(UsageError) -> Int? {
    guard let text = arguments.value(key) else { return nil }
    guard let number = Int(text), number > 0 else {
        throw UsageError(description: "option '--\(key.name)' wants a whole number from 1")
    }
    return number
}

/// Streams the items of `list` to `output` (``ItemExport``: the selection checked first, then page after page, the
/// next requested while this one is written, up to the cap); with `only`, just the items of those ids.
private func listItems(
    of list: ListPath, named name: String, request: ItemQuery, site: SharePointSite, output: Output,
    only: [Int]? = nil
) async throws -> ExitCode {
    var export = try await ItemExport(site: site, list: list, named: name, request: request, only: only)
    var stream: RecordStream?
    var progress = ListingProgress(enabled: output.progressEnabled)
    let columns = export.columns
    while let count = try await export.nextPage({ record in
        if stream == nil {
            stream = output.stream(columns: columns(record, output.format == .table))
        }
        stream?.write(record)
    }) {
        stream?.flush()
        progress.advance(by: count)
    }
    progress.finish()
    if stream == nil { stream = output.stream(columns: export.columns(sample: nil, forPeople: false)) }
    stream?.finish()
    return .ok
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
