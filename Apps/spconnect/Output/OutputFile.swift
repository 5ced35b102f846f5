import CommandLineKit
import Foundation
import LocalFiles
import Presentation
import Synchronization

/// The option of every command that writes results (``OutputFile``).
let outFileOption = OptionSpec.path(
    .out, "FILE",
    "write the results to FILE, replacing it only when the command succeeds (format from a .json, .ndjson or .csv "
        + "name unless -o is given)")

/// `--out FILE`: a command's results go to a temporary file beside FILE, which replaces FILE (one `rename(2)`) only
/// when the command succeeds. A failed nightly export leaves yesterday's file as it was, where `> FILE` would have
/// emptied it before the command even started.
///
/// The temporary file is made with the user's umask (and, when FILE exists, takes FILE's permission bits), in
/// FILE's folder so the rename never crosses file systems. One `--out` per run; it is opened by the first
/// ``Output`` and settled once by ``finish(_:)`` when the command has returned its exit code.
enum OutputFile {
    private struct Pending: Sendable {
        let file: ReplacementFile
        /// The `errno` of the first failed write, reported by the ``Output`` that saw it.
        var writeFailure: Int32?
    }

    private static let pending = Mutex<Pending?>(nil)

    /// The formats a file's extension names: `--out tasks.csv` writes CSV unless `-o` says otherwise.
    static func format(forPath path: String) -> String? {
        let ext = (path as NSString).pathExtension.lowercased()
        return ["json", "ndjson", "csv"].contains(ext) ? ext : nil
    }

    /// The descriptor results are written to for `--out path`: the temporary file, made on the first call.
    static func descriptor(for path: String) throws(UsageError) -> Int32 {
        let existing = pending.withLock { $0 }
        if let existing {
            guard existing.file.target == path else { throw UsageError(description: "--out given twice") }
            return existing.file.descriptor
        }
        let made: ReplacementFile
        do {
            made = try ReplacementFile.make(beside: path)
        } catch {
            throw UsageError(description: "--out \(path): \(error.description)")
        }
        pending.withLock { $0 = Pending(file: made) }
        return made.descriptor
    }

    /// Where a command's results go: the `--out` file's temporary file when `--out` is given, else standard output.
    static func sink(_ arguments: ParsedArguments) throws(UsageError) -> FileDescriptorSink {
        guard let path = arguments.value(.out) else { return .standardOutput() }
        return FileDescriptorSink(fileDescriptor: try descriptor(for: path))
    }

    /// Flushes `sink` (one made by ``sink(_:)`` for `--out`) and notes whether a write failed, so ``finish(_:)``
    /// keeps the old file.
    static func settled(_ sink: FileDescriptorSink) {
        sink.flush()
        guard let error = sink.failure else { return }
        pending.withLock { state in
            if state?.writeFailure == nil { state?.writeFailure = error }
        }
    }

    /// Settles `--out` for a command that ended with `code`: on success the temporary file (synced to disk)
    /// replaces the target; otherwise, or when writing or renaming failed, it is removed and the target is left as
    /// it was, which is said on standard error. Returns the exit code to use.
    static func finish(_ code: ExitCode) -> ExitCode {
        guard
            let state = pending.withLock({ state -> Pending? in
                defer { state = nil }
                return state
            })
        else { return code }
        var failure = state.writeFailure.map { "could not write it: \(String(cString: strerror($0)))" }
        if code == .ok, failure == nil {
            do {
                try state.file.commit()
                return .ok
            } catch {
                failure = error.description
            }
        } else {
            state.file.discard()
        }
        let target = state.file.target
        let kept = FileManager.default.fileExists(atPath: target) ? "left as it was" : "not written"
        if let failure {
            printError("spconnect: --out \(target): \(failure); the file is \(kept)")
            return code == .ok ? .failure : code
        }
        printError("spconnect: --out \(target): the command failed, so the file is \(kept)")
        return code
    }
}
