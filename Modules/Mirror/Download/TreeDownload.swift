import Cryptography
import Foundation
import LocalFiles
import SharePoint

#if canImport(Glibc)
    import Glibc
#endif

extension TreeTransfer {
    /// Mirrors the library folder `remote` into `directory` (made when missing), ``TreeOptions/parallel`` files at a
    /// time, holding the folder's lock (``treeLockFileName``) for the whole run. What each file needs is decided
    /// first (``planDownloads(_:into:ledger:uploaded:overwrite:dryRun:results:)``): a file whose local copy has SharePoint's
    /// size and modification time is skipped; one written by an earlier run whose content is unchanged since
    /// (``LocalCopy``) is replaced by the newer version; anything else in the way is refused unless
    /// ``TreeOptions/overwrite``. Folders the server has are made, empty ones too. Each file is written to a
    /// temporary file, given SharePoint's time, then renamed into place, so a killed run leaves only complete files
    /// and a rerun fetches what is missing. With ``TreeOptions/delete``, what spconnect wrote and the server no
    /// longer has goes after the downloads. In a dry run the plan is reported and nothing is changed: no folder
    /// made, no file, no ledger, no lock. Everything below `directory` is reached from its open descriptor one name
    /// at a time (``LocalFolder``): a symbolic link inside it is never followed, and a file below one is refused.
    /// With `incremental`, only what changed since its token is read (``IncrementalDownload``).
    ///
    /// - Throws: ``MirrorSetupError`` when `directory` cannot be made, opened or locked; ``SharePointError`` when
    ///   the remote folder cannot be read; ``ChangeTokenFileError`` for an unusable token file.
    public func download(
        _ remote: RemoteFolder, to directory: String, incremental: IncrementalDownload? = nil,
        report: @escaping (TreeEvent) -> Void
    ) async throws -> TreeRunEnd {
        let results = TreeResults(report)
        let top: LocalFolder?
        let lock: FolderLock?
        if options.dryRun {
            top = try openFolder(directory, missingIsNil: true)
            lock = nil
        } else {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw MirrorSetupError(
                    path: directory, problem: "cannot make that folder (\(error.localizedDescription))")
            }
            guard let opened = try openFolder(directory, missingIsNil: false) else {
                throw MirrorSetupError(path: directory, problem: "cannot open that folder")
            }
            do throws(LocalFileError) {
                switch try await takeTreeLock(in: opened, results: results) {
                case .acquired(let taken): lock = taken
                case .held(let holder): return .locked(holder)
                }
            } catch {
                throw MirrorSetupError(path: directory, problem: "cannot lock that folder (\(error.description))")
            }
            top = opened
        }
        defer { withExtendedLifetime(lock) {} }
        let (site, options) = (site, options)
        let (topURL, tree) = try await remote.located { path in
            guard let incremental else {
                return (path, try await remoteTree(path, parallel: options.parallel, site: site))
            }
            return (
                path, try await incremental.tree(below: path, parallel: options.parallel, site: site, results: results)
            )
        }
        var ledger = DownloadLedger(folder: top)
        for refusal in tree.refused {
            results.write(
                TreeResult(
                    localPath: refusal.relativePath.map { top?.path(of: $0) ?? directory + "/" + $0 } ?? "",
                    serverRelativeUrl: refusal.url, size: nil,
                    outcome: .failed(refusal.result, detail: refusal.detail, cause: .other)))
        }
        let plan = await planDownloads(
            tree, into: top, ledger: ledger,
            uploaded: DownloadLedger(folder: top, fileName: DownloadLedger.uploadFileName),
            overwrite: options.overwrite, dryRun: options.dryRun, results: results)
        for (relativePath, entry) in plan.adopted { ledger.record(relativePath, entry) }
        var ledgerError: LedgerSaveError?
        if let top, !options.dryRun {
            makeEmptyFolders(tree, in: top, below: topURL, results: results)
            ledgerError = await fetch(
                plan.fetch, into: top, parallel: options.parallel, site: site, ledger: &ledger, results)
        } else {
            for planned in plan.fetch {
                let entry = planned.entry
                results.write(
                    TreeResult(
                        localPath: top?.path(of: entry.relativePath) ?? directory + "/" + entry.relativePath,
                        serverRelativeUrl: entry.file.serverRelativeUrl, size: entry.file.length,
                        outcome: .skipped(planned.replaces ? "would replace" : "would download")))
            }
        }
        if let incremental, !incremental.isFull, let top {
            await incremental.deleteRemoved(
                below: topURL, from: top, ledger: &ledger, options: options, site: site, results: results)
        } else if options.delete, let top {
            await deleteDropped(tree, below: topURL, from: top, ledger: &ledger, options: options, results: results)
        }
        if !options.dryRun {
            ledger.clearPending()
            do throws(LedgerSaveError) { try ledger.save(force: true) } catch { ledgerError = error }
        }
        var summary = results.summary
        if let ledgerError {
            results.warning(ledgerError.description)
            summary.ledgerNotSaved = true
        }
        if summary.succeeded, !options.dryRun { try incremental?.save() }
        return .finished(summary)
    }
}

