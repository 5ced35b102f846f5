public import Foundation
import LocalFiles
public import SharePoint

/// `download -r FOLDER --to DIR --incremental FILE`: the library's change log instead of a listing of the whole
/// tree. Without a token in FILE (or with one older than the change log keeps) the run is a full one
/// (``remoteTree(_:parallel:site:)``); with one, only the files added or changed below FOLDER since are read (one
/// request each; a folder renamed or moved in, with what is below it) and planned as a full run plans them, and the
/// files and folders deleted, renamed or moved away since (a renamed file known by its unique id in the ledger) are
/// reported, or with `--delete` removed when spconnect wrote them and they are unchanged
/// (``deleteRemoved(below:from:ledger:options:results:)``). FILE gets the library's new token only when the whole run
/// succeeded (``save()``).
public final class IncrementalDownload {
    /// The file that keeps the token between runs.
    public let file: ChangeTokenFile
    /// Whether this run reads the whole tree (no token yet, or one too old).
    private(set) var isFull = true
    /// The token to save after success: the library's current one read before anything else, or the last change's.
    private var nextToken: String?
    /// Paths below FOLDER the server removed since the token: files, and folders (with what was below them).
    private var removedFiles: Set<String> = []
    private var removedFolders: Set<String> = []
    /// Where each file of this run's tree is now, by its unique id (lowercased): a file the ledger lists at another
    /// path was renamed or moved there, so its old copy is one the server no longer has.
    private var arrivedAt: [String: String] = [:]

    /// An incremental run that keeps its token in the file at `path` (named `--incremental` in messages).
    public init(path: String) { file = ChangeTokenFile(path: path, option: "incremental") }

    /// The tree a run plans: every file below `topURL`, or only the files added or changed there since the token.
    func tree(below topURL: String, parallel: Int, site: SharePointSite, results: TreeResults) async throws
        -> RemoteTree
    {
        let saved = try file.read()
        let library = try await Self.library(holding: topURL, site: site)
        let current = try await site.currentChangeToken(of: library)
        nextToken = current
        guard let saved else {
            results.note("no token in \(file.path) yet; reading the whole tree")
            return try await remoteTree(topURL, parallel: parallel, site: site)
        }
        if let id = ChangeTokenFile.scopeID(of: current) { try file.check(saved, isFor: id, what: "the library") }
        guard let found = try await changesUnlessTooOld(site, library, since: saved) else {
            results.warning(
                "the token in \(file.path) is older than the library's change log keeps; "
                    + "reading the whole tree (a full run) and saving a new token")
            return try await remoteTree(topURL, parallel: parallel, site: site)
        }
        isFull = false
        nextToken = found.token ?? saved
        var last: [String: (relativePath: String, change: Change)] = [:]
        for change in found.changes {
            guard let url = change.serverRelativeURL, let relative = Self.relative(url, below: topURL) else { continue }
            last[url.lowercased()] = (relative, change)
        }
        var tree = RemoteTree()
        for (relative, change) in last.values.sorted(by: { $0.relativePath < $1.relativePath }) {
            let parts = relative.split(separator: "/").map(String.init)
            guard parts.allSatisfy(isSafePathComponent) else {
                tree.refused.append(
                    RemoteTree.Refusal(
                        url: change.serverRelativeURL ?? relative, relativePath: nil, result: "refused (name)",
                        detail: "\(change.serverRelativeURL ?? relative) has a name that cannot be a local path"))
                continue
            }
            if change.removes {
                if change.isFolder { removedFolders.insert(relative) } else { removedFiles.insert(relative) }
            } else if change.isFolder {
                tree.folders.append(relative)
                // A folder renamed or moved here brought what is below it, which SharePoint need not log one by one.
                if change.arrives, let url = change.serverRelativeURL {
                    let below = try await remoteTree(url, parallel: parallel, site: site)
                    tree.folders += below.folders.map { relative + "/" + $0 }
                    tree.files += below.files.map {
                        RemoteTreeFile(file: $0.file, relativePath: relative + "/" + $0.relativePath)
                    }
                    tree.refused += below.refused
                }
            } else if let url = change.serverRelativeURL {
                do {
                    tree.files.append(
                        RemoteTreeFile(file: try await site.file(serverRelativeURL: url), relativePath: relative))
                } catch {
                    // Deleted after the changes were read.
                    guard error.kind == .fileNotFound || error.kind == .notFound else { throw error }
                    removedFiles.insert(relative)
                }
            }
        }
        var seen: Set<String> = []
        tree.files = tree.files.filter { seen.insert($0.relativePath).inserted }.sorted {
            $0.relativePath < $1.relativePath
        }
        tree.folders = Array(Set(tree.folders)).sorted()
        for entry in tree.files {
            if let id = entry.file.uniqueId?.lowercased() { arrivedAt[id] = entry.relativePath }
        }
        results.note(
            "\(tree.files.count) files added or changed, "
                + "\(removedFiles.count + removedFolders.count) deleted since the token in \(file.path)")
        return tree
    }

