import Foundation
import Presentation
import SharePoint

/// How a `download -r` or `upload -r` run goes, from its flags. A plain value.
struct TreeOptions: Sendable {
    /// `--parallel N`: files (and folder listings) at a time.
    var parallel = 4
    /// `--overwrite`: also replace (with `--delete`: delete) what the user changed or spconnect did not write.
    var overwrite = false
    /// `--delete` (downloads): remove local files spconnect wrote that the server no longer has.
    var delete = false
    /// `--dry-run`: print the plan, change nothing.
    var dryRun = false
    /// `--wait SECONDS`: how long to wait for another run's lock on the local folder.
    var wait: Double = 0
}

/// What became of one file of a `download -r` or `upload -r` run. A plain value.
struct TreeResult: Sendable {
    /// How it ended: done (`downloaded`, `uploaded`, `unchanged`), left alone on purpose, or failed.
    enum Outcome: Sendable {
        case done(String)
        case skipped(String)
        case failed(String, detail: String, code: ExitCode)
    }

    /// The local path (below `--to DIR` for downloads, below `DIR` for uploads).
    var localPath: String
    /// The file's server-relative URL (for an upload that failed, where it would have gone).
    var serverRelativeUrl: String
    /// Bytes, when known.
    var size: Int64?
    var outcome: Outcome

    /// The columns of the per-file results, the same for both directions.
    static let columns = [
        Column("result", title: "Result"), Column("size", title: "Size"), Column("path", title: "Local path"),
        Column("serverRelativeUrl", title: "Server-relative URL"),
    ]

    /// The result cell: `downloaded`, `unchanged`, `deleted`, `would download`, `refused (…)`, `failed (…)`.
    var resultText: String {
        switch outcome {
        case .done(let word), .skipped(let word), .failed(let word, _, _): return word
        }
    }

    var record: Record {
        Record([
            Presentation.Field("result", .string(resultText)),
            Presentation.Field("size", size.map { .int(Int($0)) } ?? .null),
            Presentation.Field("path", .string(localPath)),
            Presentation.Field("serverRelativeUrl", .string(serverRelativeUrl)),
        ])
    }

    /// The exit code this file asks for, nil when it did not fail.
    var failureCode: ExitCode? {
        if case .failed(_, _, let code) = outcome { return code }
        return nil
    }

    /// A failed result from a SharePoint error, with its exit code.
    static func failure(_ error: SharePointError, localPath: String, serverRelativeUrl: String) -> TreeResult {
        TreeResult(
            localPath: localPath, serverRelativeUrl: serverRelativeUrl, size: nil,
            outcome: .failed(
                "failed (\(failureWord(error)))", detail: error.description, code: exitCode(for: error)))
    }
}

/// A short name of what went wrong, for a result cell (`not found`, `access denied`, `HTTP 500`, …).
func failureWord(_ error: SharePointError) -> String {
    switch error.kind {
    case .fileNotFound, .notFound: return "not found"
    case .accessDenied: return "access denied"
    case .throttled: return "throttled"
    case .localFile: return "local file"
    case .transport where error.kind.transportKind == .io: return "local file"
    case .transport: return "network"
    default: return error.status > 0 ? "HTTP \(error.status)" : "error"
    }
}

/// Writes each result as it comes (one line per file in NDJSON), each failure's message on standard error, and
/// returns the exit code of the run: `ok`, or the first failure's code.
final class TreeResultWriter {
    private let stream: RecordStream
    private let output: Output
    private let command: String
    private(set) var firstFailure: ExitCode?
    private(set) var counts: [String: Int] = [:]

    init(_ output: Output, command: String) {
        self.output = output
        self.command = command
        stream = output.stream(columns: TreeResult.columns)
    }

    func write(_ result: TreeResult) {
        if case .failed(_, let detail, let code) = result.outcome {
            printError("spconnect \(command): \(result.localPath): \(detail)")
            if firstFailure == nil { firstFailure = code }
        }
        // `refused (exists)` counts as `refused`, `would download` as itself.
        let word = result.resultText.components(separatedBy: " (").first ?? ""
        counts[word, default: 0] += 1
        stream.write(result.record)
        stream.flush()
    }

    /// Ends the output, says what happened on standard error (unless `--quiet`), and returns the exit code.
    func finish() -> ExitCode {
        stream.finish()
        let summary = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        output.note(summary.isEmpty ? "No files." : "Files: \(summary).")
        return firstFailure ?? .ok
    }
}

/// Runs `work` for each index in `0..<count`, at most `parallel` at a time, and hands every result to `done` on the
/// calling task as soon as it is ready (in order of completion).
func forEachConcurrently<R: Sendable>(
    _ count: Int, parallel: Int, _ work: @escaping @Sendable (Int) async -> R, done: (Int, R) -> Void
) async {
    await withTaskGroup(of: (Int, R).self) { group in
        var next = 0
        while next < min(max(parallel, 1), count) {
            let index = next
            group.addTask { (index, await work(index)) }
            next += 1
        }
        while let (index, result) = await group.next() {
            done(index, result)
            if next < count {
                let index = next
                group.addTask { (index, await work(index)) }
                next += 1
            }
        }
    }
}

/// Whether `name` (from a server or a local folder) can be one path component: not empty, `.`, `..`, and without
/// `/` or NUL, so a hostile listing cannot write outside the folder it goes to.
func isSafePathComponent(_ name: String) -> Bool {
    !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
}
