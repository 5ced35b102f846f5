import CommandLineKit
import Foundation
import Presentation
import SharePoint

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

    /// The columns of the per-row results.
    static let resultColumns = [
        Column("row", title: "Row"), Column("id", title: "Id"), Column("status", title: "Status"),
        Column("error", title: "Error"),
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
        let format = try BulkInput.format(of: path, given: arguments.value(.format))
        let source = path == "-" ? "standard input" : "'\(path)'"
        let input = try BulkInput(BulkInput.contents(of: path), format: format, source: source)
        // Results are for programs first: NDJSON, one line per row, unless a format is asked for.
        let toTerminal = Terminal.isTerminal(1) && arguments.value(.out) == nil
        let output = try Output(arguments, forcing: toTerminal ? nil : .ndjson)
        let site = try SiteContext.open(arguments).site
        return try await withList(name, site: site) { list in
            let columns = try BulkColumns(
                input.columns, fields: try await site.fields(of: list), list: name, needsID: updating)
            let run = BulkRun(
                list: list, name: name, site: site, output: output,
                converter: RowConverter(columns: columns, site: site, lookingUpOnly: arguments.has(.dryRun)),
                updating: updating, dryRun: arguments.has(.dryRun))
            return try await run.write(input.rows, command: command)
        }
    }
}

/// One run of a bulk write: rows converted in order, sent 100 changes a batch, each row's result written as soon as
/// its batch is answered.
private final class BulkRun {
    let list: ListPath
    /// The list as the command line named it (for the advice on rows of unknown outcome).
    let name: String
    let site: SharePointSite
    let output: Output
    let converter: RowConverter
    /// `update --from` (else `add --from`).
    let updating: Bool
    /// `--dry-run`: every row converted and checked, none sent.
    let dryRun: Bool
    /// The status of a row written (`created`, `updated`; `would create`, `would update` in a dry run).
    let written: String
    private let stream: RecordStream
    private var counts = (written: 0, failed: 0, notSent: 0, unknown: 0)
    /// The rows of a batch that reached the server without a usable answer, and the items they name (updates).
    private var unknown: (rows: [Int], ids: [Int]) = ([], [])
    /// A dry run's notes per row: what it could not check.
    private var notes: [Int: [String]] = [:]

    init(
        list: ListPath, name: String, site: SharePointSite, output: Output, converter: RowConverter, updating: Bool,
        dryRun: Bool
    ) {
        self.list = list
        self.name = name
        self.site = site
        self.output = output
        self.converter = converter
        self.updating = updating
        self.dryRun = dryRun
        written = (dryRun ? "would " : "") + (updating ? "update" : "create") + (dryRun ? "" : "d")
        stream = output.stream(columns: BulkWrite.resultColumns)
    }

    /// Writes `rows`; the exit code is 0 when every row was written, 14 when some row failed, else that of the
    /// failure that stopped the run (the rows of its batch `unknown` when it reached the server, else `not sent`;
    /// the rows after it `not sent`).
    func write(_ rows: [BulkInput.Row], command: String) async throws -> ExitCode {
        var pending: [(row: Int, change: Result<BatchItemChange, RowProblem>)] = []
        var stopped: SharePointError?
        var next = 0
        while next < rows.count, stopped == nil {
            let row = rows[next]
            next += 1
            do {
                pending.append((row.number, try await converter.change(for: row)))
                notes[row.number] = converter.takeNotes()
            } catch {
                stopped = error
                report(pending.map(\.row) + [row.number], notSentBecause: error)
                pending = []
                break
            }
            let changes = pending.filter { if case .success = $0.change { true } else { false } }.count
            if changes == SharePointSite.maximumBatchChanges || next == rows.count {
                stopped = await send(pending)
                pending = []
            }
        }
        // Rows converted after the last batch held only problems.
        if stopped == nil, !pending.isEmpty { stopped = await send(pending) }
        if stopped != nil { report(rows[next...].map(\.number), notSentBecause: nil) }
        stream.finish()
        let total = counts.written + counts.failed + counts.notSent + counts.unknown
        output.note(
            (dryRun ? "Dry run, nothing was written. " : "")
                + "\(total) row\(total == 1 ? "" : "s"): \(counts.written) \(dryRun ? "would be written" : "written"), "
                + "\(counts.failed) failed"
                + (counts.notSent > 0 ? ", \(counts.notSent) not sent" : "")
                + (counts.unknown > 0 ? ", \(counts.unknown) unknown" : ""))
        if !unknown.rows.isEmpty {
            output.note(
                UnknownWrites.bulkAdvice(rows: unknown.rows, ids: unknown.ids, list: name, updating: updating))
        }
        if let stopped {
            printError("spconnect \(command): \(stopped.description)")
            return exitCode(for: stopped)
        }
        return counts.failed > 0 ? .rowsFailed : .ok
    }

