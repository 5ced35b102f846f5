public import SharePoint

/// How a tree download or upload goes. A plain value.
public struct TreeOptions: Sendable {
    /// Files (and folder listings) at a time.
    public var parallel = 4
    /// Also replace (with ``delete``: delete) what the user changed or spconnect did not write.
    public var overwrite = false
    /// Remove what spconnect wrote and the other side no longer has.
    public var delete = false
    /// Report the plan, change nothing: no folder made, no file, no ledger, no lock.
    public var dryRun = false
    /// How long to wait, in seconds, for another run's lock on the local folder.
    public var wait: Double = 0

    /// Options with the given values.
    public init(
        parallel: Int = 4, overwrite: Bool = false, delete: Bool = false, dryRun: Bool = false, wait: Double = 0
    ) {
        self.parallel = parallel
        self.overwrite = overwrite
        self.delete = delete
        self.dryRun = dryRun
        self.wait = wait
    }
}

/// Why one file of a tree transfer failed, for the caller to map to its own codes.
public enum TreeFailure: Sendable {
    /// Something is in the way and was left alone on purpose (changed, not written by spconnect, a link).
    case conflict
    /// The server refused, or could not be reached.
    case sharePoint(SharePointError)
    /// Anything else (a local file that could not be written or deleted, a name that cannot be a local path).
    case other
}

/// What became of one file or folder of a tree transfer. A plain value.
public struct TreeResult: Sendable {
    /// How it ended: done (`downloaded`, `uploaded`, `deleted`), left alone on purpose, or failed.
    public enum Outcome: Sendable {
        case done(String)
        case skipped(String)
        case failed(String, detail: String, cause: TreeFailure)
    }

    /// The local path (below the download folder, or below the uploaded folder).
    public var localPath: String
    /// The server-relative URL (for an upload that failed, where it would have gone).
    public var serverRelativeUrl: String
    /// Bytes, when known.
    public var size: Int64?
    public var outcome: Outcome

    /// A result.
    public init(localPath: String, serverRelativeUrl: String, size: Int64?, outcome: Outcome) {
        self.localPath = localPath
        self.serverRelativeUrl = serverRelativeUrl
        self.size = size
        self.outcome = outcome
    }

    /// The result word: `downloaded`, `unchanged`, `deleted`, `would download`, `refused (…)`, `failed (…)`.
    public var resultText: String {
        switch outcome {
        case .done(let word), .skipped(let word), .failed(let word, _, _): return word
        }
    }

    /// Why it failed, nil when it did not.
    public var failure: TreeFailure? {
        if case .failed(_, _, let cause) = outcome { return cause }
        return nil
    }

    /// A failed result from a SharePoint error.
    static func failure(_ error: SharePointError, localPath: String, serverRelativeUrl: String) -> TreeResult {
        TreeResult(
            localPath: localPath, serverRelativeUrl: serverRelativeUrl, size: nil,
            outcome: .failed("failed (\(error.briefReason))", detail: error.description, cause: .sharePoint(error)))
    }
}

/// What a tree transfer reports while it runs, in order, on the task that runs it. The engine never prints: the
/// caller says what it wants of these.
public enum TreeEvent {
    /// One file or folder's outcome, as soon as it is known.
    case result(TreeResult)
    /// How the run goes (a full run instead of an incremental one, a folder uploaded without its lock, …).
    case note(String)
    /// Something went wrong that is not one file's result (the ledger could not be saved, a change token too old).
    case warning(String)
    /// Another run holds the local folder's lock; this one waits up to ``TreeOptions/wait`` seconds.
    case waitingForLock(LockHolder)
    /// Files start to transfer; their bytes are counted in the totals until ``transfersEnded``.
    case transfersStarted(TransferTotals)
    case transfersEnded
}

/// How a tree transfer ended.
public enum TreeRunEnd: Sendable {
    /// It ran: how many files ended how, and the first failure.
    case finished(TreeRunSummary)
    /// Another run held the local folder's lock past the wait; nothing was done.
    case locked(LockHolder)
}

/// The counts of a run that finished. A plain value.
public struct TreeRunSummary: Sendable {
    /// Results by their word without its reason (`refused (exists)` counts as `refused`).
    public var counts: [String: Int] = [:]
    /// The first file that failed, nil when none did.
    public var firstFailure: TreeFailure?
    /// The ledger could not be saved (said as a ``TreeEvent/warning(_:)``): the run counts as failed.
    public var ledgerNotSaved = false

    /// Whether everything went as asked.
    public var succeeded: Bool { firstFailure == nil && !ledgerNotSaved }
}

/// The results of one run as they come: handed to the caller's report, counted for the summary.
final class TreeResults {
    private let report: (TreeEvent) -> Void
    private(set) var summary = TreeRunSummary()

    init(_ report: @escaping (TreeEvent) -> Void) { self.report = report }

    func write(_ result: TreeResult) {
        if let failure = result.failure, summary.firstFailure == nil { summary.firstFailure = failure }
        let word = result.resultText.components(separatedBy: " (").first ?? ""
        summary.counts[word, default: 0] += 1
        report(.result(result))
    }

    func note(_ text: String) { report(.note(text)) }
    func warning(_ text: String) { report(.warning(text)) }
    func event(_ event: TreeEvent) { report(event) }
}

/// Runs `work` for each index in `0..<count`, at most `parallel` at a time, and hands every result to `done` on the
/// calling task as soon as it is ready (in order of completion).
public func forEachConcurrently<R: Sendable>(
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
