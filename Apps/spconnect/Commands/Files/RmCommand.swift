import CommandLineKit
import FileOperations
import Foundation
import Presentation

/// `spconnect rm PATH... [--dry-run]`: files and folders to the site's recycle bin, one result per path.
let rmCommand = Command(
    name: "rm",
    summary: "Move files and folders to the site's recycle bin (restorable there): one result per path.",
    synopsis: "PATH... [--dry-run]   (PATH: a file or folder path or browser address; see docs/cli.md)",
    options: [
        .flag(.dryRun, short: "n", "only say what would go to the recycle bin; nothing is changed")
    ] + SiteContext.options,
    examples: [
        "spconnect rm 'Shared Documents/old report.docx'",
        "spconnect rm --dry-run Documents/Archive Documents/draft.txt",
        "spconnect rm Documents/2019 Documents/2020 -o ndjson",
    ]
) { arguments in
    try await withSiteErrors("rm") {
        guard !arguments.positionals.isEmpty else {
            throw UsageError(description: "expected at least one PATH (a file or folder)")
        }
        var words: [String] = []
        for word in arguments.positionals where !words.contains(word) { words.append(word) }
        let dryRun = arguments.has(.dryRun)
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let outcomes = await Removal.run(words, dryRun: dryRun, site: site)
        var firstFailure: ExitCode?
        for outcome in outcomes {
            switch outcome.result {
            case .failed(let error):
                printError("spconnect rm: \(outcome.word): \(error.description)")
                firstFailure = firstFailure ?? exitCode(for: error)
            case .refused(let reason, _):
                printError("spconnect rm: \(outcome.word): \(reason)")
                firstFailure = firstFailure ?? .usage
            case .recycled, .wouldRecycle, .covered, .notTried: break
            }
        }
        output.render(RecordSet(columns: RemovalOutcome.columns, records: outcomes.map(\.record)))
        let done = outcomes.filter(\.succeeded).count
        let verb = dryRun ? "Would move" : "Moved"
        output.note("\(verb) \(done) of \(outcomes.count) to the recycle bin.")
        return firstFailure ?? .ok
    }
}
