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
    if arguments.value("from") != nil { return true }
    if arguments.value("format") != nil { throw UsageError(description: "--format goes with --from FILE") }
    return false
}

/// `spconnect add LIST key=value...`, or `add LIST --from FILE` for one item per row.
let addCommand = Command(
    name: "add",
    summary: "Create a list item from Name=value (text) and Name:=JSON pairs, or one item per row with --from FILE.",
    synopsis: "LIST (Name=value... [Name:=JSON...] | --from FILE.csv|FILE.ndjson|- [--format csv|ndjson])",
    options: BulkWrite.options + SiteContext.options,
    examples: [
        "spconnect add Tasks Title='Write the report' Priority:=2",
        "spconnect add Tasks Title=Review Done:=false AssignedToId:=12",
        "spconnect add Tasks --from tasks.csv > results.ndjson",
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
    synopsis: "LIST (ID Name=value... [Name:=JSON...] [--etag ETAG] | --from FILE.csv|FILE.ndjson|- [--format F])",
    options: [.value("etag", "ETAG", "the etag the item had when read, e.g. '\"3\"' or 3 (default '*': overwrite)")]
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
            try await site.updateItem(in: list, id: id, fields: fields, etag: arguments.value("etag") ?? "*")
        }
        output.renderOne(
            Record([Presentation.Field("id", .int(id)), Presentation.Field("etag", etag.map(Cell.string) ?? .null)]),
            columns: [Column("id", title: "Id"), Column("etag", title: "New etag")])
        return .ok
    }
}

/// `spconnect delete LIST ID...`: one result per id; the exit code of the first failure when any failed.
let deleteCommand = Command(
    name: "delete",
    summary: "Delete list items (to the recycle bin of the site; several in one $batch): one result per id.",
    synopsis: "LIST ID... [--etag ETAG]",
    options: [.value("etag", "ETAG", "only delete if the item still has this etag (default '*'; one ID only)")]
        + SiteContext.options,
    examples: [
        "spconnect delete Tasks 17",
        "spconnect delete Tasks 22 23 24 -o ndjson",
    ]
) { arguments in
    try await withSiteErrors("delete") {
        guard arguments.positionals.count >= 2 else {
            throw UsageError(description: "expected LIST and at least one item ID")
        }
        let name = arguments.positionals[0]
        var ids: [Int] = []
        for word in arguments.positionals.dropFirst() {
            let id = try itemID(word)
            if !ids.contains(id) { ids.append(id) }
        }
        if arguments.value("etag") != nil, ids.count > 1 {
            throw UsageError(description: "--etag is one item's etag: give one ID with it")
        }
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let etag = arguments.value("etag") ?? "*"
        let outcomes = try await withList(name, site: site) { list in
            try await deleteItems(ids, in: list, etag: etag, site: site)
        }
        for (id, error) in outcomes where error != nil && error != SharePointError.notTried {
            printError("spconnect delete: item \(id): \(error?.description ?? "")")
        }
        output.render(
            RecordSet(
                columns: [Column("id", title: "Id"), Column("result", title: "Result")],
                records: outcomes.map { id, error in
                    Record([
                        Presentation.Field("id", .int(id)),
                        Presentation.Field("result", .string(error.map(deleteResult) ?? "deleted")),
                    ])
                }))
        let failed = outcomes.compactMap(\.error)
        if failed.isEmpty {
            output.note("Deleted \(ids.count == 1 ? "item \(ids[0])" : "\(ids.count) items") of '\(name)'.")
            return .ok
        }
        output.note("Deleted \(outcomes.count - failed.count) of \(outcomes.count) items of '\(name)'.")
        return exitCode(for: failed[0])
    }
}

/// Deletes the items in `$batch` requests of up to 100 when there are several (one result per id, as SharePoint
/// answers each), else with one request. A list that does not exist is thrown as such (every part of the first
/// batch says so), so that ``withList(_:site:_:)`` can try its address; a batch that fails as a whole (the session,
/// the network, throttling after the retries) stops there: its first id carries the failure, the rest are not tried.
private func deleteItems(_ ids: [Int], in list: ListPath, etag: String, site: SharePointSite)
    async throws(SharePointError) -> [(id: Int, error: SharePointError?)]
{
    guard ids.count > 1 else { return try await deleteItemsOneByOne(ids, in: list, etag: etag, site: site) }
    var outcomes: [(id: Int, error: SharePointError?)] = []
    var start = 0
    while start < ids.count {
        let chunk = Array(ids[start..<min(start + SharePointSite.maximumBatchChanges, ids.count)])
        do throws(SharePointError) {
            let answers = try await site.batchWrite(chunk.map { BatchItemChange.delete(id: $0) }, in: list)
            if outcomes.isEmpty, let first = answers.first?.error,
                answers.allSatisfy({ $0.error?.kind == .listNotFound })
            {
                throw first
            }
            outcomes += zip(chunk, answers).map { ($0, $1.error) }
        } catch  where error.kind == .listNotFound && outcomes.isEmpty {
            throw error
        } catch {
            outcomes.append((chunk[0], error))
            for rest in ids[outcomes.count...] { outcomes.append((rest, SharePointError.notTried)) }
            return outcomes
        }
        start += chunk.count
    }
    return outcomes
}

/// Deletes each item in turn, keeping each one's failure. A list that does not exist stops at the first id (so that
/// ``withList(_:site:_:)`` can try its address instead, or report it once); a failure that is not about the item
/// (the session, the network, throttling) stops there too, the remaining ids marked as not tried.
private func deleteItemsOneByOne(_ ids: [Int], in list: ListPath, etag: String, site: SharePointSite)
    async throws(SharePointError) -> [(id: Int, error: SharePointError?)]
{
    var outcomes: [(id: Int, error: SharePointError?)] = []
    for id in ids {
        do {
            try await site.deleteItem(in: list, id: id, etag: etag)
            outcomes.append((id, nil))
        } catch  where error.kind == .listNotFound && outcomes.isEmpty {
            throw error
        } catch {
            outcomes.append((id, error))
            switch error.kind {
            case .itemNotFound, .preconditionFailed, .accessDenied, .conflict: continue
            default:
                for rest in ids[(outcomes.count)...] { outcomes.append((rest, SharePointError.notTried)) }
                return outcomes
            }
        }
    }
    return outcomes
}

extension SharePointError {
    /// The result of an item left alone after a failure that stopped the run.
    fileprivate static let notTried = SharePointError(kind: .server, status: 0, message: "not tried")
}

/// The result cell of an item that could not be deleted.
private func deleteResult(_ error: SharePointError) -> String {
    if error == SharePointError.notTried { return "not tried" }
    switch error.kind {
    case .itemNotFound: return "not found"
    case .preconditionFailed: return "changed since read (etag)"
    case .accessDenied: return "access denied"
    case .throttled: return "throttled"
    default: return "failed (HTTP \(error.status))"
    }
}
