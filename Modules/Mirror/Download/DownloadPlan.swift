import Foundation
import LocalFiles
import SharePoint

#if canImport(Glibc)
    import Glibc
#endif

/// A file of the tree that `download -r` fetches, and whether it replaces a local file.
struct PlannedDownload: Sendable {
    let entry: RemoteTreeFile
    let replaces: Bool
}

/// What `download -r` is to do: the files to fetch, and the ledger entries of files already in place that it does
/// not list (a run killed before it saved them).
struct DownloadPlan {
    var fetch: [PlannedDownload] = []
    var adopted: [(relativePath: String, entry: DownloadLedger.Entry)] = []
}

/// Decides, file by file, what `download -r` does with `tree` below `top` (nil: a folder not made yet, so every
/// file is new): writes the result of each file left alone (`unchanged`, `refused (…)`, `failed (local file)`) and
/// returns the plan. Makes nothing; unless `dryRun` it removes a killed run's temporary files from each folder it
/// looks in (``removeUnfinishedDownloads(in:)``). A local file is left alone when it has SharePoint's size and
/// time (and, unless `dryRun`, is taken into the ledger with its hash when the ledger does not list it so: an
/// earlier run wrote it and was killed before saving); otherwise it is replaced when `overwrite` or when its content
/// is what spconnect wrote (``LocalCopy``), and refused when it was modified locally or is not spconnect's.
func planDownloads(
    _ tree: RemoteTree, into top: LocalFolder?, ledger: DownloadLedger,
    uploaded: DownloadLedger = DownloadLedger(folder: nil),
    overwrite: Bool, dryRun: Bool, results: TreeResults
) async -> DownloadPlan {
    var plan = DownloadPlan()
    guard let top else {
        for entry in tree.files where !refusedAsReserved(entry, entry.relativePath, results) {
            plan.fetch.append(PlannedDownload(entry: entry, replaces: false))
        }
        return plan
    }
    var current: (folders: [String], folder: LocalFolder?) = ([], top)
    var tidied: Set<[String]> = []
    for entry in tree.files {
        let destination = top.path(of: entry.relativePath)
        let (folders, name) = entry.placement
        guard !refusedAsReserved(entry, destination, results) else { continue }
        let local: LocalEntry?
        do throws(LocalFileError) {
            if current.folders != folders { current = (folders, try existingFolder(folders, below: top)) }
            if !dryRun, let folder = current.folder, tidied.insert(folders).inserted {
                removeUnfinishedDownloads(in: folder)
            }
            local = try current.folder?.entry(name)
        } catch {
            results.write(localFailure(error, url: entry.file.serverRelativeUrl, destination: destination))
            continue
        }
        guard let local, let folder = current.folder else {
            plan.fetch.append(PlannedDownload(entry: entry, replaces: false))
            continue
        }
        guard local.kind == .file else {
            results.write(refused(entry, destination, "is not a regular file (a folder or a link is in the way)"))
            continue
        }
        let listed = ledger.entry(entry.relativePath)
        // Same size and second as SharePoint's, and (when the ledger knows it) the version written is the current
        // one: an edit within the same second that kept the size has another ETag.
        let sameVersion = listed?.etag == nil || entry.file.etag == nil || listed?.etag == entry.file.etag
        if DownloadLedger.Entry(local) == serverEntry(entry.file), sameVersion {
            if !dryRun,
                listed?.size != local.size || listed?.modified != local.modified || listed?.etag != entry.file.etag
            {
                let sha256 = await contentHash(of: name, in: folder)
                plan.adopted.append(
                    (
                        entry.relativePath,
                        DownloadLedger.Entry(
                            local, sha256: sha256, uniqueId: entry.file.uniqueId, etag: entry.file.etag)
                    ))
            }
            results.write(
                TreeResult(
                    localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl, size: local.size,
                    outcome: .skipped("unchanged")))
            continue
        }
        // The local file is the one `upload -r` sent from this folder, and SharePoint's version is the one that upload
        // made (an Office document SharePoint rewrote has another size and hash): in step, nothing to fetch.
        if !overwrite,
            UploadLedger.isInStep(
                uploaded.entry(entry.relativePath), remote: entry.file, local: DownloadLedger.Entry(local))
        {
            results.write(
                TreeResult(
                    localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl, size: local.size,
                    outcome: .skipped("unchanged")))
            continue
        }
        let copy: LocalCopy =
            overwrite
            ? .written
            : await LocalCopy.judge(
                name, in: folder, local: local, written: ledger.entry(entry.relativePath),
                pending: ledger.pendingEntry(entry.relativePath))
        switch copy {
        case .written:
            plan.fetch.append(PlannedDownload(entry: entry, replaces: true))
        case .modified:
            results.write(
                refused(
                    entry, destination,
                    "was modified locally since spconnect wrote it; not replaced (add --overwrite to replace it)",
                    result: "refused (modified locally)"))
        case .foreign:
            results.write(
                refused(
                    entry, destination,
                    "exists and was not written by spconnect; not replaced (add --overwrite to replace it)"))
        }
    }
    return plan
}

