import CommandLineKit
import Presentation
import SharePoint

/// `spconnect delete LIST ID...`: one result per id; the exit code of the first failure when any failed.
let deleteCommand = Command(
    name: "delete",
    summary: "Delete list items (to the recycle bin of the site; several in one $batch): one result per id.",
    synopsis: "LIST ID... [--etag ETAG] [--dry-run]",
    options: [
        .value(.etag, "ETAG", "only delete if the item still has this etag (default '*'; one ID only)"),
        .flag(.dryRun, short: "n", "only look each item up and say what would be deleted; nothing is changed"),
    ] + SiteContext.options,
    examples: [
        "spconnect delete Tasks 17",
        "spconnect delete Tasks 22 23 24 -o ndjson",
        "spconnect delete Tasks 22 23 24 --dry-run",
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
        if arguments.value(.etag) != nil, ids.count > 1 {
            throw UsageError(description: "--etag is one item's etag: give one ID with it")
        }
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let etag = arguments.value(.etag) ?? "*"
        if arguments.has(.dryRun) {
            return try await planDeletion(ids, of: name, etag: etag, site: site, output: output)
        }
        let outcomes = try await site.withList(named: name) { list in
            try await deleteItems(ids, in: list, etag: etag, site: site)
        }
        let unknown = outcomes.filter { if case .unknown = $0.outcome { true } else { false } }.map(\.id)
        var firstFailure: SharePointError?
        for (id, outcome) in outcomes {
            switch outcome {
            case .failed(let error):
                printError("spconnect delete: item \(id): \(error.description)")
                firstFailure = firstFailure ?? error
            case .unknown(let error) where firstFailure == nil:
                // One failure for the whole batch: said once, for all its ids.
                printError("spconnect delete: items \(UnknownWrites.ranges(unknown)): \(error.description)")
                firstFailure = error
            case .deleted, .unknown, .notTried: break
            }
        }
        output.render(
            RecordSet(
                columns: [Column("id", title: "Id"), Column("result", title: "Result")],
                records: outcomes.map { id, outcome in
                    Record([Presentation.Field("id", .int(id)), Presentation.Field("result", .string(outcome.text))])
                }))
        guard let firstFailure else {
            output.note("Deleted \(ids.count == 1 ? "item \(ids[0])" : "\(ids.count) items") of '\(name)'.")
            return .ok
        }
        let deleted = outcomes.filter { if case .deleted = $0.outcome { true } else { false } }.count
        output.note("Deleted \(deleted) of \(outcomes.count) items of '\(name)'.")
        if !unknown.isEmpty { output.note(UnknownWrites.deleteAdvice(ids: unknown, list: name)) }
        return exitCode(for: firstFailure)
    }
}

/// What became of one id given to `delete`.
private enum DeleteOutcome {
    case deleted
    /// SharePoint refused to delete it (or the request failed before anything was written).
    case failed(SharePointError)
    /// Its batch reached the server and got no usable answer: it may have been deleted.
    case unknown(SharePointError)
    /// Left alone after a failure that stopped the run.
    case notTried

    /// The result cell.
    var text: String {
        switch self {
        case .deleted: return "deleted"
        case .unknown: return "unknown"
        case .notTried: return "not tried"
        case .failed(let error):
            switch error.kind {
            case .itemNotFound: return "not found"
            case .preconditionFailed: return "changed since read (etag)"
            case .accessDenied: return "access denied"
            case .throttled: return "throttled"
            default: return "failed (HTTP \(error.status))"
            }
        }
    }
}

