import CommandLineKit
import FileOperations
import Foundation
import Mirror
import Presentation
import SharePoint

/// `spconnect changes LIST` / `spconnect changes --web`: the change log (`POST …/GetChanges`) of one list or of the
/// whole web, every page of it: adds, updates, deletes, renames and moves, oldest first.
let changesCommand = Command(
    name: "changes",
    summary:
        "List what changed in a list (or the web): adds, updates, deletes, renames and moves, from its change log.",
    synopsis: "(LIST | --web) [--since-token FILE] [--fetch-limit N] [--output FORMAT]",
    options: [
        .flag(.web, "the changes of every list of the web instead of one list"),
        sinceTokenOption,
        .integer(
            .fetchLimit, "N", in: 1...2000, "changes per request, 1-2000 (default 1000); every page is read either way"),
    ] + SiteContext.options,
    examples: [
        "spconnect changes Tasks",
        "spconnect changes Tasks --since-token tasks.token -o ndjson",
        "spconnect changes --web --since-token web.token -o csv",
    ]
) { arguments in
    try await withSiteErrors("changes") {
        let web = arguments.has(.web)
        let words = arguments.positionals
        guard web ? words.isEmpty : words.count == 1 else {
            throw UsageError(description: web ? "--web takes no LIST" : "expected LIST (or --web)")
        }
        let output = try Output(arguments)
        let fetchLimit = arguments.integer(.fetchLimit) ?? 1000
        let tokenFile = arguments.value(.sinceToken).map { ChangeTokenFile(path: $0) }
        let start = try tokenFile?.read()
        let site = try SiteContext.open(arguments).site
        let run = { (list: ListPath?, what: String) async throws -> ExitCode in
            // The scope's own token first: it names the list (or web) a saved token must be of.
            let current = try await site.currentChangeToken(of: list)
            if let start, let tokenFile, let id = ChangeTokenFile.scopeID(of: current) {
                try tokenFile.check(start, isFor: id, what: what)
            }
            guard let found = try await changesUnlessTooOld(site, list, since: start, fetchLimit: fetchLimit) else {
                printError(
                    "spconnect changes: the token in \(tokenFile?.path ?? "the token file") is older than the change "
                        + "log of \(what) keeps, so the changes since then are not known; read everything again "
                        + "(items LIST --since-token FILE does so by itself) or remove the file to start from now")
                return .failure
            }
            output.render(
                RecordSet(
                    columns: SharePointRecords.changeColumns(web: list == nil, all: output.format != .table),
                    records: found.changes.map { SharePointRecords.record(change: $0) }))
            try tokenFile?.write(found.token ?? current)
            return .ok
        }
        if web { return try await run(nil, "the web") }
        return try await withListSuggestion(words[0], site: site) {
            try await site.withList(named: words[0]) { list in try await run(list, "list '\(words[0])'") }
        }
    }
}
