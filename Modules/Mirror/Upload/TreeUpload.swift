import Foundation
import LocalFiles
import SharePoint

#if canImport(Glibc)
    import Glibc
#endif

/// One local file of a folder tree and where it goes below the remote folder.
struct LocalTreeFile: Sendable {
    /// The file's path on disk.
    let path: String
    /// The path below the tree's top, `/`-separated (`Reports/2026/q1.txt`).
    let relativePath: String
    /// Size and whole-second modification time.
    let facts: DownloadLedger.Entry

    /// The folder it is in, relative to the tree's top (`Reports/2026`; empty at the top).
    var folder: String { (relativePath as NSString).deletingLastPathComponent }
}

/// The server-relative URL of `relative` (a path below the tree's top, `/`-separated; empty for the top itself).
private func remotePath(_ relative: String, below top: String) -> String {
    relative.isEmpty ? top : top + "/" + relative
}

/// What a walk of a local folder found: the folders (relative, parents before children), the regular files, and
/// what it leaves alone (symbolic links and other special files, with the reason).
struct LocalTree {
    var folders: [String] = []
    var files: [LocalTreeFile] = []
    var skipped: [(path: String, why: String)] = []

    /// Walks `top` depth first, each folder's entries by name. Symbolic links are never followed (a link could lead
    /// out of the tree or into a loop); spconnect's own bookkeeping files (the download ledger, the folder's lock
    /// file, unfinished `.part` downloads) are not uploaded.
    static func walk(_ top: String) throws(MirrorSetupError) -> LocalTree {
        var tree = LocalTree()
        var pending: [(path: String, prefix: String)] = [(top, "")]
        while let (folder, prefix) = pending.popLast() {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            } catch {
                if prefix.isEmpty { throw MirrorSetupError(path: top, problem: "cannot read that folder") }
                tree.skipped.append((folder, "cannot be read (\(error.localizedDescription))"))
                continue
            }
            var subfolders: [(String, String)] = []
            for name in names where !isBookkeeping(name) {
                let path = (folder as NSString).appendingPathComponent(name)
                var info = stat()
                guard lstat(path, &info) == 0 else {
                    tree.skipped.append((path, "cannot be read (\(String(cString: strerror(errno))))"))
                    continue
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    tree.folders.append(prefix + name)
                    subfolders.append((path, prefix + name + "/"))
                case S_IFREG:
                    tree.files.append(
                        LocalTreeFile(
                            path: path, relativePath: prefix + name,
                            facts: DownloadLedger.Entry(size: Int64(info.st_size), modified: Int(info.st_mtim.tv_sec))))
                case S_IFLNK:
                    tree.skipped.append((path, "is a symbolic link (never followed)"))
                default:
                    tree.skipped.append((path, "is not a regular file"))
                }
            }
            pending.append(contentsOf: subfolders.reversed())
        }
        return tree
    }

    /// The download and upload ledgers, the lock file and a download's unfinished temporary file (`.NAME.UUID.part`).
    private static func isBookkeeping(_ name: String) -> Bool {
        name == DownloadLedger.fileName || name == DownloadLedger.uploadFileName || name == treeLockFileName
            || (name.hasPrefix(".") && name.hasSuffix(".part"))
    }
}