extension RemoteTreeFile {
    /// The folders below the tree's top that hold the file, and its name.
    var placement: (folders: [String], name: String) {
        let parts = relativePath.split(separator: "/").map(String.init)
        return (Array(parts.dropLast()), parts.last ?? "")
    }
}

/// The folder `components` below `top`, when it is there: nil when one of them is missing (nothing below it is
/// local yet). A link or something else in the way throws, as ``LocalFolder/folder(at:create:)`` does.
func existingFolder(_ components: [String], below top: LocalFolder) throws(LocalFileError) -> LocalFolder? {
    do throws(LocalFileError) {
        return try top.folder(at: components, create: false)
    } catch {
        if error.code == ENOENT { return nil }
        throw error
    }
}

/// Whether `entry` has the name of spconnect's own files at the top of the download folder (the ledger, the lock),
/// which it would replace: then it is written as `refused (reserved name)`.
private func refusedAsReserved(_ entry: RemoteTreeFile, _ destination: String, _ results: TreeResults) -> Bool {
    guard [DownloadLedger.fileName, treeLockFileName].contains(entry.relativePath) else { return false }
    results.write(
        refused(
            entry, destination, "is the name of spconnect's own file in the download folder; not downloaded",
            result: "refused (reserved name)"))
    return true
}

/// SharePoint's size and whole-second modification time of `file`, as a downloaded copy has them.
private func serverEntry(_ file: SharePoint.File) -> DownloadLedger.Entry? {
    guard let modified = file.timeLastModified else { return nil }
    return DownloadLedger.Entry(size: file.length, modified: Int(modified.timeIntervalSince1970.rounded(.down)))
}

/// A file left alone because something that is not spconnect's, or no longer as spconnect wrote it, is at its place.
private func refused(
    _ entry: RemoteTreeFile, _ destination: String, _ why: String, result: String = "refused (exists)"
) -> TreeResult {
    TreeResult(
        localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl, size: nil,
        outcome: .failed(result, detail: why, cause: .conflict))
}

/// A file or folder not written (or deleted) because its place below `--to DIR` cannot be reached: a symbolic link
/// on the way (never followed: `refused (link)`), or a local error such as a name too long for the file system
/// (`failed (local file)`, naming the path and the system's reason).
func localFailure(_ error: LocalFileError, url: String, destination: String) -> TreeResult {
    guard !error.isSymbolicLink else {
        return TreeResult(
            localPath: destination, serverRelativeUrl: url, size: nil,
            outcome: .failed(
                "refused (link)",
                detail: "\(error.path) is a symbolic link; links inside the download folder are never followed, so "
                    + "nothing is written through it", cause: .conflict))
    }
    return TreeResult(
        localPath: destination, serverRelativeUrl: url, size: nil,
        outcome: .failed("failed (local file)", detail: error.description, cause: .other))
}

/// Removes what a killed run left in `folder`: download temporary files (`.NAME.UUID.part`, see
/// ``SharePointSite/download(serverRelativeURL:into:as:modified:progress:)``). Nothing else is touched. Only while
/// the folder's lock is held: another run's files in progress look the same.
private func removeUnfinishedDownloads(in folder: LocalFolder) {
    for name in folder.names() where name.hasPrefix(".") && name.hasSuffix(".part") && name.count > 43 {
        let uuid = name.dropLast(5).suffix(37)
        guard uuid.first == ".", UUID(uuidString: String(uuid.dropFirst())) != nil else { continue }
        folder.removeFile(name)
    }
}
