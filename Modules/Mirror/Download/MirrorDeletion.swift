import Foundation
import LocalFiles
import SharePoint

#if canImport(Glibc)
    import Glibc
#endif

/// `download -r --delete`: removes from `top` each file the ledger lists that `tree` (the server's tree below
/// `topURL`) no longer has, when its content is still what spconnect wrote (``LocalCopy``; any content with
/// `--overwrite`), then each folder left empty by that which the server no longer has either. Each is a `deleted`
/// result (`would delete` in a dry run, which removes nothing); a file modified locally since is kept,
/// `refused (modified locally)`. Never a file the ledger does not list (spconnect did not write it), never below a
/// folder of the tree that was not read (a refused one), never through a link. The ledger forgets what went and
/// what is gone already.
func deleteDropped(
    _ tree: RemoteTree, below topURL: String, from top: LocalFolder, ledger: inout DownloadLedger,
    options: TreeOptions, results: TreeResults
) async {
    let onServer = Set(tree.files.map(\.relativePath))
    let unread = tree.refused.compactMap(\.relativePath)
    var removed: Set<String> = []
    var emptied: Set<String> = []
    for path in ledger.paths.sorted() where !onServer.contains(path) {
        guard !unread.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { continue }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy(isSafePathComponent) else {
            if !options.dryRun { ledger.forget(path) }
            continue
        }
        let (folders, name) = (Array(parts.dropLast()), parts[parts.count - 1])
        let url = topURL + "/" + path
        let destination = top.path(of: path)
        let folder: LocalFolder?
        let local: LocalEntry?
        do throws(LocalFileError) {
            folder = try existingFolder(folders, below: top)
            local = try folder?.entry(name)
        } catch {
            results.write(localFailure(error, url: url, destination: destination))
            continue
        }
        // Nothing there, or not a file: nothing of spconnect's to delete.
        guard let folder, let local, local.kind == .file else {
            if !options.dryRun { ledger.forget(path) }
            continue
        }
        guard
            await deleteWrittenFile(
                name, in: folder, local: local, path: path, url: url, destination: destination, ledger: &ledger,
                options: options, results: results)
        else { continue }
        removed.insert(path)
        emptied.insert(folders.joined(separator: "/"))
    }
    removeEmptiedFolders(
        emptied, kept: Set(tree.folders), removed: &removed, below: topURL, from: top, dryRun: options.dryRun,
        results: results)
}

/// Removes (or, in a dry run, would remove) each folder of `emptied` and above that has nothing left in it (what
/// is in `removed` counts as gone) and is not one of the server's folders (`kept`), deepest first; never the top.
private func removeEmptiedFolders(
    _ emptied: Set<String>, kept: Set<String>, removed: inout Set<String>, below topURL: String,
    from top: LocalFolder, dryRun: Bool, results: TreeResults
) {
    var candidates: Set<String> = []
    for folder in emptied where !folder.isEmpty {
        var parts = folder.components(separatedBy: "/")
        while !parts.isEmpty {
            candidates.insert(parts.joined(separator: "/"))
            parts.removeLast()
        }
    }
    let deepestFirst = candidates.sorted {
        let (left, right) = ($0.split(separator: "/").count, $1.split(separator: "/").count)
        return left != right ? left > right : $0 < $1
    }
    for relative in deepestFirst where !kept.contains(relative) {
        let parts = relative.components(separatedBy: "/")
        guard let parent = try? existingFolder(Array(parts.dropLast()), below: top),
            let folder = try? parent.folder(parts[parts.count - 1], create: false),
            folder.names().allSatisfy({ removed.contains(relative + "/" + $0) })
        else { continue }
        if !dryRun {
            guard parent.removeEmptyFolder(parts[parts.count - 1]) else { continue }
        }
        removed.insert(relative)
        results.write(
            TreeResult(
                localPath: top.path(of: relative), serverRelativeUrl: topURL + "/" + relative, size: nil,
                outcome: dryRun ? .skipped("would delete") : .done("deleted")))
    }
}

/// A file `--delete` could not remove, with the system's reason.
/// Deletes the local file `name` in `folder` (`path` below the mirror's top, `url` on the server, `destination` on
/// disk) that the server no longer has, when it is still what spconnect wrote (``LocalCopy``; any content with
/// `--overwrite`), and forgets it in the ledger; in a dry run removes nothing. Writes its result: `deleted` (`would
/// delete`), `refused (modified locally)`, or the local failure. True when it went (or would go).
func deleteWrittenFile(
    _ name: String, in folder: LocalFolder, local: LocalEntry, path: String, url: String, destination: String,
    ledger: inout DownloadLedger, options: TreeOptions, results: TreeResults
) async -> Bool {
    if !options.overwrite,
        await LocalCopy.judge(
            name, in: folder, local: local, written: ledger.entry(path), pending: ledger.pendingEntry(path))
            != .written
    {
        results.write(
            TreeResult(
                localPath: destination, serverRelativeUrl: url, size: local.size,
                outcome: .failed(
                    "refused (modified locally)",
                    detail: "is no longer in SharePoint, but was modified locally since spconnect wrote it; kept "
                        + "(add --overwrite to delete it too)", cause: .conflict)))
        return false
    }
    if !options.dryRun {
        guard folder.removeFile(name) else {
            results.write(deleteFailure(destination, url, size: local.size))
            return false
        }
        ledger.forget(path)
    }
    results.write(
        TreeResult(
            localPath: destination, serverRelativeUrl: url, size: local.size,
            outcome: options.dryRun ? .skipped("would delete") : .done("deleted")))
    return true
}

private func deleteFailure(_ destination: String, _ url: String, size: Int64) -> TreeResult {
    let reason = String(cString: strerror(errno))
    return TreeResult(
        localPath: destination, serverRelativeUrl: url, size: size,
        outcome: .failed(
            "failed (local file)", detail: "could not delete \(destination): \(reason)", cause: .other))
}
