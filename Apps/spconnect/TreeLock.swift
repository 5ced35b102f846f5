import Foundation
import SharePoint

/// The lock file `download -r` and `upload -r` take in their local folder (never uploaded, never deleted).
let treeLockFileName = ".spconnect-download.lock"

/// `--wait SECONDS` of the tree transfers.
let waitOption = OptionSpec.value(
    .wait, "SECONDS",
    "with -r: when another spconnect run is using the local folder, wait up to SECONDS for it (default 0: exit 15 at "
        + "once)")

/// The `--wait` given, in seconds (0 when not given).
func lockWait(_ arguments: ParsedArguments) throws(UsageError) -> Double {
    guard let text = arguments.value(.wait) else { return 0 }
    guard let seconds = Double(text), seconds >= 0, seconds <= 604_800 else {
        throw UsageError(description: "--wait takes a number of seconds from 0 to 604800 (a week), not '\(text)'")
    }
    return seconds
}

/// Takes the lock of the local folder of a tree transfer (``treeLockFileName`` in `folder`, `flock(2)`): one
/// `download -r` into a folder, or `upload -r` from it, at a time. While another run holds it, tries again every
/// tenth of a second for up to `seconds` (saying once, unless `--quiet`, that it waits). Returns nil when the other
/// run still has it then, after printing why (the caller exits with ``ExitCode/locked``).
///
/// - Throws: ``LocalFileError`` when the lock file cannot be made or opened (see ``FolderLock``).
func lockTreeFolder(
    _ folder: LocalFolder, command: String, waiting seconds: Double, output: Output
) async throws(LocalFileError) -> FolderLock? {
    try await lockFile(
        treeLockFileName, in: folder, guarding: folder.path, command: command, waiting: seconds, output: output)
}

/// Takes the lock file `name` in `folder` (`flock(2)`), which guards `what` (named in the messages: a folder, an
/// export), waiting as ``lockTreeFolder(_:command:waiting:output:)`` does.
func lockFile(
    _ name: String, in folder: LocalFolder, guarding what: String, command: String, waiting seconds: Double,
    output: Output
) async throws(LocalFileError) -> FolderLock? {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    var announced = false
    while true {
        let holder: Int32?
        switch try FolderLock.attempt(name, in: folder) {
        case .acquired(let lock): return lock
        case .held(let pid): holder = pid
        }
        let who = "another spconnect run (\(holder.map { "PID \($0)" } ?? "PID unknown"))"
        guard ContinuousClock.now < deadline, !Task.isCancelled else {
            let waited = seconds == 0 ? "" : "; waited \(secondsText(seconds)) s (--wait)"
            printError(
                "spconnect \(command): \(what) is in use by \(who), which holds "
                    + "\(folder.path(of: name))\(waited). Try again when it has ended, or give --wait "
                    + "SECONDS to wait for it.")
            return nil
        }
        if !announced {
            output.note(
                "spconnect \(command): waiting for \(who) to finish with \(what) (up to "
                    + "\(secondsText(seconds)) s, --wait)")
            announced = true
        }
        try? await Task.sleep(for: .milliseconds(100))
    }
}
