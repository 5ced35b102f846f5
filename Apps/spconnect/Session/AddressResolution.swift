import Foundation
import Mirror
import SharePoint

/// Runs `body` with the server-relative folder (`container`) or file path a word names (``SiteAddressing``). A word
/// written relative to the site whose path is not found is tried once more with its first segment read as a list
/// or library title (`Documents/Reports` → `/Shared Documents/Reports`), when a list has that title.
func withPath<T>(
    _ word: String, container: Bool, site: SharePointSite, _ body: (String) async throws -> T
) async throws -> T {
    try await remotePath(word, container: container, site: site).located(body)
}

/// The server-relative path a word names (``SiteAddressing``), with its reading through a list title as the
/// alternative to try when that path is not found.
func remotePath(_ word: String, container: Bool, site: SharePointSite) throws -> RemoteFolder {
    let reference = try SiteAddressing(siteURL: site.siteURL).path(word, container: container)
    return RemoteFolder(path: reference.path) { try await site.pathThroughTitle(reference) }
}
