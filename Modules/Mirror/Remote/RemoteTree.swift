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

/// A library folder tree as `download -r` reads it: its files, sorted by path, its folders, and the entries left out.
struct RemoteTree {
    var files: [RemoteTreeFile] = []
    /// Every folder below the top, by its path below it (`Reports/2026`), parents before children.
    var folders: [String] = []
    var refused: [Refusal] = []

    /// An entry of the tree that is not downloaded, and why.
    struct Refusal {
        /// Its server-relative URL.
        let url: String
        /// Where it would go below the tree's top, when it has a usable name.
        let relativePath: String?
        /// The result cell (`refused (loop)`).
        let result: String
        /// The sentence for standard error.
        let detail: String
    }
}

/// Every file below the folder `top` (server-relative), sorted by path. Entries whose name cannot be a local path
/// component (see ``isSafePathComponent(_:)``) are refused, and so is a folder the server lists again below
/// itself (its unique id or URL already read: a hostile or broken server's endless tree) or nested deeper than a
/// local path can be. Read a level at a time, up to `parallel` folders at once (a deep library costs its depth in
/// round trips, not its folder count). When `top` is a library's root folder, its `Forms` folder (SharePoint's
/// own view pages, not content) is left out.
func remoteTree(_ top: String, parallel: Int, site: SharePointSite) async throws(SharePointError) -> RemoteTree {
    var tree = RemoteTree()
    let isLibraryRoot =
        (try? await site.rootFolder(of: .serverRelativeURL(top)))?.serverRelativeUrl.lowercased() == top.lowercased()
    var visited = VisitedFolders(top: top)
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
                if !isSafePathComponent(file.name) {
                    tree.refused.append(.unsafeName(file.serverRelativeUrl))
                } else if let refusal = visited.refusal(file, relativePath: prefix + file.name) {
                    tree.refused.append(refusal)
                } else {
                    tree.files.append(RemoteTreeFile(file: file, relativePath: prefix + file.name))
                }
            }
            for folder in folders where !(isLibraryRoot && prefix.isEmpty && folder.name == "Forms") {
                guard isSafePathComponent(folder.name) else {
                    tree.refused.append(.unsafeName(folder.serverRelativeUrl))
                    continue
                }
                let relative = prefix + folder.name
                if let refusal = visited.refusal(folder, relativePath: relative) {
                    tree.refused.append(refusal)
                    continue
                }
                tree.folders.append(relative)
                next.append((folder.serverRelativeUrl, relative + "/"))
            }
        }
        level = next
    }
    tree.files.sort { $0.relativePath < $1.relativePath }
    return tree
}

/// The folders and files of a tree read so far, by unique id and by server-relative URL (case and a trailing `/`
/// ignored).
private struct VisitedFolders {
    private var byURL: [String: String] = [:]
    private var byId: [String: String] = [:]
    private var fileByURL: [String: String] = [:]
    private var fileById: [String: String] = [:]

    init(top: String) { byURL[Self.key(top)] = top }

    /// Why `folder` (at `relativePath` below the top) is not to be read: it was read already, or it is deeper
    /// than a local path can be; nil (and noted as read) when it is new.
    mutating func refusal(_ folder: Folder, relativePath: String) -> RemoteTree.Refusal? {
        let url = folder.serverRelativeUrl
        let id = folder.uniqueId?.lowercased()
        if let first = byURL[Self.key(url)] ?? id.flatMap({ byId[$0] }) {
            return RemoteTree.Refusal(
                url: url, relativePath: relativePath, result: "refused (loop)",
                detail: "\(url): the server lists this folder again below itself (it is \(first), already read); "
                    + "not read again")
        }
        guard relativePath.utf8.count < Int(PATH_MAX) else {
            return RemoteTree.Refusal(
                url: url, relativePath: nil, result: "refused (too deep)",
                detail: "\(url): nested deeper than a local path can be; not read")
        }
        byURL[Self.key(url)] = url
        if let id { byId[id] = url }
        return nil
    }

    /// Why `file` (at `relativePath`) is not to be fetched: the server listed it already under another folder (a
    /// folder that lists itself under another URL serves the same files again); nil (and noted) when it is new.
    mutating func refusal(_ file: SharePoint.File, relativePath: String) -> RemoteTree.Refusal? {
        let url = file.serverRelativeUrl
        let id = file.uniqueId?.lowercased()
        if let first = fileByURL[Self.key(url)] ?? id.flatMap({ fileById[$0] }) {
            return RemoteTree.Refusal(
                url: url, relativePath: relativePath, result: "refused (loop)",
                detail: "\(url): the server lists this file again under another folder (it is \(first), already "
                    + "listed); fetched once")
        }
        fileByURL[Self.key(url)] = relativePath
        if let id { fileById[id] = relativePath }
        return nil
    }

    private static func key(_ url: String) -> String {
        var key = url.lowercased()
        while key.hasSuffix("/") { key.removeLast() }
        return key
    }
}

extension RemoteTree.Refusal {
    /// An entry whose name cannot be a local file name.
    static func unsafeName(_ url: String) -> RemoteTree.Refusal {
        RemoteTree.Refusal(
            url: url, relativePath: nil, result: "refused (unsafe name)",
            detail: "\(url): its name cannot be a local file name; not downloaded")
    }
}