    /// Sends the changes of `pending` as one batch and writes every row's result, in row order. Returns the failure
    /// of the batch as a whole, or nil: its rows are then `unknown` when the server may have written them (the
    /// batch reached it and got no usable answer), else `not sent`.
    private func send(_ pending: [(row: Int, change: Result<BatchItemChange, RowProblem>)]) async -> SharePointError? {
        if dryRun { return plan(pending) }
        let changes = pending.compactMap { try? $0.change.get() }
        var outcomes: [BatchItemOutcome] = []
        if !changes.isEmpty {
            do {
                outcomes = try await site.batchWrite(changes, in: list)
            } catch {
                for (row, change) in pending {
                    switch change {
                    case .failure(let problem):
                        result(row, id: nil, status: "failed", error: problem.message)
                    case .success(let change) where error.mayHaveBeenWritten:
                        unknown.rows.append(row)
                        if let id = change.id { unknown.ids.append(id) }
                        result(row, id: change.id, status: "unknown", error: UnknownWrites.rowMessage(error))
                    case .success:
                        report([row], notSentBecause: error)
                    }
                }
                return error
            }
        }
        var answers = outcomes.makeIterator()
        for (row, change) in pending {
            switch change {
            case .failure(let problem):
                result(row, id: nil, status: "failed", error: problem.message)
            case .success:
                guard let outcome = answers.next() else { continue }
                if let error = outcome.error {
                    result(row, id: outcome.id, status: "failed", error: Self.rowMessage(error))
                } else {
                    result(row, id: outcome.id, status: written, error: nil)
                }
            }
        }
        stream.flush()
        return nil
    }

    /// A dry run's results for `pending`: what each row would do (with the id it names when updating), or why it
    /// would fail. Never fails as a whole: nothing is sent.
    private func plan(_ pending: [(row: Int, change: Result<BatchItemChange, RowProblem>)]) -> SharePointError? {
        for (row, change) in pending {
            switch change {
            case .failure(let problem): result(row, id: nil, status: "failed", error: problem.message)
            case .success(let change):
                let note = notes[row, default: []].joined(separator: "; ")
                result(row, id: change.id, status: written, error: note.isEmpty ? nil : note)
            }
        }
        stream.flush()
        return nil
    }

    /// Marks `rows` as not sent: because of `error` (the failure that stopped the run before their batch reached
    /// the server), or because an earlier one did (nil).
    private func report(_ rows: [Int], notSentBecause error: SharePointError?) {
        for row in rows {
            result(row, id: nil, status: "not sent", error: error.map(Self.rowMessage) ?? "an earlier batch failed")
        }
    }

    private func result(_ row: Int, id: Int?, status: String, error: String?) {
        switch status {
        case written: counts.written += 1
        case "failed": counts.failed += 1
        case "not sent": counts.notSent += 1
        case "unknown": counts.unknown += 1
        default: break
        }
        stream.write(
            Record([
                Presentation.Field("row", .int(row)), Presentation.Field("id", id.map(Cell.int) ?? .null),
                Presentation.Field("status", .string(status)),
                Presentation.Field("error", error.map { .string(ErrorOutput.displayed($0)) } ?? .null),
            ]))
    }

    /// One row's failure in a line: the HTTP status, SharePoint's code and message.
    static func rowMessage(_ error: SharePointError) -> String {
        var text = error.status > 0 ? "HTTP \(error.status)" : ""
        if let code = error.rawCode { text += (text.isEmpty ? "" : " ") + "(\(code))" }
        if let message = error.message { text += (text.isEmpty ? "" : ": ") + message }
        return text.isEmpty ? error.description : text
    }
}
