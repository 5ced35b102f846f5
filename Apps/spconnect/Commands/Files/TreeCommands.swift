import CommandLineKit
import FileOperations
import Foundation
import LocalFiles
import Mirror
import Presentation
import SharePoint

/// `--wait SECONDS` of the tree transfers.
let waitOption = OptionSpec.value(
    .wait, "SECONDS",
    "with -r: when another spconnect run is using the local folder, wait up to SECONDS for it (default 0: exit 15 at "
        + "once)")

/// `--since-token FILE` of `changes` and `items`.
let sinceTokenOption = OptionSpec.path(
    .sinceToken, "FILE",
    "only what changed since the change token in FILE; FILE is (re)written with the new token after a run that "
        + "succeeded (a missing FILE: from the start)")

/// The `--wait` given, in seconds (0 when not given).
func lockWait(_ arguments: ParsedArguments) throws(UsageError) -> Double {
    guard let text = arguments.value(.wait) else { return 0 }
    guard let seconds = Double(text), seconds >= 0, seconds <= 604_800 else {
        throw UsageError(description: "--wait takes a number of seconds from 0 to 604800 (a week), not '\(text)'")
    }
    return seconds
}

/// `download -r FOLDER --to DIR` and `upload -r DIR --to FOLDER`: runs the mirror engine (``TreeTransfer``) and
/// says what it reports: each result as a row (NDJSON: one line per file), each failure on standard error, notes
/// unless `--quiet`, a progress bar on a terminal, and the counts at the end. Returns the exit code: the first
/// failure's, `locked` when another run held the folder.
enum TreeCommand {
    static func download(
        _ word: String, to directory: String, options: TreeOptions, site: SharePointSite, output: Output,
        incremental: IncrementalDownload?
    ) async throws -> ExitCode {
        let printer = TreeReportPrinter(output, command: "download", waiting: options.wait)
        let end: TreeRunEnd
        do {
            end = try await TreeTransfer(site: site, options: options).download(
                try site.remoteFolder(named: word, container: true), to: directory, incremental: incremental,
                report: printer.report)
        } catch let error as MirrorSetupError {
            throw UsageError(description: "--to \(error.description)")
        }
        return printer.finish(end, dryRun: options.dryRun)
    }

    static func upload(
        _ directory: String, to word: String, options: TreeOptions, site: SharePointSite, output: Output
    ) async throws -> ExitCode {
        let printer = TreeReportPrinter(output, command: "upload", waiting: options.wait)
        let end: TreeRunEnd
        do {
            end = try await TreeTransfer(site: site, options: options).upload(
                directory, to: try site.remoteFolder(named: word, container: true), report: printer.report)
        } catch let error as MirrorSetupError {
            throw UsageError(description: error.description)
        }
        return printer.finish(end, dryRun: options.dryRun)
    }
}

/// Says a tree transfer's events as they come (``TreeEvent``), on the calling task.
final class TreeReportPrinter {
    private let output: Output
    private let command: String
    private let waiting: Double
    private let stream: RecordStream
    private var bar: TransferBar?

    init(_ output: Output, command: String, waiting: Double) {
        self.output = output
        self.command = command
        self.waiting = waiting
        stream = output.stream(columns: TreeResult.columns)
    }

    var report: (TreeEvent) -> Void { { [self] event in self.say(event) } }

    private func say(_ event: TreeEvent) {
        switch event {
        case .result(let result):
            if case .failed(_, let detail, _) = result.outcome {
                printError("spconnect \(command): \(result.localPath): \(detail)")
            }
            stream.write(result.record)
            stream.flush()
        case .note(let text): output.note("spconnect \(command): \(text)")
        case .warning(let text): printError("spconnect \(command): \(text)")
        case .waitingForLock(let holder):
            output.note(LockMessage.waiting(holder, what: holder.folder, command: command, seconds: waiting))
        case .transfersStarted(let totals):
            bar = TransferBar(
                label: "\(totals.count) files", totals: { totals.sum }, enabled: output.progressEnabled,
                drawingOn: STDERR_FILENO)
        case .transfersEnded:
            bar?.finish()
            bar = nil
        }
    }

    /// Ends the output, says the counts (unless `--quiet`) or why nothing was done, and returns the exit code.
    func finish(_ end: TreeRunEnd, dryRun: Bool) -> ExitCode {
        switch end {
        case .locked(let holder):
            printError(LockMessage.held(holder, what: holder.folder, command: command, seconds: waiting))
            return .locked
        case .finished(let summary):
            stream.finish()
            let counts = summary.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            output.note(counts.isEmpty ? "No files." : "Files: \(counts.joined(separator: ", ")).")
            if dryRun { output.note("Dry run: nothing was changed.") }
            if let failure = summary.firstFailure { return TreeResultRow.code(for: failure) }
            return summary.ledgerNotSaved ? .failure : .ok
        }
    }
}

/// What spconnect says about a lock another run holds.
enum LockMessage {
    /// Said once, unless `--quiet`, when a run starts to wait for `holder`.
    static func waiting(_ holder: LockHolder, what: String, command: String, seconds: Double) -> String {
        "spconnect \(command): waiting for \(who(holder)) to finish with \(what) (up to \(secondsText(seconds)) s, "
            + "--wait)"
    }

    /// Said on standard error when `holder` still had the lock after the wait.
    static func held(_ holder: LockHolder, what: String, command: String, seconds: Double) -> String {
        let waited = seconds == 0 ? "" : "; waited \(secondsText(seconds)) s (--wait)"
        return "spconnect \(command): \(what) is in use by \(who(holder)), which holds \(holder.lockPath)\(waited). "
            + "Try again when it has ended, or give --wait SECONDS to wait for it."
    }

    private static func who(_ holder: LockHolder) -> String {
        "another spconnect run (\(holder.pid.map { "PID \($0)" } ?? "PID unknown"))"
    }
}

extension LockHolder {
    /// The folder the lock file is in (a tree transfer's local folder).
    fileprivate var folder: String { (lockPath as NSString).deletingLastPathComponent }
}

/// One result of a tree transfer as a row of the command's output.
enum TreeResultRow {
    /// The exit code a failed file asks for.
    static func code(for failure: TreeFailure) -> ExitCode {
        switch failure {
        case .conflict: return .conflict
        case .other: return .failure
        case .sharePoint(let error): return exitCode(for: error)
        }
    }
}

/// Takes the lock file `name` in `folder`, which guards `what` (named in the messages), waiting up to `seconds`
/// (saying once, unless `--quiet`, that it waits); nil after saying why when another run still holds it.
func lockFile(
    _ name: String, in folder: LocalFolder, guarding what: String, command: String, waiting seconds: Double,
    output: Output
) async throws(LocalFileError) -> FolderLock? {
    let attempt = try await takeLock(name, in: folder, waiting: seconds) { holder in
        output.note(LockMessage.waiting(holder, what: what, command: command, seconds: seconds))
    }
    switch attempt {
    case .acquired(let lock): return lock
    case .held(let holder):
        printError(LockMessage.held(holder, what: what, command: command, seconds: seconds))
        return nil
    }
}
