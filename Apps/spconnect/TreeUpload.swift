import Foundation
import Presentation
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
    /// out of the tree or into a loop); spconnect's own bookkeeping files (the download ledger, unfinished `.part`
    /// downloads) are not uploaded.
    static func walk(_ top: String) throws(UsageError) -> LocalTree {
        var tree = LocalTree()
        var pending: [(path: String, prefix: String)] = [(top, "")]
        while let (folder, prefix) = pending.popLast() {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            } catch {
                if prefix.isEmpty { throw UsageError(description: "cannot read the local folder \(top)") }
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

    /// The download ledger and a download's unfinished temporary file (`.NAME.UUID.part`).
    private static func isBookkeeping(_ name: String) -> Bool {
        name == DownloadLedger.fileName || (name.hasPrefix(".") && name.hasSuffix(".part"))
    }
}

/// `upload -r DIR --to FOLDER`: copies the contents of the local folder `directory` into the library folder `word`
/// (made when missing, its parent must exist), making every sub-folder, then uploading `parallel` files at a time
/// (large files in chunks). A file already in SharePoint with the local size and a modification time no older
/// than the local one is left as it is (`unchanged`), so a rerun after a failure sends only what is missing; any
/// other file of that name is refused unless `overwrite`.
func uploadTree(
    _ directory: String, to word: String, parallel: Int, overwrite: Bool, site: SharePointSite, output: Output
) async throws -> ExitCode {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw UsageError(description: "\(directory): no such local folder (upload -r takes a folder)")
    }
    let tree = try LocalTree.walk(directory)
    let top = try await withPath(word, container: true, site: site) { path in
        try await ensureFolder(path, site: site)
        return path
    }
    let results = TreeResultWriter(output, command: "upload")
    for (path, why) in tree.skipped {
        results.write(
            TreeResult(
                localPath: path, serverRelativeUrl: "", size: nil,
                outcome: .skipped("skipped (\(why.hasPrefix("is a symbolic") ? "link" : "not a file"))")))
        output.note("spconnect upload: \(path) \(why); not uploaded")
    }
    // Folders first, parents before children; a folder that cannot be made fails the files below it.
    var unmade: [String: SharePointError] = [:]
    var existing: [String: [String: SharePoint.File]] = [:]
    for relative in [""] + tree.folders {
        if let parent = unmade.first(where: { $0.key.isEmpty || relative.hasPrefix($0.key + "/") }) {
            unmade[relative] = parent.value
            continue
        }
        let url = remotePath(relative, below: top)
        do {
            if !relative.isEmpty {
                let name = (relative as NSString).lastPathComponent
                let parent = (url as NSString).deletingLastPathComponent
                _ = try await site.createFolder(named: name, in: parent)
            }
            let files = try await site.files(inFolder: url)
            existing[relative] = Dictionary(files.map { ($0.name.lowercased(), $0) }) { first, _ in first }
        } catch {
            unmade[relative] = error
        }
    }
    var wanted: [LocalTreeFile] = []
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
                continue
            }
            if !overwrite {
                results.write(
                    TreeResult(
                        localPath: file.path, serverRelativeUrl: there.serverRelativeUrl, size: nil,
                        outcome: .failed(
                            "refused (exists)",
                            detail: "\(there.serverRelativeUrl) exists with another size or an older time; not "
                                + "replaced (add --overwrite to replace it)", code: .conflict)))
                continue
            }
        }
        wanted.append(file)
    }
    let transfers = TransferTotals(count: wanted.count)
    let bar = TransferBar(label: "\(wanted.count) files", totals: transfers, enabled: output.progressEnabled)
    let send: @Sendable (Int) async -> Result<SharePoint.File, SharePointError> = { [wanted] index in
        let file = wanted[index]
        do throws(SharePointError) {
            return .success(
                try await site.upload(
                    file: file.path, toFolder: remotePath(file.folder, below: top), overwrite: overwrite
                ) { progress in transfers.update(index, progress) })
        } catch {
            return .failure(error)
        }
    }
    await forEachConcurrently(wanted.count, parallel: parallel, send) { index, outcome in
        let file = wanted[index]
        switch outcome {
        case .success(let uploaded):
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
    bar.finish()
    return results.finish()
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
