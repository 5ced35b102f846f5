import Foundation
import Presentation
import SharePoint

#if canImport(Glibc)
    import Glibc
#endif

/// `download -r FOLDER --to DIR`: mirrors a library folder into `directory` (made when missing), `parallel` files at
/// a time. A file whose local copy has SharePoint's size and modification time is skipped; one written by an
/// earlier run and unchanged since (``DownloadLedger``) is replaced by the newer version; anything else in the way is
/// refused unless `overwrite`. Each file is written to a temporary file, given SharePoint's time, then renamed into
/// place, so a killed run leaves only complete files and a rerun fetches what is missing. Everything below
/// `directory` is reached from its open descriptor one name at a time (``LocalFolder``): a symbolic link inside it
/// is never followed, and a file below one is refused.
func downloadTree(
    _ word: String, to directory: String, parallel: Int, overwrite: Bool, site: SharePointSite, output: Output
) async throws -> ExitCode {
    let tree = try await withPath(word, container: true, site: site) { path in
        try await remoteTree(path, parallel: parallel, site: site)
    }
    do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
        throw UsageError(description: "--to \(directory): cannot make that folder (\(error.localizedDescription))")
    }
    let top: LocalFolder
    do {
        top = try LocalFolder(path: directory)
    } catch {
        throw UsageError(description: "--to \(directory): cannot open that folder (\(error.reason))")
    }
    var ledger = DownloadLedger(folder: top)
    let results = TreeResultWriter(output, command: "download")
    for refusal in tree.refused {
        results.write(
            TreeResult(
                localPath: refusal.relativePath.map { top.path(of: $0) } ?? "", serverRelativeUrl: refusal.url,
                size: nil, outcome: .failed(refusal.result, detail: refusal.detail, code: .failure)))
    }
    // Decide first (cheap, local): what is to be fetched. Folders are made on the way (one open at a time).
    var wanted: [RemoteTreeFile] = []
    var current: (folders: [String], folder: LocalFolder) = ([], top)
    var cleanedFolders: Set<[String]> = []
    for entry in tree.files {
        let destination = top.path(of: entry.relativePath)
        let (folders, name) = entry.placement
        let local: LocalEntry?
        do throws(LocalFileError) {
            if current.folders != folders { current = (folders, try top.folder(at: folders, create: true)) }
            if cleanedFolders.insert(folders).inserted { removeUnfinishedDownloads(in: current.folder) }
            local = try current.folder.entry(name)
        } catch {
            results.write(localFailure(error, entry, destination))
            continue
        }
        if let local {
            guard local.kind == .file else {
                results.write(
                    refused(entry, destination, "is not a regular file (a folder or a link is in the way)"))
                continue
            }
            let facts = DownloadLedger.Entry(local)
            if facts == serverEntry(entry.file) {
                results.write(
                    TreeResult(
                        localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl, size: facts.size,
                        outcome: .skipped("unchanged")))
                continue
            }
            if !overwrite && ledger.entry(entry.relativePath) != facts {
                results.write(
                    refused(
                        entry, destination,
                        "exists with another size or time and was not written by spconnect; not replaced (add "
                            + "--overwrite to replace it)"))
                continue
            }
        }
        wanted.append(entry)
    }
    let transfers = TransferTotals(count: wanted.count)
    let bar = TransferBar(label: "\(wanted.count) files", totals: transfers, enabled: output.progressEnabled)
    let fetch: @Sendable (Int) async -> Result<(Int64, DownloadLedger.Entry?), SharePointError> = { [wanted] index in
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
            return .success((size, (try? folder.entry(name)).map(DownloadLedger.Entry.init)))
        } catch {
            return .failure(error)
        }
    }
    var ledgerError: SharePointLedgerError?
    await forEachConcurrently(wanted.count, parallel: parallel, fetch) { index, outcome in
        let entry = wanted[index]
        let destination = top.path(of: entry.relativePath)
        switch outcome {
        case .success(let (size, written)):
            if let written { ledger.record(entry.relativePath, written) }
            do throws(SharePointLedgerError) { try ledger.save() } catch { ledgerError = error }
            results.write(
                TreeResult(
                    localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl, size: size,
                    outcome: .done("downloaded")))
        case .failure(let error):
            results.write(
                TreeResult.failure(error, localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl))
        }
    }
    bar.finish()
    do throws(SharePointLedgerError) { try ledger.save(force: true) } catch { ledgerError = error }
    if let ledgerError { printError("spconnect download: \(ledgerError.description)") }
    let code = results.finish()
    return code == .ok && ledgerError != nil ? .failure : code
}

extension RemoteTreeFile {
    /// The folders below the tree's top that hold the file, and its name.
    var placement: (folders: [String], name: String) {
        let parts = relativePath.split(separator: "/").map(String.init)
        return (Array(parts.dropLast()), parts.last ?? "")
    }
}

/// SharePoint's size and whole-second modification time of `file`, as a downloaded copy has them.
private func serverEntry(_ file: SharePoint.File) -> DownloadLedger.Entry? {
    guard let modified = file.timeLastModified else { return nil }
    return DownloadLedger.Entry(size: file.length, modified: Int(modified.timeIntervalSince1970.rounded(.down)))
}

/// A file left alone because something that is not spconnect's is at its place.
private func refused(_ entry: RemoteTreeFile, _ destination: String, _ why: String) -> TreeResult {
    TreeResult(
        localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl, size: nil,
        outcome: .failed("refused (exists)", detail: why, code: .conflict))
}

/// A file not written because its place below `--to DIR` cannot be reached: a symbolic link on the way (never
/// followed: `refused (link)`), or a local error such as a name too long for the file system (`failed (local
/// file)`, naming the path and the system's reason).
private func localFailure(_ error: LocalFileError, _ entry: RemoteTreeFile, _ destination: String) -> TreeResult {
    let url = entry.file.serverRelativeUrl
    guard !error.isSymbolicLink else {
        return TreeResult(
            localPath: destination, serverRelativeUrl: url, size: nil,
            outcome: .failed(
                "refused (link)",
                detail: "\(error.path) is a symbolic link; links inside the download folder are never followed, so "
                    + "nothing is written through it", code: .conflict))
    }
    return TreeResult(
        localPath: destination, serverRelativeUrl: url, size: nil,
        outcome: .failed("failed (local file)", detail: error.description, code: .failure))
}

/// Removes what a killed run left in `folder`: download temporary files (`.NAME.UUID.part`, see
/// ``SharePointSite/download(serverRelativeURL:into:as:modified:progress:)``). Nothing else is touched.
private func removeUnfinishedDownloads(in folder: LocalFolder) {
    for name in folder.names() where name.hasPrefix(".") && name.hasSuffix(".part") && name.count > 43 {
        let uuid = name.dropLast(5).suffix(37)
        guard uuid.first == ".", UUID(uuidString: String(uuid.dropFirst())) != nil else { continue }
        folder.removeFile(name)
    }
}
