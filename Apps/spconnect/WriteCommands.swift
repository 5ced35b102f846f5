import Foundation
import JSON
import Presentation
import SharePoint

/// `key=value` (a string) and `key:=JSON` (a raw JSON value: number, true, null, array…) pairs.
func fieldAssignments(_ words: [String]) throws(UsageError) -> [(String, JSONValue)] {
    guard !words.isEmpty else { throw UsageError(description: "no fields given: use Name=value or Name:=JSON") }
    var fields: [(String, JSONValue)] = []
    for word in words {
        if let range = word.range(of: ":="), !word[..<range.lowerBound].contains("=") {
            let name = String(word[..<range.lowerBound])
            let text = String(word[range.upperBound...])
            guard !name.isEmpty else { throw UsageError(description: "'\(word)': the field name is missing") }
            do {
                fields.append((name, try JSONValue.parse(text)))
            } catch {
                throw UsageError(description: "'\(word)': the value after := is not JSON (\(text))")
            }
        } else if let equals = word.firstIndex(of: "=") {
            let name = String(word[..<equals])
            guard !name.isEmpty else { throw UsageError(description: "'\(word)': the field name is missing") }
            fields.append((name, .string(String(word[word.index(after: equals)...]))))
        } else {
            throw UsageError(description: "'\(word)' is not Name=value or Name:=JSON")
        }
    }
    return fields
}

/// Whether the command line asks for a bulk write (`--from`); `--format` alone is a usage error.
private func isBulk(_ arguments: ParsedArguments) throws(UsageError) -> Bool {
    if arguments.value(.from) != nil { return true }
    if arguments.value(.format) != nil { throw UsageError(description: "--format goes with --from FILE") }
    if arguments.has(.dryRun) {
        throw UsageError(description: "--dry-run goes with --from FILE (one item's write is one request, shown by -v)")
    }
    return false
}

/// `spconnect add LIST key=value...`, or `add LIST --from FILE` for one item per row.
let addCommand = Command(
    name: "add",
    summary: "Create a list item from Name=value (text) and Name:=JSON pairs, or one item per row with --from FILE.",
    synopsis: "LIST (Name=value... [Name:=JSON...] | --from FILE.csv|FILE.ndjson|- [--format csv|ndjson] [--dry-run])",
    options: BulkWrite.options + SiteContext.options,
    examples: [
        "spconnect add Tasks Title='Write the report' Priority:=2",
        "spconnect add Tasks Title=Review Done:=false AssignedToId:=12",
        "spconnect add Tasks --from tasks.csv > results.ndjson",
        "spconnect add Tasks --from tasks.csv --dry-run       # every row checked, nothing written",
        "jq -c '.[]' tasks.json | spconnect add Tasks --from - --format ndjson",
    ]
) { arguments in
    try await withSiteErrors("add") {
        if try isBulk(arguments) { return try await BulkWrite.run(arguments, updating: false) }
        guard arguments.positionals.count >= 2 else {
            throw UsageError(description: "expected LIST and at least one Name=value")
        }
        let fields = try fieldAssignments(Array(arguments.positionals.dropFirst()))
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let item = try await withList(arguments.positionals[0], site: site) { list in
            try await site.addItem(to: list, fields: fields)
        }
        let record = SharePointRecords.record(item: item)
        output.renderOne(record, columns: RecordSet.inferColumns([record]))
        output.note("Created item \(item.id)" + (item.etag.map { " (etag \($0))" } ?? "") + ".")
        return .ok
    }
}

/// `spconnect update LIST ID key=value...`.
let updateCommand = Command(
    name: "update",
    summary:
        "Change fields of a list item (MERGE; --etag refuses if someone else changed it), or of the item each row "
        + "of --from FILE names by its Id column.",
    synopsis:
        "LIST (ID Name=value... [Name:=JSON...] [--etag ETAG] | --from FILE.csv|FILE.ndjson|- [--format csv|ndjson] [--dry-run])",
    options: [.value(.etag, "ETAG", "the etag the item had when read, e.g. '\"3\"' or 3 (default '*': overwrite)")]
        + BulkWrite.options + SiteContext.options,
    examples: [
        "spconnect update Tasks 17 Status=Completed",
        "spconnect update Tasks 17 Priority:=1 --etag 3",
        "spconnect update Tasks --from changes.csv      # an Id column, then the fields to change",
    ]
) { arguments in
    try await withSiteErrors("update") {
        if try isBulk(arguments) { return try await BulkWrite.run(arguments, updating: true) }
        guard arguments.positionals.count >= 3 else {
            throw UsageError(description: "expected LIST ID and at least one Name=value")
        }
        let id = try itemID(arguments.positionals[1])
        let fields = try fieldAssignments(Array(arguments.positionals.dropFirst(2)))
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let etag = try await withList(arguments.positionals[0], site: site) { list in
            try await site.updateItem(in: list, id: id, fields: fields, etag: arguments.value(.etag) ?? "*")
        }
        output.renderOne(
            Record([Presentation.Field("id", .int(id)), Presentation.Field("etag", etag.map(Cell.string) ?? .null)]),
            columns: [Column("id", title: "Id"), Column("etag", title: "New etag")])
        return .ok
    }
}
