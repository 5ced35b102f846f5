import Foundation
import Presentation
import SharePoint

/// `spconnect whoami`: proves the saved session with a request and prints the signed-in user.
let whoamiCommand = Command(
    name: "whoami",
    summary: "Sign-in check: prove the saved session with a request and print the signed-in user.",
    synopsis: "[--profile NAME] [--output FORMAT]", options: SiteContext.options,
    examples: [
        "spconnect whoami",
        "spconnect whoami --profile prod -o json",
    ]
) { arguments in
    try await withSiteErrors("whoami") {
        _ = try positionals(arguments)
        let session = try SessionContext.open(arguments)
        if let proofURL = session.session.proofURL {
            return try await webWhoami(arguments, context: session, proofURL: proofURL)
        }
        let output = try Output(arguments)
        let context = try SiteContext.open(arguments, session: session)
        let user = try await context.site.currentUser()
        output.renderOne(SharePointRecords.record(user: user), columns: SharePointRecords.userColumns)
        output.note("Signed in at \(context.site.siteURL) (profile '\(context.session.profile)').")
        return .ok
    }
}

/// `spconnect web`: the site's title, URLs and dates.
let webCommand = Command(
    name: "web", summary: "Show the site (web): title, URL, id, created and last change.",
    synopsis: "[--profile NAME] [--output FORMAT]", options: SiteContext.options,
    examples: [
        "spconnect web",
        "spconnect web -o json",
    ]
) { arguments in
    try await withSiteErrors("web") {
        _ = try positionals(arguments)
        let output = try Output(arguments)
        let web = try await SiteContext.open(arguments).site.web()
        output.renderOne(SharePointRecords.record(web: web), columns: SharePointRecords.webColumns)
        return .ok
    }
}

/// `spconnect lists`: the lists and libraries of the site.
let listsCommand = Command(
    name: "lists", summary: "List the site's lists and libraries (hidden ones with --all-including-hidden).",
    synopsis: "[--all-including-hidden] [--output FORMAT]",
    options: [.flag("all-including-hidden", "also show hidden lists (catalogs, system lists)")] + SiteContext.options,
    examples: [
        "spconnect lists",
        "spconnect lists --all-including-hidden -o csv > lists.csv",
    ]
) { arguments in
    try await withSiteErrors("lists") {
        _ = try positionals(arguments)
        let output = try Output(arguments)
        let lists = try await SiteContext.open(arguments).site.lists(
            includeHidden: arguments.has("all-including-hidden"))
        output.render(
            RecordSet(columns: SharePointRecords.listColumns, records: lists.map(SharePointRecords.record(list:))))
        return .ok
    }
}

/// `spconnect list NAME`: one list's details.
let listCommand = Command(
    name: "list", summary: "Show one list or library by title or id: item count, template, entity types.",
    synopsis: "NAME [--output FORMAT]", options: SiteContext.options,
    examples: [
        "spconnect list Tasks",
        "spconnect list 0b3f6c1e-8a55-4d1b-9c6a-2f5d7e9a1b23 -o json",
    ]
) { arguments in
    try await withSiteErrors("list") {
        let name = try positionals(arguments, "NAME")[0]
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let trimmed = name.trimmingCharacters(in: CharacterSet(charactersIn: "{}"))
        let list: ListInfo
        if let id = UUID(uuidString: trimmed) {
            list = try await site.list(id: id)
        } else {
            list = try await site.list(title: name)
        }
        output.renderOne(
            SharePointRecords.record(listDetails: list), columns: SharePointRecords.listDetailColumns)
        return .ok
    }
}

/// `spconnect fields LIST`: the columns of a list.
let fieldsCommand = Command(
    name: "fields", summary: "List the fields (columns) of a list: internal name, title, type, flags.",
    synopsis: "LIST [--all-including-hidden] [--output FORMAT]",
    options: [.flag("all-including-hidden", "also show hidden fields")] + SiteContext.options,
    examples: [
        "spconnect fields Tasks",
        "spconnect fields Tasks --all-including-hidden -o csv",
    ]
) { arguments in
    try await withSiteErrors("fields") {
        let name = try positionals(arguments, "LIST")[0]
        let output = try Output(arguments)
        var fields = try await SiteContext.open(arguments).site.fields(of: listPath(name))
        if !arguments.has("all-including-hidden") { fields.removeAll { $0.hidden == true } }
        output.render(
            RecordSet(columns: SharePointRecords.fieldColumns, records: fields.map(SharePointRecords.record(field:))))
        return .ok
    }
}