/// Downloads `planned` into `top`, `parallel` at a time, recording each whole file (size, time, SHA-256) in the
/// ledger as it lands and writing its result; the last error saving the ledger, if any.
private func fetch(
    _ planned: [PlannedDownload], into top: LocalFolder, parallel: Int, site: SharePointSite,
    ledger: inout DownloadLedger, _ results: TreeResults
) async -> LedgerSaveError? {
    let wanted = planned.map(\.entry)
    // Write-ahead: the versions about to land are in the ledger before the first byte does.
    for entry in wanted {
        guard let modified = entry.file.timeLastModified else { continue }
        ledger.markPending(
            entry.relativePath,
            DownloadLedger.Entry(
                size: entry.file.length, modified: Int(modified.timeIntervalSince1970.rounded(.down)),
                uniqueId: entry.file.uniqueId, etag: entry.file.etag))
    }
    if !wanted.isEmpty {
        do throws(LedgerSaveError) {
            try ledger.save(force: true)
        } catch {
            // Nothing is written that the ledger could not be told about first.
            for entry in wanted {
                results.write(
                    TreeResult(
                        localPath: top.path(of: entry.relativePath), serverRelativeUrl: entry.file.serverRelativeUrl,
                        size: nil, outcome: .failed("failed (local file)", detail: error.description, cause: .other)))
            }
            ledger.clearPending()
            return error
        }
    }
    let transfers = TransferTotals(count: wanted.count)
    results.event(.transfersStarted(transfers))
    let fetch: @Sendable (Int) async -> Result<(Int64, DownloadLedger.Entry?), SharePointError> = { index in
        let entry = wanted[index]
        let (folders, name) = entry.placement
        do throws(SharePointError) {
            let folder: LocalFolder
            do throws(LocalFileError) {
                folder = try top.folder(at: folders, create: true)
            } catch {
                throw SharePointError(error)
            }
            let size = try await site.download(
                serverRelativeURL: entry.file.serverRelativeUrl, into: folder, as: name,
                modified: entry.file.timeLastModified
            ) { progress in transfers.update(index, progress) }
            guard let local = try? folder.entry(name) else { return .success((size, nil)) }
            let written = DownloadLedger.Entry(
                local, sha256: await contentHash(of: name, in: folder), uniqueId: entry.file.uniqueId,
                etag: entry.file.etag)
            return .success((size, written))
        } catch {
            return .failure(error)
        }
    }
    var ledgerError: LedgerSaveError?
    await forEachConcurrently(wanted.count, parallel: parallel, fetch) { index, outcome in
        let entry = wanted[index]
        let destination = top.path(of: entry.relativePath)
        switch outcome {
        case .success(let (size, written)):
            if let written { ledger.record(entry.relativePath, written) }
            do throws(LedgerSaveError) { try ledger.save() } catch { ledgerError = error }
            results.write(
                TreeResult(
                    localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl, size: size,
                    outcome: .done("downloaded")))
        case .failure(let error):
            results.write(
                TreeResult.failure(error, localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl))
        }
    }
    results.event(.transfersEnded)
    return ledgerError
}

/// Makes the folders of `tree` that hold no file (those that do are made on the way to their files), so the
/// mirror has the server's empty folders too; one that cannot be made is a failed result.
private func makeEmptyFolders(_ tree: RemoteTree, in top: LocalFolder, below topURL: String, results: TreeResults) {
    var holding: Set<String> = []
    for file in tree.files {
        var folders = file.placement.folders
        while !folders.isEmpty {
            guard holding.insert(folders.joined(separator: "/")).inserted else { break }
            folders.removeLast()
        }
    }
    for relative in tree.folders where !holding.contains(relative) {
        do throws(LocalFileError) {
            _ = try top.folder(at: relative.components(separatedBy: "/"), create: true)
        } catch {
            results.write(localFailure(error, url: topURL + "/" + relative, destination: top.path(of: relative)))
        }
    }
}

/// The local folder `directory`, opened; nil when it is not there and `missingIsNil`.
private func openFolder(_ directory: String, missingIsNil: Bool) throws(MirrorSetupError) -> LocalFolder? {
    do throws(LocalFileError) {
        return try LocalFolder(path: directory)
    } catch {
        if missingIsNil && error.code == ENOENT { return nil }
        throw MirrorSetupError(path: directory, problem: "cannot open that folder (\(error.reason))")
    }
}