/// Deletes the items in `$batch` requests of up to 100 when there are several (one result per id, as SharePoint
/// answers each), else with one request. A list that does not exist is thrown as such (every part of the first
/// batch says so), so that ``SharePointSite/withList(named:_:)`` can try its address; a batch that fails as a whole (the session,
/// the network, throttling after the retries, an answer that cannot be read) stops there: its ids are `unknown`
/// when the server may have deleted them (``SharePointError/mayHaveBeenWritten``), else its first id carries the
/// failure; the ids after it are not tried.
private func deleteItems(_ ids: [Int], in list: ListPath, etag: String, site: SharePointSite)
    async throws(SharePointError) -> [(id: Int, outcome: DeleteOutcome)]
{
    guard ids.count > 1 else { return try await deleteItemsOneByOne(ids, in: list, etag: etag, site: site) }
    var outcomes: [(id: Int, outcome: DeleteOutcome)] = []
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
            outcomes += zip(chunk, answers).map { ($0, $1.error.map(DeleteOutcome.failed) ?? .deleted) }
        } catch  where error.kind == .listNotFound && outcomes.isEmpty {
            throw error
        } catch {
            if error.mayHaveBeenWritten {
                outcomes += chunk.map { ($0, .unknown(error)) }
            } else {
                outcomes.append((chunk[0], .failed(error)))
            }
            for rest in ids[outcomes.count...] { outcomes.append((rest, .notTried)) }
            return outcomes
        }
        start += chunk.count
    }
    return outcomes
}

/// Deletes each item in turn, keeping each one's failure. A list that does not exist stops at the first id (so that
/// ``SharePointSite/withList(named:_:)`` can try its address instead, or report it once); a failure that is not about the item
/// (the session, the network, throttling) stops there too, the remaining ids marked as not tried.
private func deleteItemsOneByOne(_ ids: [Int], in list: ListPath, etag: String, site: SharePointSite)
    async throws(SharePointError) -> [(id: Int, outcome: DeleteOutcome)]
{
    var outcomes: [(id: Int, outcome: DeleteOutcome)] = []
    for id in ids {
        do {
            try await site.deleteItem(in: list, id: id, etag: etag)
            outcomes.append((id, .deleted))
        } catch  where error.kind == .listNotFound && outcomes.isEmpty {
            throw error
        } catch {
            outcomes.append((id, .failed(error)))
            switch error.kind {
            case .itemNotFound, .preconditionFailed, .accessDenied, .conflict: continue
            default:
                for rest in ids[(outcomes.count)...] { outcomes.append((rest, .notTried)) }
                return outcomes
            }
        }
    }
    return outcomes
}

/// `delete --dry-run`: each item looked up (its id and title), and what `delete` would do with it: `would delete`,
/// `not found` (exit 8) or, with `--etag` and a flavour that carries etags, `changed since read (etag)` (exit 9).
/// Nothing is written.
private func planDeletion(_ ids: [Int], of name: String, etag: String, site: SharePointSite, output: Output)
    async throws -> ExitCode
{
    var records: [Record] = []
    var exit = ExitCode.ok
    try await site.withList(named: name) { list in
        for id in ids {
            var title = ""
            var result = "would delete"
            do {
                let item = try await site.item(in: list, id: id, query: ODataQuery(select: ["Id", "Title"]))
                title = item.fields.first { $0.0 == "Title" }?.1.stringValue ?? ""
                if etag != "*" {
                    // Without metadata (the default flavour) the answer carries no etag: the server checks it then.
                    if let current = item.etag, current != etag {
                        result = "changed since read (etag)"
                        if exit == .ok { exit = .conflict }
                    } else if item.etag == nil {
                        result = "would delete if its etag is still \(etag)"
                    }
                }
            } catch let error as SharePointError where error.kind == .itemNotFound {
                result = "not found"
                if exit == .ok { exit = .notFound }
            }
            records.append(
                Record([
                    Presentation.Field("id", .int(id)), Presentation.Field("title", .string(title)),
                    Presentation.Field("result", .string(result)),
                ]))
        }
    }
    output.render(
        RecordSet(
            columns: [Column("id", title: "Id"), Column("title", title: "Title"), Column("result", title: "Result")],
            records: records))
    output.note("Dry run: nothing was deleted from '\(name)'.")
    return exit
}