    /// The files and folders removed on the server since the token: each spconnect wrote (the ledger lists it) and
    /// that is unchanged since (any, with `--overwrite`) is deleted with `--delete` (`would delete` in a dry run);
    /// without `--delete` each is reported, `deleted on the server (kept; --delete removes it)`. A file modified
    /// locally is kept, `refused (modified locally)`; one spconnect did not write is never touched.
    func deleteRemoved(
        below topURL: String, from top: LocalFolder, ledger: inout DownloadLedger, options: TreeOptions,
        site: SharePointSite, results: TreeResults
    ) async {
        let gone = ledger.paths.filter { path in
            removedFiles.contains(path) || removedFolders.contains { path.hasPrefix($0 + "/") }
                || ledger.entry(path)?.uniqueId.flatMap { arrivedAt[$0.lowercased()] }.map { $0 != path } == true
        }
        var removed: Set<String> = []
        var emptied: Set<String> = removedFolders
        for path in gone.sorted() {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let (folders, name) = (Array(parts.dropLast()), parts[parts.count - 1])
            let (url, destination) = (topURL + "/" + path, top.path(of: path))
            guard let folder = try? existingFolder(folders, below: top), let local = try? folder.entry(name),
                local.kind == .file
            else {
                if !options.dryRun { ledger.forget(path) }
                continue
            }
            guard options.delete else {
                results.write(
                    TreeResult(
                        localPath: destination, serverRelativeUrl: url, size: local.size,
                        outcome: .skipped("deleted on the server (kept; --delete removes it)")))
                continue
            }
            guard
                await deleteWrittenFile(
                    name, in: folder, local: local, path: path, url: url, destination: destination,
                    ledger: &ledger, options: options, results: results)
            else { continue }
            removed.insert(path)
            for depth in stride(from: folders.count, to: 0, by: -1) {
                emptied.insert(folders.prefix(depth).joined(separator: "/"))
            }
        }
        guard options.delete else { return }
        // Folders the server removed, or left empty here by the deletions and no longer on the server either,
        // deepest first, when nothing else is left in them.
        let deepestFirst = emptied.sorted {
            let (left, right) = ($0.split(separator: "/").count, $1.split(separator: "/").count)
            return left != right ? left > right : $0 < $1
        }
        for relative in deepestFirst {
            let parts = relative.components(separatedBy: "/")
            guard let parent = try? existingFolder(Array(parts.dropLast()), below: top),
                let folder = try? parent.folder(parts[parts.count - 1], create: false),
                folder.names().allSatisfy({ removed.contains(relative + "/" + $0) })
            else { continue }
            if !removedFolders.contains(relative) {
                guard await Self.isGone(topURL + "/" + relative, site: site) else { continue }
            }
            removed.insert(relative)
            if !options.dryRun {
                guard parent.removeEmptyFolder(parts[parts.count - 1]) else { continue }
            }
            results.write(
                TreeResult(
                    localPath: top.path(of: relative), serverRelativeUrl: topURL + "/" + relative, size: nil,
                    outcome: options.dryRun ? .skipped("would delete") : .done("deleted")))
        }
    }

    /// Whether the server says it has no folder at `url` (any other answer keeps the local folder).
    private static func isGone(_ url: String, site: SharePointSite) async -> Bool {
        do {
            _ = try await site.folder(serverRelativeURL: url)
            return false
        } catch {
            return error.kind == .fileNotFound || error.kind == .notFound
        }
    }

    /// Writes the token to go on from (after a run that succeeded, not in a dry run).
    func save() throws(SharePointError) {
        if let nextToken { try file.write(nextToken) }
    }

    /// The library whose root folder holds `url`: the list at `url`, else at each folder above it.
    static func library(holding url: String, site: SharePointSite) async throws(SharePointError) -> ListPath {
        var candidate = url
        while true {
            do {
                let info = try await site.list(.serverRelativeURL(candidate))
                return UUID(uuidString: info.id).map(ListPath.id) ?? .serverRelativeURL(candidate)
            } catch {
                guard [.fileNotFound, .notFound, .listNotFound].contains(error.kind),
                    let slash = candidate.lastIndex(of: "/"), slash != candidate.startIndex
                else { throw error }
                candidate = String(candidate[..<slash])
            }
        }
    }

    /// `url`'s path below `top` (`Reports/q1.txt`), or nil when it is not below it.
    static func relative(_ url: String, below top: String) -> String? {
        let prefix = top.hasSuffix("/") ? top : top + "/"
        guard url.lowercased().hasPrefix(prefix.lowercased()), url.count > prefix.count else { return nil }
        return String(url.dropFirst(prefix.count))
    }
}
