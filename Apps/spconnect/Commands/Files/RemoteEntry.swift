import CommandLineKit
import Foundation
import SharePoint

/// A file or a folder a PATH word names (``SiteAddressing``), read from the site.
enum RemoteEntry {
    case file(SharePoint.File)
    case folder(Folder)

    /// The server-relative URL.
    var serverRelativeUrl: String {
        switch self {
        case .file(let file): file.serverRelativeUrl
        case .folder(let folder): folder.serverRelativeUrl
        }
    }

    /// `file` or `folder`.
    var kind: String {
        switch self {
        case .file: "file"
        case .folder: "folder"
        }
    }

    /// The file or folder `word` names: a file first, else a folder (one more request), with the addressing
    /// rules of ``withPath(_:container:site:_:)``. Nothing at any reading: the file's "not found" with the closest
    /// name in the folder it would be in (``withSuggestion(_:for:site:)``).
    static func read(_ word: String, site: SharePointSite) async throws -> RemoteEntry {
        try await withSuggestion(word, site: site) {
            try await withPath(word, container: false, site: site) { path in
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
    var isMissingPath: Bool { kind == .fileNotFound || kind == .notFound }
}

/// Runs `body` for the path `word` names; when it finds nothing there (exit 8), the message gains the closest name in
/// the folder the path would be in ("Did you mean 'Documents/Budget 2026.csv'?"), read with one listing of that
/// folder (nothing is added when the folder itself is missing or nothing is close).
func withSuggestion<T>(_ word: String, site: SharePointSite, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch var error as SharePointError where error.isMissingPath {
        guard let reference = try? SiteAddressing(siteURL: site.siteURL).path(word, container: false),
            let name = reference.path.split(separator: "/").last.map(String.init),
            let names = await siblingNames(of: reference, site: site),
            let match = Suggestions.closest(to: name, in: names)
        else { throw error }
        let typed = word.hasSuffix(name) ? String(word.dropLast(name.count)) : ""
        error.message = (error.message.map { $0 + " " } ?? "") + "Did you mean '\(typed)\(match)'?"
        throw error
    }
}

/// The names of the files and folders beside the path `reference` names: in the folder above it, or, when that
/// folder does not exist and the word began with a library title, in that library's folder. Nil when neither is
/// there.
private func siblingNames(of reference: SiteAddressing.PathReference, site: SharePointSite) async -> [String]? {
    func names(in folder: String) async -> [String]? {
        // Only the names (and the size a file needs to decode): a big folder's listing stays small.
        guard let files = try? await site.files(inFolder: folder, query: ODataQuery(select: ["Name", "Length"]))
        else { return nil }
        let folders = (try? await site.folders(inFolder: folder, query: ODataQuery(select: ["Name"]))) ?? []
        return files.map(\.name) + folders.map(\.name)
    }
    if let found = await names(in: parent(of: reference.path)) { return found }
    guard let split = reference.titleAndRest, let root = try? await site.rootFolder(of: .title(split.title)) else {
        return nil
    }
    return await names(in: parent(of: root.serverRelativeUrl + split.rest))
}

/// The server-relative folder holding `path` (`/` for a top-level one).
private func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
}
