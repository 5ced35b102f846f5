import Foundation

/// Resolving the words of ``SiteAddressing`` against the site: the alternatives a word allows, tried in turn.
extension SharePointSite {
    /// Runs `body` with the list a LIST word names (``SiteAddressing``): a GUID is an id; a bare word is a title and,
    /// when no list has that title, the list at the site-relative address of that name (`Shared Documents`); a path or
    /// browser address is the list at that address. `body` runs a second time only after the first try found no list,
    /// so nothing was read or changed by it. A missing list is ``SharePointError/Kind/listNotFound`` whichever
    /// way it was named.
    public func withList<T>(named word: String, _ body: (ListPath) async throws -> T) async throws -> T {
        switch try SiteAddressing(siteURL: siteURL).list(word) {
        case .id(let id):
            return try await body(.id(id))
        case .title(let title, let fallback):
            do {
                return try await body(.title(title))
            } catch let error as SharePointError where error.kind == .listNotFound {
                let byAddress = ListPath.serverRelativeURL(fallback)
                do {
                    return try await body(byAddress)
                } catch let second as SharePointError where isMissingList(second, byAddress) {
                    var missing = error
                    missing.message =
                        (error.message.map { $0 + " " } ?? "") + "No list has the address \(fallback) either."
                    throw missing
                }
            }
        case .address(let address):
            let path = ListPath.serverRelativeURL(address)
            do {
                return try await body(path)
            } catch let error as SharePointError where isMissingList(error, path) {
                var missing = error
                missing.kind = .listNotFound
                missing.message = "No list or library has the address \(address)."
                throw missing
            }
        }
    }

    /// Whether `error` says that `list` itself does not exist (not an item, file or folder in it).
    private func isMissingList(_ error: SharePointError, _ list: ListPath) -> Bool {
        switch error.kind {
        case .listNotFound: return true
        case .fileNotFound, .notFound:
            // `GetList('…')` of a path that is no list's answers "File Not Found." on the list's own URL.
            guard let url = error.url, let range = url.range(of: list.path.rawValue) else { return false }
            let after = url[range.upperBound...]
            return after.isEmpty || after.hasPrefix("?") || after.hasPrefix("/items") || after.hasPrefix("/fields")
                || after.hasPrefix("/RootFolder") || after.hasPrefix("/contenttypes")
                || after.hasPrefix("/roleassignments")
        default: return false
        }
    }

    /// The path `reference` names when its first segment is read as a list title (`Documents/Reports` →
    /// `/Shared Documents/Reports`), or nil when it was not written relative to the site or no list has that title.
    public func pathThroughTitle(_ reference: SiteAddressing.PathReference) async throws(SharePointError) -> String? {
        guard let split = reference.titleAndRest else { return nil }
        let root: Folder
        do {
            root = try await rootFolder(of: .title(split.title))
        } catch  where error.kind == .listNotFound || error.kind == .notFound {
            return nil
        }
        var base = root.serverRelativeUrl
        while base.hasSuffix("/") { base.removeLast() }
        return base + split.rest
    }

    /// Whether the folder at the server-relative `url` is the root folder of a list (a list's permissions are its
    /// own, not its root folder's; a move or copy never takes a whole library).
    public func isListRootFolder(_ url: String) async throws(SharePointError) -> Bool {
        do {
            let root = try await rootFolder(of: .serverRelativeURL(url))
            return root.serverRelativeUrl.lowercased() == url.lowercased()
        } catch  where [.fileNotFound, .notFound, .listNotFound].contains(error.kind) {
            return false
        }
    }
}
