import BulkWrites
import CommandLineKit
import Foundation
import Presentation

/// `add LIST --from FILE` and `update LIST --from FILE`: every row of a CSV or NDJSON file written through OData
/// `$batch` (100 changes a request), one result per row, a summary on standard error.
enum BulkWrite {
    /// The options `add` and `update` take for files.
    static let options: [OptionSpec] = [
        .path(.from, "FILE", "write one item per row of FILE (.csv or .ndjson; '-' reads standard input)"),
        .choice(
            .format, "FORMAT", of: BulkInput.Format.self,
            "\(OptionSpec.listed(BulkInput.Format.self)): the format of --from (needed for '-'; default: the extension)"
        ),
        .flag(
            .dryRun, short: "n",
            "with --from: check every row (columns, values, people), say what each would do; write nothing"),
    ]

    /// Runs `add --from` (`updating` false) or `update --from`: reads and checks the file and its columns before
    /// anything is sent, then writes the rows batch by batch.
    static func run(_ arguments: ParsedArguments, updating: Bool) async throws -> ExitCode {
        let command = updating ? "update" : "add"
        guard arguments.positionals.count == 1 else {
            throw UsageError(
                description: "with --from, give only the LIST (the fields come from the file), e.g. "
                    + "'spconnect \(command) Tasks --from tasks.csv'")
        }
        if arguments.value(.etag) != nil {
            throw UsageError(description: "--etag is one item's etag: it cannot go with --from")
        }
        let name = arguments.positionals[0]
        let path = arguments.value(.from) ?? "-"
        let input: BulkInput
        do {
            let format = try BulkInput.format(of: path, given: arguments.value(.format))
            let source = path == "-" ? "standard input" : "'\(path)'"
            input = try BulkInput(BulkInput.contents(of: path), format: format, source: source)
        } catch {
            throw UsageError(description: error.description)
        }
        // Results are for programs first: NDJSON, one line per row, unless a format is asked for.
        let toTerminal = Terminal.isTerminal(1) && arguments.value(.out) == nil
        let output = try Output(arguments, forcing: toTerminal ? nil : .ndjson)
        let site = try SiteContext.open(arguments).site
        let dryRun = arguments.has(.dryRun)
        return try await site.withList(named: name) { list in
            let writer = BulkWriter(list: list, listName: name, site: site, updating: updating, dryRun: dryRun)
            let stream = output.stream(columns: BulkRowResult.columns)
            let summary: BulkWriteSummary
            do {
                summary = try await writer.write(input) { result in
                    stream.write(result.record(showingError: ErrorOutput.displayed))
                    stream.flush()
                }
            } catch let error as BulkInputError {
                throw UsageError(description: error.description)
            }
            stream.finish()
            return finish(summary, command: command, list: name, updating: updating, dryRun: dryRun, output: output)
        }
    }

    /// Says the counts (and what to check for rows of unknown outcome) on standard error; the exit code is 0 when
    /// every row was written, 14 when some row failed, else that of the failure that stopped the run.
    static func finish(
        _ summary: BulkWriteSummary, command: String, list: String, updating: Bool, dryRun: Bool, output: Output
    ) -> ExitCode {
        output.note(summary.counts(dryRun: dryRun))
        if !summary.unknownRows.isEmpty {
            output.note(
                UnknownWrites.bulkAdvice(
                    rows: summary.unknownRows, ids: summary.unknownIDs, list: list, updating: updating))
        }
        if let stopped = summary.stopped {
            printError("spconnect \(command): \(stopped.description)")
            return exitCode(for: stopped)
        }
        return summary.failed > 0 ? .rowsFailed : .ok
    }
}