/// `spconnect items LIST`: list items, one page or every page streamed.
let itemsCommand = Command(
    name: "items",
    summary: "List the items of a list: one page, or every page streamed with --all (memory stays flat).",
    synopsis: "LIST [--select F,..] [--filter EXPR] [--orderby F] [--top N] [--all] [--as-text]",
    options: [
        .value("select", "F,..", "fields to return, by internal name (also the columns shown)"),
        .value("filter", "EXPR", "an OData filter, e.g. \"Status eq 'Done'\" or \"Id gt 100\""),
        .value("orderby", "F", "order by field F ('F desc' for descending); paging with --all needs an indexed one"),
        .value("top", "N", "items per request (default 100; 5000 with --all)"),
        .flag("all", "follow the server's next links and stream every page"),
        .flag("as-text", "show each item's display texts (FieldValuesAsText) instead of raw values"),
    ] + SiteContext.options,
    examples: [
        "spconnect items Tasks",
        "spconnect items Tasks --select Id,Title,Status --filter \"Status eq 'Completed'\"",
        "spconnect items Tasks --all -o ndjson > tasks.ndjson",
        "spconnect items Tasks --orderby 'Modified desc' --top 10 --as-text",
    ]
) { arguments in
    try await withSiteErrors("items") {
        let name = try positionals(arguments, "LIST")[0]
        let output = try Output(arguments)
        let all = arguments.has("all")
        // Before the transfer thread starts, so it shares the one arena.
        if all { MemoryPolicy.returnLargeBuffersPromptly() }
        var query = ODataQuery()
        query.select = arguments.value("select").map(splitList) ?? []
        if let filter = arguments.value("filter") { query.filter = ODataFilter(filter) }
        if let order = arguments.value("orderby") {
            query.orderBy = splitList(order).map { part in
                let words = part.split(separator: " ")
                return ODataQuery.Order(
                    String(words.first ?? ""), descending: words.count > 1 && words[1].lowercased() == "desc")
            }
        }
        query.top = try arguments.integer("top", in: 1...5000) ?? (all ? 5000 : 100)
        let context = try SiteContext.open(arguments)
        let site = context.site
        let list = listPath(name)
        // Items are read by id: ask for it even when the selection leaves it out (the columns stay as asked).
        let columnsAsked = query.select
        let asText = arguments.has("as-text")
        query.select = withID(query.select)
        if asText {
            // Display texts come with each page (`$expand=FieldValuesAsText`), not one request per item.
            query.expand.append("FieldValuesAsText")
            if !query.select.isEmpty { query.select.append("FieldValuesAsText") }
        }
        var stream: RecordStream?
        var progress = ListingProgress(enabled: output.progressEnabled && all)
        let listing = site.items(in: list, query: query)
        // The whole list: the next page is on its way while this one is written out.
        var pages = (all ? listing.readingAhead() : listing).makeAsyncIterator()
        while let page = try await pages.next() {
            for item in page.items {
                var record = SharePointRecords.record(item: item)
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
                    let selected =
                        asText
                        ? columnsAsked.map { textFieldName($0, in: record) } : columnsAsked
                    stream = output.stream(
                        columns: SharePointRecords.itemColumns(
                            selected: selected, sample: record, forPeople: output.format == .table))
                }
                stream?.write(record)
            }
            stream?.flush()
            progress.advance(by: page.items.count)
            if !all { break }
        }
        progress.finish()
        if stream == nil {
            stream = output.stream(
                columns: SharePointRecords.itemColumns(selected: columnsAsked, sample: nil, forPeople: false))
        }
        stream?.finish()
        return .ok
    }
}

/// `spconnect item LIST ID`: one item.
let itemCommand = Command(
    name: "item", summary: "Show one list item: every field, or display texts with --as-text.",
    synopsis: "LIST ID [--select F,..] [--as-text] [--output FORMAT]",
    options: [
        .value("select", "F,..", "fields to return, by internal name"),
        .flag("as-text", "show the item's display texts (FieldValuesAsText)"),
    ] + SiteContext.options,
    examples: [
        "spconnect item Tasks 17",
        "spconnect item Tasks 17 -o json          # with its odata.etag for update --etag",
    ]
) { arguments in
    try await withSiteErrors("item") {
        let words = try positionals(arguments, "LIST", "ID")
        let id = try itemID(words[1])
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let list = listPath(words[0])
        var record: Record
        if arguments.has("as-text") {
            record = SharePointRecords.record(textValues: try await site.fieldValuesAsText(in: list, id: id))
        } else {
            let query = ODataQuery(select: withID(arguments.value("select").map(splitList) ?? []))
            let item = try await site.item(in: list, id: id, query: query)
            record = SharePointRecords.record(item: item)
            // The etag for `update --etag`: a note beside a table, SharePoint's own `odata.etag` member otherwise
            // (no field's internal name has a dot, so it cannot clash).
            if let etag = item.etag {
                if output.format == .table {
                    output.note("etag: \(etag)")
                } else {
                    record.fields.append(Presentation.Field("odata.etag", .string(etag)))
                }
            }
        }
        output.renderOne(record, columns: RecordSet.inferColumns([record]))
        return .ok
    }
}

/// The name under which display texts hold field `name`: as given, in another case (`ID`), or without the `Id`
/// suffix of a person or lookup's raw value (`AssignedToId` → `AssignedTo`).
func textFieldName(_ name: String, in record: Record) -> String {
    if record[name] != nil { return name }
    if let match = record.fields.first(where: { $0.name.lowercased() == name.lowercased() }) { return match.name }
    if name.hasSuffix("Id"), record[String(name.dropLast(2))] != nil { return String(name.dropLast(2)) }
    return name
}

/// A `$select` list with `Id` added when it names fields but not the id (every item is decoded by its id).
func withID(_ select: [String]) -> [String] {
    if select.isEmpty || select.contains(where: { $0.lowercased() == "id" }) { return select }
    return ["Id"] + select
}

/// `a, b,c` → `["a", "b", "c"]`.
func splitList(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// A one-line item counter on standard error while a long listing streams (terminal only).
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
        guard enabled, count > 0 else { return }
        printPartial("\ritems: \(count)  (\(rate()) items/s)\n")
    }

    private func rate() -> Int {
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        return elapsed > 0 ? Int(Double(count) / elapsed) : count
    }
}

/// Writes to standard error without a newline.
func printPartial(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
