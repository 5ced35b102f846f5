public import SharePoint

/// A file or a folder a PATH word names (``SharePoint/SiteAddressing``), read from the site.
public enum RemoteEntry: Sendable {
    case file(SharePoint.File)
    case folder(Folder)

    /// The server-relative URL.
    public var serverRelativeUrl: String {
        switch self {
        case .file(let file): file.serverRelativeUrl
        case .folder(let folder): folder.serverRelativeUrl
        }
    }

    /// `file` or `folder`.
    public var kind: String {
        switch self {
        case .file: "file"
        case .folder: "folder"
        }
    }

    /// The file or folder `word` names: a file first, else a folder (one more request), with the addressing rules
    /// of ``SharePoint/SharePointSite/withPath(named:container:_:)``. Nothing at any reading: the file's "not found"
    /// with the closest name in the folder it would be in (``SharePoint/SharePointSite/withSuggestion(for:_:)``).
    public static func read(_ word: String, site: SharePointSite) async throws -> RemoteEntry {
        try await site.withSuggestion(for: word) {
            try await site.withPath(named: word, container: false) { path in
                do {
                    return .file(try await site.file(serverRelativeURL: path))
                } catch let missing as SharePointError where missing.isMissingPath {
                    do {
                        return .folder(try await site.folder(serverRelativeURL: path))
                    } catch let folderMissing as SharePointError where folderMissing.isMissingPath {
                        throw missing
                    }
                }
            }
        }
    }
}

extension SharePointError {
    /// Whether the error says that nothing is at the path asked for.
    public var isMissingPath: Bool { kind == .fileNotFound || kind == .notFound }
}
