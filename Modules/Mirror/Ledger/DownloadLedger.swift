import Foundation
import LocalFiles
import SharePoint

/// What `download -r` wrote into a folder: for each file (its path below the folder), the size, modification time
/// and SHA-256 it had when spconnect finished writing it. A local file whose content is still that (``LocalCopy``)
/// was written by spconnect and left alone since, so a newer version from SharePoint may replace it and `--delete`
/// may remove it; any other file in the way is the user's and is never replaced without `--overwrite`.
///
/// Kept in `DIR/.spconnect-download.json` (the format: `DownloadLedgerFile`), saved atomically (a temporary `.part`
/// file renamed into place) at most once a second while files complete and once at the end. A file is recorded only
/// once it is whole and in place, so the file never lists a partial one. Before any file is fetched, the versions
/// about to be written are saved as **pending** (SharePoint's size, time and ETag: ``markPending(_:_:)``): a run
/// killed after a file landed but before the ledger heard of it leaves that file matching its pending entry, so the
/// next run still knows it as spconnect's (the soak found such a file taken for a local edit once SharePoint changed
/// it again). The folder's lock (``treeLockFileName``) keeps two runs from saving over each other. Not thread-safe:
/// used by the one task that collects results.
///
/// `upload -r` keeps the same kind of ledger in the folder it uploads from (``uploadFileName``): for each file it
/// uploaded, the size and time SharePoint gave it, so `upload -r --delete` recycles only what spconnect put there and
/// nobody changed since (`UploadMirror.swift`).
struct DownloadLedger {
    /// The ledger's file name in the download folder (never uploaded by `upload -r`).
    static let fileName = ".spconnect-download.json"
    /// The upload ledger's file name in the folder `upload -r` reads (never uploaded either).
    static let uploadFileName = ".spconnect-upload.json"

    /// Size and whole-second modification time of a file as written.
    typealias Entry = DownloadLedgerFile.Entry

    private let folder: LocalFolder?
    private let fileName: String
    private var files: [String: Entry] = [:]
    /// Versions about to be written, by path, until each is recorded (or the run ends).
    private var pending: [String: Entry] = [:]
    private var unsaved = false
    private var lastSaved = ContinuousClock.now

    /// The ledger of the download folder `folder` (read from it by name, never through a link); a missing or
    /// unreadable one is empty (fewer files count as spconnect's, never more), and so is that of a folder not there
    /// yet (nil: a dry run into a new folder).
    init(folder: LocalFolder?, fileName: String = DownloadLedger.fileName) {
        self.folder = folder
        self.fileName = fileName
        if let bytes = folder?.contents(of: fileName, limit: 256 << 20),
            let read = DownloadLedgerFile.parseWithPending(Data(bytes))
        {
            (files, pending) = read
        }
    }

    /// The entry written for `relativePath`, if any.
    func entry(_ relativePath: String) -> Entry? { files[relativePath] }

    /// Every path the ledger lists, those still pending too (a file a killed run wrote is spconnect's to delete).
    var paths: [String] { Array(Set(files.keys).union(pending.keys)) }

    /// The version a run was about to write at `relativePath` when the ledger was last saved, if any.
    func pendingEntry(_ relativePath: String) -> Entry? { pending[relativePath] }

    /// Notes that spconnect has just written `relativePath` with this size, time and hash.
    mutating func record(_ relativePath: String, _ entry: Entry) {
        files[relativePath] = entry
        pending[relativePath] = nil
        unsaved = true
    }

    /// Notes that spconnect is about to write `relativePath` with SharePoint's size, time and ETag: saved before the
    /// write starts, it lets the next run know the file as spconnect's even if this one is killed before
    /// ``record(_:_:)``.
    mutating func markPending(_ relativePath: String, _ entry: Entry) {
        pending[relativePath] = entry
        unsaved = true
    }

    /// Forgets the versions still pending: at the end of a run, those that did not land never will.
    mutating func clearPending() {
        guard !pending.isEmpty else { return }
        pending = [:]
        unsaved = true
    }

    /// Forgets `relativePath` (spconnect deleted it, or it is gone).
    mutating func forget(_ relativePath: String) {
        guard files.removeValue(forKey: relativePath) != nil || pending.removeValue(forKey: relativePath) != nil
        else { return }
        unsaved = true
    }

    /// Saves when something changed and the last save is a second old (`force`: whenever something changed).
    mutating func save(force: Bool = false) throws(LedgerSaveError) {
        guard let folder, unsaved, force || ContinuousClock.now - lastSaved >= .seconds(1) else { return }
        do {
            try folder.write(Array(try DownloadLedgerFile.render(files, pending: pending)), to: fileName)
        } catch let error as LocalFileError {
            throw LedgerSaveError(path: folder.path(of: fileName), detail: error.reason)
        } catch {
            throw LedgerSaveError(path: folder.path(of: fileName), detail: "\(error)")
        }
        unsaved = false
        lastSaved = ContinuousClock.now
    }
}

/// The download ledger could not be saved (the downloaded files themselves are complete).
struct LedgerSaveError: Error, CustomStringConvertible {
    let path: String
    let detail: String
    var description: String {
        "could not save \(path) (\(detail)); the files are complete, but a rerun will treat those that changed in "
            + "SharePoint meanwhile as not written by spconnect"
    }
}

extension DownloadLedger.Entry {
    /// The size and time of a local file (and its hash and the SharePoint file's unique id, when known).
    init(_ local: LocalEntry, sha256: String? = nil, uniqueId: String? = nil, etag: String? = nil) {
        self.init(size: local.size, modified: local.modified, sha256: sha256, uniqueId: uniqueId, etag: etag)
    }
}
