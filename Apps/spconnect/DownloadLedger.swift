import Foundation
import SharePoint

#if canImport(Glibc)
    import Glibc
#endif

/// What `download -r` wrote into a folder: for each file (its path below the folder), the size and modification
/// time it had when spconnect finished writing it. A local file whose size and time are still those was written
/// by spconnect and left alone since, so a newer version from SharePoint may replace it; any other file that is in
/// the way is the user's and is never replaced without `--overwrite`.
///
/// Kept in `DIR/.spconnect-download.json` (the format: `DownloadLedgerFile`), saved atomically (a temporary file renamed into place) at most once a
/// second while files complete and once at the end; a run killed in between loses at most the last second's
/// entries, and those files still match SharePoint's size and time, so a rerun skips them anyway. Not thread-safe:
/// used by the one task that collects results.
struct DownloadLedger {
    /// The ledger's file name in the download folder (never uploaded by `upload -r`).
    static let fileName = ".spconnect-download.json"

    /// Size and whole-second modification time of a file as written.
    typealias Entry = DownloadLedgerFile.Entry

    private let path: String
    private var files: [String: Entry] = [:]
    private var unsaved = false
    private var lastSaved = ContinuousClock.now

    /// The ledger of `directory`; a missing or unreadable one is empty (fewer files count as spconnect's, never more).
    init(directory: String) {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
        if let data = FileManager.default.contents(atPath: path), let read = DownloadLedgerFile.parse(data) {
            files = read
        }
    }

    /// The entry written for `relativePath`, if any.
    func entry(_ relativePath: String) -> Entry? { files[relativePath] }

    /// Notes that spconnect has just written `relativePath` with this size and time.
    mutating func record(_ relativePath: String, _ entry: Entry) {
        files[relativePath] = entry
        unsaved = true
    }

    /// Saves when something changed and the last save is a second old (`force`: whenever something changed).
    mutating func save(force: Bool = false) throws(SharePointLedgerError) {
        guard unsaved, force || ContinuousClock.now - lastSaved >= .seconds(1) else { return }
        do {
            try DownloadLedgerFile.render(files).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw SharePointLedgerError(path: path, detail: "\(error)")
        }
        unsaved = false
        lastSaved = ContinuousClock.now
    }
}

/// The download ledger could not be saved (the downloaded files themselves are complete).
struct SharePointLedgerError: Error, CustomStringConvertible {
    let path: String
    let detail: String
    var description: String {
        "could not save \(path) (\(detail)); the files are complete, but a rerun will treat those that changed in "
            + "SharePoint meanwhile as not written by spconnect"
    }
}

/// Size and whole-second modification time of a regular file at `path` (not following a symbolic link); nil when
/// there is none. `isRegular` is false for anything else in the way (a folder, a link).
func localFileFacts(_ path: String) -> (entry: DownloadLedger.Entry, isRegular: Bool)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    let regular = (info.st_mode & S_IFMT) == S_IFREG
    return (DownloadLedger.Entry(size: Int64(info.st_size), modified: Int(info.st_mtim.tv_sec)), regular)
}
