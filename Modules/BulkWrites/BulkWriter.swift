public import SharePoint

/// What became of one row of a bulk write. A plain value.
public struct BulkRowResult: Sendable {
    /// The row's number in the file (the header is row 1 of a CSV file).
    public let row: Int
    /// The item it created or names, when known.
    public let id: Int?
    /// `created`, `updated` (`would create`, `would update` in a dry run), `failed`, `not sent` or `unknown` (the
    /// server may have written it: its batch got no usable answer).
    public let status: String
    /// Why it failed, or a dry run's note; nil otherwise. Server text: scrub it before showing it.
    public let error: String?
}

/// How a bulk write ended. A plain value.
public struct BulkWriteSummary: Sendable {
    public var written = 0
    public var failed = 0
    public var notSent = 0
    public var unknown = 0
    /// The rows that reached the server without a usable answer, and the items they name (updates).
    public var unknownRows: [Int] = []
    public var unknownIDs: [Int] = []
    /// The failure that stopped the run (its rows `not sent` or `unknown`, the rows after it `not sent`), if any.
    public var stopped: SharePointError?

    /// Every row counted.
    public var total: Int { written + failed + notSent + unknown }

    /// The counts in a sentence (`3 rows: 2 written, 1 failed`), said as a dry run's when `dryRun`.
    public func counts(dryRun: Bool) -> String {
        (dryRun ? "Dry run, nothing was written. " : "") + "\(total) row\(total == 1 ? "" : "s"): \(written) "
            + (dryRun ? "would be written" : "written") + ", \(failed) failed"
            + (notSent > 0 ? ", \(notSent) not sent" : "") + (unknown > 0 ? ", \(unknown) unknown" : "")
    }
}

/// Writes the rows of a CSV or NDJSON file to a list as OData `$batch` change sets (100 changes a request): each
/// row's values converted by the list's fields (people looked up, dates read as ISO 8601, lookups by id), each row's
/// result reported as soon as its batch is answered. With `dryRun` every row is converted and checked and none is
/// sent. It never prints.
public final class BulkWriter {
    let list: ListPath
    /// The list as the user named it (in messages about columns).
    let listName: String
    let site: SharePointSite
    /// Updates the items the rows name by their `Id` column (else creates one item per row).
    let updating: Bool
    let dryRun: Bool
    /// The status of a row written (`created`, `updated`; `would create`, `would update` in a dry run).
    let written: String
    private var summary = BulkWriteSummary()
    /// A dry run's notes per row: what it could not check.
    private var notes: [Int: [String]] = [:]
    private var report: (BulkRowResult) -> Void = { _ in }
    private var converter: RowConverter?

    /// A writer of rows to `list` (named `listName` by the user) on `site`.
    public init(list: ListPath, listName: String, site: SharePointSite, updating: Bool, dryRun: Bool) {
        self.list = list
        self.listName = listName
        self.site = site
        self.updating = updating
        self.dryRun = dryRun
        written = (dryRun ? "would " : "") + (updating ? "update" : "create") + (dryRun ? "" : "d")
    }

    /// Checks the file's columns against the list's fields (nothing is sent when one cannot be written), then writes
    /// the rows batch by batch, reporting each row's result in row order within its batch.
    ///
    /// - Throws: ``BulkInputError`` for columns the list cannot take; ``SharePointError`` when the fields cannot be
    ///   read. A failure after that stops the run and is in the summary's ``BulkWriteSummary/stopped``.
    public func write(_ input: BulkInput, report: @escaping (BulkRowResult) -> Void) async throws
        -> BulkWriteSummary
    {
        let columns = try BulkColumns(
            input.columns, fields: try await site.fields(of: list), list: listName, needsID: updating)
        converter = RowConverter(columns: columns, site: site, lookingUpOnly: dryRun)
        self.report = report
        await write(input.rows)
        return summary
    }

    private func write(_ rows: [BulkInput.Row]) async {
        guard let converter else { return }
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
                reportNotSent(pending.map(\.row) + [row.number], because: error)
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
        if stopped != nil { reportNotSent(rows[next...].map(\.number), because: nil) }
        summary.stopped = stopped
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
                        summary.unknownRows.append(row)
                        if let id = change.id { summary.unknownIDs.append(id) }
                        result(row, id: change.id, status: "unknown", error: Self.unknownMessage(error))
                    case .success:
                        reportNotSent([row], because: error)
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
        return nil
    }

    /// Marks `rows` as not sent: because of `error` (the failure that stopped the run before their batch reached
    /// the server), or because an earlier one did (nil).
    private func reportNotSent(_ rows: [Int], because error: SharePointError?) {
        for row in rows {
            result(row, id: nil, status: "not sent", error: error.map(Self.rowMessage) ?? "an earlier batch failed")
        }
    }

    private func result(_ row: Int, id: Int?, status: String, error: String?) {
        switch status {
        case written: summary.written += 1
        case "failed": summary.failed += 1
        case "not sent": summary.notSent += 1
        case "unknown": summary.unknown += 1
        default: break
        }
        report(BulkRowResult(row: row, id: id, status: status, error: error))
    }

    /// One row's failure in a line: the HTTP status, SharePoint's code and message.
    static func rowMessage(_ error: SharePointError) -> String {
        var text = error.status > 0 ? "HTTP \(error.status)" : ""
        if let code = error.rawCode { text += (text.isEmpty ? "" : " ") + "(\(code))" }
        if let message = error.message { text += (text.isEmpty ? "" : ": ") + message }
        return text.isEmpty ? error.description : text
    }

    /// The error of a row of a batch that reached the server and got no usable answer (lost, cut short,
    /// unreadable, a 5xx): what may have happened, why it is not known, what to do.
    public static func unknownMessage(_ error: SharePointError) -> String {
        "the row may have been written: the batch reached the server but \(unknownReason(error)); check it before "
            + "sending it again"
    }

    /// Why a batch's outcome is not known, as a clause ("its answer could not be read").
    public static func unknownReason(_ error: SharePointError) -> String {
        if let kind = error.kind.transportKind { return "the exchange failed before its whole answer came (\(kind))" }
        if error.kind == .unexpectedResponse { return "its answer could not be read" }
        return "it answered HTTP \(error.status)"
    }
}
