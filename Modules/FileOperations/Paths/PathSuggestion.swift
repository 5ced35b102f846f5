import CommandLineKit
public import SharePoint

extension SharePointSite {
    /// Runs `body` for the path `word` names; when it finds nothing there, the message gains the closest name in
    /// the folder the path would be in ("Did you mean 'Documents/Budget 2026.csv'?"), read with one listing of that
    /// folder (nothing is added when the folder itself is missing or nothing is close).
    public func withSuggestion<T>(for word: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch var error as SharePointError where error.isMissingPath {
            guard let reference = try? SiteAddressing(siteURL: siteURL).path(word, container: false),
                let name = reference.path.split(separator: "/").last.map(String.init),
                let names = await siblingNames(of: reference),
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
    private func siblingNames(of reference: SiteAddressing.PathReference) async -> [String]? {
        func names(in folder: String) async -> [String]? {
            // Only the names (and the size a file needs to decode): a big folder's listing stays small.
            guard
                let listedFiles = try? await self.files(
                    inFolder: folder, query: ODataQuery(select: ["Name", "Length"]))
            else { return nil }
            let listedFolders = (try? await self.folders(inFolder: folder, query: ODataQuery(select: ["Name"]))) ?? []
            return listedFiles.map(\.name) + listedFolders.map(\.name)
        }
        if let found = await names(in: parent(of: reference.path)) { return found }
        guard let split = reference.titleAndRest, let root = try? await rootFolder(of: .title(split.title)) else {
            return nil
        }
        return await names(in: parent(of: root.serverRelativeUrl + split.rest))
    }

    /// The server-relative folder holding `path` (`/` for a top-level one).
    private func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
