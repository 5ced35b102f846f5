import Foundation
import Presentation
import SharePoint

#if canImport(Glibc)
    import Glibc
#endif

/// One file of a library folder tree and where it goes below the local folder.
struct RemoteTreeFile: Sendable {
    let file: SharePoint.File
    /// The path below the tree's top, `/`-separated (`Reports/2026/q1.txt`).
    let relativePath: String
}

/// Every file below the folder `top` (server-relative), sorted by path; entries whose name cannot be a local path
/// component (see ``isSafePathComponent(_:)``) are returned in `unsafe` instead. Read a level at a time, up to
/// `parallel` folders at once (a deep library costs its depth in round trips, not its folder count). When `top`
/// is a library's root folder, its `Forms` folder (SharePoint's own view pages, not content) is left out.
func remoteTree(_ top: String, parallel: Int, site: SharePointSite) async throws(SharePointError)
    -> (files: [RemoteTreeFile], unsafe: [String])
{
    var files: [RemoteTreeFile] = []
    var unsafe: [String] = []
    let isLibraryRoot =
        (try? await site.rootFolder(of: .serverRelativeURL(top)))?.serverRelativeUrl.lowercased() == top.lowercased()
    var level: [(url: String, prefix: String)] = [(top, "")]
    while !level.isEmpty {
        let read: @Sendable (Int) async -> Result<([SharePoint.File], [Folder]), SharePointError> = { [level] index in
            do throws(SharePointError) {
                return .success(
                    (
                        try await site.files(inFolder: level[index].url),
                        try await site.folders(inFolder: level[index].url)
                    ))
            } catch {
                return .failure(error)
            }
        }
        var contents = [Result<([SharePoint.File], [Folder]), SharePointError>?](repeating: nil, count: level.count)
        await forEachConcurrently(level.count, parallel: parallel, read) { index, result in contents[index] = result }
        var next: [(url: String, prefix: String)] = []
        for (index, result) in contents.enumerated() {
            let (folderFiles, folders) = try result!.get()
            let prefix = level[index].prefix
            for file in folderFiles {
                if isSafePathComponent(file.name) {
                    files.append(RemoteTreeFile(file: file, relativePath: prefix + file.name))
                } else {
                    unsafe.append(file.serverRelativeUrl)
                }
            }
            for folder in folders where !(isLibraryRoot && prefix.isEmpty && folder.name == "Forms") {
                if isSafePathComponent(folder.name) {
                    next.append((folder.serverRelativeUrl, prefix + folder.name + "/"))
                } else {
                    unsafe.append(folder.serverRelativeUrl)
                }
            }
        }
        level = next
    }
    return (files.sorted { $0.relativePath < $1.relativePath }, unsafe)
}

/// `download -r FOLDER --to DIR`: mirrors a library folder into `directory` (made when missing), `parallel` files at
/// a time. A file whose local copy has SharePoint's size and modification time is skipped; one written by an
/// earlier run and unchanged since (``DownloadLedger``) is replaced by the newer version; anything else in the way is
/// refused unless `overwrite`. Each file is written to a temporary file, given SharePoint's time, then renamed into
/// place, so a killed run leaves only complete files and a rerun fetches what is missing.
func downloadTree(
    _ word: String, to directory: String, parallel: Int, overwrite: Bool, site: SharePointSite, output: Output
) async throws -> ExitCode {
    let (files, unsafe) = try await withPath(word, container: true, site: site) { path in
        try await remoteTree(path, parallel: parallel, site: site)
    }
    do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
        throw UsageError(description: "--to \(directory): cannot make that folder (\(error.localizedDescription))")
    }
    var ledger = DownloadLedger(directory: directory)
    let results = TreeResultWriter(output, command: "download")
    for url in unsafe {
        results.write(
            TreeResult(
                localPath: "", serverRelativeUrl: url, size: nil,
                outcome: .failed(
                    "refused (unsafe name)", detail: "\(url): its name cannot be a local file name; not downloaded",
                    code: .failure)))
    }
    // Decide first (cheap, local): what is to be fetched, and the folders it goes in.
    var wanted: [(file: RemoteTreeFile, destination: String)] = []
    var madeFolders: Set<String> = [directory]
    var cleanedFolders: Set<String> = []
    for entry in files {
        let destination = (directory as NSString).appendingPathComponent(entry.relativePath)
        let server = serverEntry(entry.file)
        if let local = localFileFacts(destination) {
            guard local.isRegular else {
                results.write(
                    refused(entry, destination, "is not a regular file (a folder or a link is in the way)"))
                continue
            }
            if local.entry == server {
                results.write(
                    TreeResult(
                        localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl, size: local.entry.size,
                        outcome: .skipped("unchanged")))
                continue
            }
            if !overwrite && ledger.entry(entry.relativePath) != local.entry {
                results.write(
                    refused(
                        entry, destination,
                        "exists with another size or time and was not written by spconnect; not replaced (add "
                            + "--overwrite to replace it)"))
                continue
            }
        }
        let folder = (destination as NSString).deletingLastPathComponent
        if !cleanedFolders.contains(folder) {
            removeUnfinishedDownloads(in: folder)
            cleanedFolders.insert(folder)
        }
        if !madeFolders.contains(folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                madeFolders.insert(folder)
            } catch {
                results.write(
                    TreeResult.failure(
                        SharePointError(localFile: "cannot make the folder \(folder)", detail: "\(error)"),
                        localPath: destination, serverRelativeUrl: entry.file.serverRelativeUrl))
                continue
            }
        }
        wanted.append((entry, destination))
    }
    let transfers = TransferTotals(count: wanted.count)
    let bar = TransferBar(label: "\(wanted.count) files", totals: transfers, enabled: output.progressEnabled)
    let fetch: @Sendable (Int) async -> Result<Int64, SharePointError> = { [wanted] index in
        let (entry, destination) = wanted[index]
        do throws(SharePointError) {
            return .success(
                try await site.download(
                    serverRelativeURL: entry.file.serverRelativeUrl, to: destination,
                    modified: entry.file.timeLastModified
                ) { progress in transfers.update(index, progress) })
        } catch {
            return .failure(error)
        }
    }
    var ledgerError: SharePointLedgerError?
    await forEachConcurrently(wanted.count, parallel: parallel, fetch) { index, outcome in
        let (entry, destination) = wanted[index]
        switch outcome {
        case .success(let size):
            if let written = localFileFacts(destination)?.entry { ledger.record(entry.relativePath, written) }
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

/// Removes what a killed run left in `folder`: download temporary files (`.NAME.UUID.part`, see
/// ``SharePointSite/download(serverRelativeURL:to:modified:progress:)``). Nothing else is touched.
private func removeUnfinishedDownloads(in folder: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names where name.hasPrefix(".") && name.hasSuffix(".part") && name.count > 43 {
        let uuid = name.dropLast(5).suffix(37)
        guard uuid.first == ".", UUID(uuidString: String(uuid.dropFirst())) != nil else { continue }
        unlink((folder as NSString).appendingPathComponent(name))
    }
}