extension TreeTransfer {
    /// Copies the contents of the local folder `directory` into the library folder `remote` (made when missing, its
    /// parent must exist), making every sub-folder, then uploading ``TreeOptions/parallel`` files at a time (large
    /// files in chunks). A file already in SharePoint with the local size and a modification time no older than the
    /// local one is left as it is (`unchanged`), so a rerun after a failure sends only what is missing; one this
    /// folder's last upload put there and nobody changed since (its upload ledger has SharePoint's size and time) is
    /// replaced by the newer local version; any other file of that name is refused unless ``TreeOptions/overwrite``. The run holds `directory`'s lock
    /// (``treeLockFileName``), so no download changes it meanwhile; a folder where the lock file cannot be made
    /// (read-only) is uploaded without it, and the run says so. In a dry run the plan is reported (`would upload`,
    /// `would replace`, `unchanged`, `refused (…)`) and nothing is written anywhere: no folder, no file, no lock.
    /// Each file uploaded goes into `directory`'s upload ledger (``UploadLedger``), which ``TreeOptions/delete``
    /// uses afterwards to recycle what the folder no longer has.
    ///
    /// - Throws: ``MirrorSetupError`` when `directory` is not a readable folder; ``SharePointError`` when the
    ///   remote folder cannot be read or made.
    public func upload(
        _ directory: String, to remote: RemoteFolder, report: @escaping (TreeEvent) -> Void
    ) async throws -> TreeRunEnd {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw MirrorSetupError(path: directory, problem: "no such local folder (upload -r takes a folder)")
        }
        let results = TreeResults(report)
        var lock: FolderLock?
        if !options.dryRun {
            do throws(LocalFileError) {
                let folder = try LocalFolder(path: directory)
                switch try await takeTreeLock(in: folder, results: results) {
                case .acquired(let taken): lock = taken
                case .held(let holder): return .locked(holder)
                }
            } catch {
                results.note("\(directory) is uploaded without a lock (\(error.description))")
            }
        }
        defer { withExtendedLifetime(lock) {} }
        let tree = try LocalTree.walk(directory)
        var ledger = UploadLedger.open(directory)
        let (site, options) = (site, options)
        let top = try await remote.located { path in
            if options.dryRun {
                try await checkFolder(path, site: site)
            } else {
                try await ensureFolder(path, site: site)
            }
            return path
        }
        return await upload(tree, from: directory, to: top, ledger: &ledger, results: results)
    }

    /// The upload once the folders are known: folders made, files planned, sent, and what the folder no longer has
    /// recycled.
    private func upload(
        _ tree: LocalTree, from directory: String, to top: String, ledger: inout DownloadLedger, results: TreeResults
    ) async -> TreeRunEnd {
        let overwrite = options.overwrite
        for (path, why) in tree.skipped {
            results.write(
                TreeResult(
                    localPath: path, serverRelativeUrl: "", size: nil,
                    outcome: .skipped("skipped (\(why.hasPrefix("is a symbolic") ? "link" : "not a file"))")))
            results.note("\(path) \(why); not uploaded")
        }
        // Folders first, parents before children; a folder that cannot be made fails the files below it.
        var unmade: [String: SharePointError] = [:]
        var existing: [String: [String: SharePoint.File]] = [:]
        // In a dry run, a folder that is not in SharePoint would be made: nothing is there yet, nor below it.
        var absent: Set<String> = []
        for relative in [""] + tree.folders {
            if let parent = unmade.first(where: { $0.key.isEmpty || relative.hasPrefix($0.key + "/") }) {
                unmade[relative] = parent.value
                continue
            }
            if absent.contains(where: { $0.isEmpty || relative.hasPrefix($0 + "/") }) {
                existing[relative] = [:]
                continue
            }
            let url = remotePath(relative, below: top)
            do {
                if !relative.isEmpty && !options.dryRun {
                    let name = (relative as NSString).lastPathComponent
                    let parent = (url as NSString).deletingLastPathComponent
                    _ = try await site.createFolder(named: name, in: parent)
                }
                let files = try await site.files(inFolder: url)
                existing[relative] = Dictionary(files.map { ($0.name.lowercased(), $0) }) { first, _ in first }
            } catch {
                if options.dryRun && (error.kind == .fileNotFound || error.kind == .notFound) {
                    absent.insert(relative)
                    existing[relative] = [:]
                } else {
                    unmade[relative] = error
                }
            }
        }
        var wanted: [LocalTreeFile] = []
        var replacing: Set<String> = []
        for file in tree.files {
            let folder = file.folder
            let name = (file.relativePath as NSString).lastPathComponent
            let remote = remotePath(file.relativePath, below: top)
            if let error = unmade[folder] {
                results.write(TreeResult.failure(error, localPath: file.path, serverRelativeUrl: remote))
                continue
            }
            if let there = existing[folder]?[name.lowercased()] {
                if there.length == file.facts.size, let time = there.timeLastModified,
                    Int(time.timeIntervalSince1970.rounded(.down)) >= file.facts.modified
                {
                    results.write(
                        TreeResult(
                            localPath: file.path, serverRelativeUrl: there.serverRelativeUrl, size: there.length,
                            outcome: .skipped("unchanged")))
                    // Still spconnect's when it was before: SharePoint's facts may have moved on (a rename back); or
                    // sent by a run killed before its ledger was saved (the version it was sending is pending).
                    if ledger.entry(file.relativePath) != nil
                        || ledger.pendingEntry(file.relativePath)?.size == file.facts.size
                    {
                        ledger.record(file.relativePath, UploadLedger.entry(there, sent: file.facts))
                    }
                    continue
                }
                // SharePoint's version is the one spconnect made of this very local file, though its size is
                // another (an Office document SharePoint rewrote): nothing to send, and no new version.
                if UploadLedger.isInStep(ledger.entry(file.relativePath), remote: there, local: file.facts) {
                    results.write(
                        TreeResult(
                            localPath: file.path, serverRelativeUrl: there.serverRelativeUrl, size: there.length,
                            outcome: .skipped("unchanged")))
                    continue
                }
                // SharePoint's copy is still the one this folder's last upload made: the local file is a newer
                // version of it, and replacing it loses nothing.
                let ours = UploadLedger.isOurs(ledger.entry(file.relativePath), remote: there)
                if !overwrite && !ours {
                    results.write(
                        TreeResult(
                            localPath: file.path, serverRelativeUrl: there.serverRelativeUrl, size: nil,
                            outcome: .failed(
                                "refused (exists)",
                                detail: "\(there.serverRelativeUrl) exists with another size or an older time; not "
                                    + "replaced (add --overwrite to replace it)", cause: .conflict)))
                    continue
                }
                replacing.insert(file.relativePath)
            }
            wanted.append(file)
        }
        if options.dryRun {
            for file in wanted {
                results.write(
                    TreeResult(
                        localPath: file.path, serverRelativeUrl: remotePath(file.relativePath, below: top),
                        size: file.facts.size,
                        outcome: .skipped(replacing.contains(file.relativePath) ? "would replace" : "would upload")))
            }
            if options.delete {
                await recycleDropped(
                    tree, from: directory, below: top, ledger: &ledger, options: options, site: site, results: results)
            }
            return .finished(results.summary)
        }
        // Write-ahead, as for downloads: a run killed after a file went up still knows it as its own next time.
        for file in wanted { ledger.markPending(file.relativePath, file.facts) }
        if !wanted.isEmpty, let unsaved = UploadLedger.save(&ledger) { results.note(unsaved) }
        let transfers = TransferTotals(count: wanted.count)
        results.event(.transfersStarted(transfers))
        let send: @Sendable (Int) async -> Result<SharePoint.File, SharePointError> = { [wanted, replacing] index in
            let file = wanted[index]
            do throws(SharePointError) {
                return .success(
                    try await site.upload(
                        file: file.path, toFolder: remotePath(file.folder, below: top),
                        overwrite: overwrite || replacing.contains(file.relativePath)
                    ) { progress in transfers.update(index, progress) })
            } catch {
                return .failure(error)
            }
        }
        await forEachConcurrently(wanted.count, parallel: options.parallel, send) { index, outcome in
            let file = wanted[index]
            switch outcome {
            case .success(let uploaded):
                ledger.record(file.relativePath, UploadLedger.entry(uploaded, sent: file.facts))
                results.write(
                    TreeResult(
                        localPath: file.path, serverRelativeUrl: uploaded.serverRelativeUrl, size: uploaded.length,
                        outcome: .done("uploaded")))
            case .failure(let error):
                results.write(
                    TreeResult.failure(
                        error, localPath: file.path, serverRelativeUrl: remotePath(file.relativePath, below: top)))
            }
        }
        results.event(.transfersEnded)
        if options.delete {
            await recycleDropped(
                tree, from: directory, below: top, ledger: &ledger, options: options, site: site, results: results)
        }
        ledger.clearPending()
        if let unsaved = UploadLedger.save(&ledger) { results.note(unsaved) }
        return .finished(results.summary)
    }
}

/// For a dry run, what ``ensureFolder(_:site:)`` would find, making nothing: the folder at `path` is there, or its
/// parent is (it would be made); else the not-found error.
private func checkFolder(_ path: String, site: SharePointSite) async throws(SharePointError) {
    do {
        _ = try await site.folders(inFolder: path)
    } catch let error where error.kind == .fileNotFound || error.kind == .notFound {
        let parent = (path as NSString).deletingLastPathComponent
        guard !(path as NSString).lastPathComponent.isEmpty, parent != path else { throw error }
        _ = try await site.folders(inFolder: parent)
    }
}

/// Makes sure the folder at `path` exists: read it, and when it is missing make it in its parent (which must
/// exist, as for `mkdir`).
private func ensureFolder(_ path: String, site: SharePointSite) async throws(SharePointError) {
    do {
        _ = try await site.folders(inFolder: path)
    } catch let error where error.kind == .fileNotFound || error.kind == .notFound {
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard !name.isEmpty, parent != path else { throw error }
        _ = try await site.createFolder(named: name, in: parent)
    }
}
