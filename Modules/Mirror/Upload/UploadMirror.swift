import Foundation
import LocalFiles
import SharePoint

/// The upload ledger of a folder `upload -r` reads (`DIR/.spconnect-upload.json`, a ``DownloadLedger`` by another
/// name): for each file spconnect uploaded from it, the size and whole-second time SharePoint gave that file. A file
/// still with those facts in SharePoint is spconnect's, unchanged since; `upload -r --delete` may recycle it once the
/// local folder no longer has it.
enum UploadLedger {
    /// The ledger of the local folder `directory` (empty when it has none, or when it cannot be read).
    static func open(_ directory: String) -> DownloadLedger {
        DownloadLedger(folder: try? LocalFolder(path: directory), fileName: DownloadLedger.uploadFileName)
    }

    /// What the ledger keeps for a file SharePoint has, sent from a local file with the facts `sent`.
    static func entry(_ file: SharePoint.File, sent: DownloadLedger.Entry?) -> DownloadLedger.Entry {
        DownloadLedger.Entry(
            size: file.length, modified: wholeSeconds(file.timeLastModified), sentSize: sent?.size,
            sentModified: sent?.modified)
    }

    /// Whether `entry` says SharePoint's `file` is still the version spconnect made of the local file with the
    /// facts `local` (same size and second on both sides as at the upload): the two are in step, whatever SharePoint
    /// did to the bytes (it rewrites Office documents, so their size and hash differ from the local file's).
    /// Times are compared in whole seconds, SharePoint's precision.
    static func isInStep(_ entry: DownloadLedger.Entry?, remote file: SharePoint.File, local: DownloadLedger.Entry)
        -> Bool
    {
        guard let entry, let sentSize = entry.sentSize, let sentModified = entry.sentModified else { return false }
        return entry.size == file.length && entry.modified == wholeSeconds(file.timeLastModified)
            && sentSize == local.size && sentModified == local.modified
    }

    /// Whether `entry` holds SharePoint's size and time of `file` as spconnect's last upload left them.
    static func isOurs(_ entry: DownloadLedger.Entry?, remote file: SharePoint.File) -> Bool {
        entry?.size == file.length && entry?.modified == wholeSeconds(file.timeLastModified)
    }

    /// Saves the ledger; nil when it is saved, else what to say: a folder that cannot hold it (read-only) takes the
    /// upload all the same, only a later `--delete` will not know these files as spconnect's.
    static func save(_ ledger: inout DownloadLedger) -> String? {
        do {
            try ledger.save(force: true)
            return nil
        } catch {
            return "\(error.description); a later 'upload -r --delete' will leave these files alone"
        }
    }

    static func wholeSeconds(_ date: Date?) -> Int {
        Int((date?.timeIntervalSince1970 ?? 0).rounded(.down))
    }
}

/// `upload -r --delete`: moves to the site's recycle bin each file below `top` (server-relative) that the local
/// `tree` (of the folder `root`) no longer has, when the upload ledger lists it with the size and time it still has in SharePoint (any
/// it lists with `--overwrite`); then each folder below `top` that the local tree no longer has and that holds
/// nothing kept. Each is `deleted` (`would delete` in a dry run, which recycles nothing). A file the ledger does not
/// list is `kept (not uploaded by spconnect)`; one changed in SharePoint since is `refused (changed in SharePoint)`
/// (exit 9). Everything goes to the recycle bin, where the site keeps it for 93 days.
func recycleDropped(
    _ tree: LocalTree, from root: String, below top: String, ledger: inout DownloadLedger, options: TreeOptions,
    site: SharePointSite, results: TreeResults
) async {
    let remote: RemoteTree
    do {
        remote = try await remoteTree(top, parallel: options.parallel, site: site)
    } catch  where error.kind == .fileNotFound || error.kind == .notFound {
        return  // A dry run into a folder that is not made yet: nothing there to delete.
    } catch {
        results.write(TreeResult.failure(error, localPath: root, serverRelativeUrl: top))
        return
    }
    // SharePoint's names ignore case: a local file of the same name in another case is still there.
    let localFiles = Set(tree.files.map { $0.relativePath.lowercased() })
    let localFolders = Set(tree.folders.map { $0.lowercased() })
    var kept: [String] = remote.refused.compactMap { $0.relativePath?.lowercased() }
    for entry in remote.files where !localFiles.contains(entry.relativePath.lowercased()) {
        let url = entry.file.serverRelativeUrl
        let localPath = (root as NSString).appendingPathComponent(entry.relativePath)
        guard let written = ledger.entry(entry.relativePath) else {
            kept.append(entry.relativePath.lowercased())
            results.write(
                TreeResult(
                    localPath: localPath, serverRelativeUrl: url, size: entry.file.length,
                    outcome: .skipped("kept (not uploaded by spconnect)")))
            continue
        }
        let unchanged =
            entry.file.length == written.size
            && UploadLedger.wholeSeconds(entry.file.timeLastModified) == written.modified
        guard unchanged || options.overwrite else {
            kept.append(entry.relativePath.lowercased())
            results.write(
                TreeResult(
                    localPath: localPath, serverRelativeUrl: url, size: entry.file.length,
                    outcome: .failed(
                        "refused (changed in SharePoint)",
                        detail: "is no longer in the local folder, but was changed in SharePoint since spconnect "
                            + "uploaded it; kept (add --overwrite to recycle it too)", cause: .conflict)))
            continue
        }
        if options.dryRun {
            results.write(
                TreeResult(
                    localPath: localPath, serverRelativeUrl: url, size: entry.file.length,
                    outcome: .skipped("would delete")))
            continue
        }
        do {
            _ = try await site.recycleFile(serverRelativeURL: url)
            ledger.forget(entry.relativePath)
            results.write(
                TreeResult(
                    localPath: localPath, serverRelativeUrl: url, size: entry.file.length, outcome: .done("deleted")))
        } catch {
            kept.append(entry.relativePath.lowercased())
            results.write(TreeResult.failure(error, localPath: localPath, serverRelativeUrl: url))
        }
    }
    // Folders: the top-most ones the local tree no longer has, with nothing kept below them.
    var recycled: [String] = []
    for folder in remote.folders where !localFolders.contains(folder.lowercased()) {
        let lower = folder.lowercased()
        guard !recycled.contains(where: { lower.hasPrefix($0 + "/") }),
            !kept.contains(where: { $0.hasPrefix(lower + "/") })
        else { continue }
        let url = top + "/" + folder
        let localPath = (root as NSString).appendingPathComponent(folder)
        recycled.append(lower)
        if options.dryRun {
            results.write(
                TreeResult(localPath: localPath, serverRelativeUrl: url, size: nil, outcome: .skipped("would delete")))
            continue
        }
        do {
            _ = try await site.recycleFolder(serverRelativeURL: url)
            results.write(
                TreeResult(localPath: localPath, serverRelativeUrl: url, size: nil, outcome: .done("deleted")))
        } catch {
            results.write(TreeResult.failure(error, localPath: localPath, serverRelativeUrl: url))
        }
    }
    // What is neither here nor there any more is nobody's to delete.
    if !options.dryRun {
        let onServer = Set(remote.files.map { $0.relativePath.lowercased() })
        for path in ledger.paths where !localFiles.contains(path.lowercased()) && !onServer.contains(path.lowercased())
        {
            ledger.forget(path)
        }
    }
}
