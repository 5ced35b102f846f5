import CommandLineKit
import Foundation
import Mirror
import SharePoint

/// `items LIST --since-token FILE`: an incremental export (``ItemChangesSinceToken``). Deleted ids are reported on
/// standard error, one `deleted: ID` line each; a token older than the change log keeps is said on standard error and
/// the run lists every item instead. FILE gets the new token only once the whole run has succeeded.
enum ItemsSinceToken {
    /// Runs `listing` (with the ids to read, or nil for every item) under the token of `--since-token`, or just runs
    /// it when that option is not given.
    static func run(
        _ arguments: ParsedArguments, list: ListPath, named name: String, site: SharePointSite, output: Output,
        listing: ([Int]?) async throws -> ExitCode
    ) async throws -> ExitCode {
        guard let path = arguments.value(.sinceToken) else { return try await listing(nil) }
        let file = ChangeTokenFile(path: path)
        let plan = try await ItemChangesSinceToken.plan(file, list: list, named: name, site: site)
        var only: [Int]?
        switch plan.reading {
        case .firstRun:
            output.note("spconnect items: no token in \(path) yet; listing every item and saving the list's token")
        case .tokenTooOld:
            printError(
                "spconnect items: the token in \(path) is older than the change log of list '\(name)' keeps; "
                    + "listing every item (a full run) and saving a new token")
        case .changes(let changed, let deleted):
            output.note(
                "spconnect items: \(changed.count) added or changed, \(deleted.count) deleted since the token in \(path)"
            )
            for id in deleted { printError("deleted: \(id)") }
            only = changed
        }
        let code = try await listing(only)
        guard code == .ok else { return code }
        try file.write(plan.nextToken)
        return .ok
    }
}
