import BulkWrites
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
            try await BulkDeletion.delete(ids, in: list, etag: etag, site: site)
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

/// `delete --dry-run`: each item looked up (``BulkDeletion/plan(_:in:etag:site:)``) and what `delete` would do
/// with it: `would delete`, `not found` (exit 8) or, with `--etag` and a flavour that carries etags, `changed since
/// read (etag)` (exit 9). Nothing is written.
private func planDeletion(_ ids: [Int], of name: String, etag: String, site: SharePointSite, output: Output)
    async throws -> ExitCode
{
    let plans = try await site.withList(named: name) { list in
        try await BulkDeletion.plan(ids, in: list, etag: etag, site: site)
    }
    output.render(RecordSet(columns: DeletionPlan.columns, records: plans.map(\.record)))
    output.note("Dry run: nothing was deleted from '\(name)'.")
    let exit: ExitCode? = plans.lazy.compactMap { plan -> ExitCode? in
        switch plan.verdict {
        case .changed: .conflict
        case .notFound: .notFound
        case .wouldDelete, .wouldDeleteIfUnchanged: nil
        }
    }.first
    return exit ?? .ok
}
