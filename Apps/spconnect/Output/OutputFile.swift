import CommandLineKit
import Foundation
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
        let target: String
        let temporary: String
        let descriptor: Int32
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
            guard existing.target == path else { throw UsageError(description: "--out given twice") }
            return existing.descriptor
        }
        let made = try makeTemporary(beside: path)
        pending.withLock { $0 = made }
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
        if code == .ok, failure == nil, fsync(state.descriptor) != 0 {
            failure = "could not write it: \(String(cString: strerror(errno)))"
        }
        close(state.descriptor)
        if code == .ok, failure == nil {
            if rename(state.temporary, state.target) == 0 { return .ok }
            failure = "could not replace it: \(String(cString: strerror(errno)))"
        }
        unlink(state.temporary)
        let kept = FileManager.default.fileExists(atPath: state.target) ? "left as it was" : "not written"
        if let failure {
            printError("spconnect: --out \(state.target): \(failure); the file is \(kept)")
            return code == .ok ? .failure : code
        }
        printError("spconnect: --out \(state.target): the command failed, so the file is \(kept)")
        return code
    }

    private static func makeTemporary(beside path: String) throws(UsageError) -> Pending {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw UsageError(description: "--out \(path): the folder \(folder) does not exist")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw UsageError(description: "--out \(path) is a folder; give a file name")
        }
        var existing = stat()
        let existingMode: mode_t? =
            lstat(path, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG
            ? existing.st_mode & 0o7777 : nil
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let temporary = "\(folder)/.\(url.lastPathComponent).spconnect-\(suffix)"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
            if descriptor >= 0 {
                if let existingMode { fchmod(descriptor, existingMode) }
                return Pending(target: path, temporary: temporary, descriptor: descriptor)
            }
            guard errno == EEXIST else {
                throw UsageError(
                    description: "--out \(path): cannot write in \(folder): \(String(cString: strerror(errno)))")
            }
        }
        throw UsageError(description: "--out \(path): cannot make a temporary file in \(folder)")
    }
}
