public import Mirror
public import SharePoint

extension SharePointSite {
    /// Runs `body` with the server-relative folder (`container`) or file path a word names (``SiteAddressing``). A
    /// word written relative to the site whose path is not found is tried once more with its first segment read as a
    /// list or library title (`Documents/Reports` → `/Shared Documents/Reports`), when a list has that title.
    public func withPath<T>(
        named word: String, container: Bool, _ body: (String) async throws -> T
    ) async throws -> T {
        try await remoteFolder(named: word, container: container).located(body)
    }

    /// The server-relative path a word names (``SiteAddressing``), with its reading through a list title as the
    /// alternative to try when that path is not found.
    public func remoteFolder(named word: String, container: Bool) throws(SiteAddressError) -> RemoteFolder {
        let reference = try SiteAddressing(siteURL: siteURL).path(word, container: container)
        return RemoteFolder(path: reference.path) { try await self.pathThroughTitle(reference) }
    }
}
