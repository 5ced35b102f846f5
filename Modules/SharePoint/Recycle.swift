public import Foundation

extension SharePointSite {
    /// Moves a file to the site's recycle bin: `POST …/GetFileByServerRelativeUrl('…')/recycle()`. Returns the id of
    /// the recycle bin entry (`{"value":"<guid>"}`; verbose `{"d":{"Recycle":"<guid>"}}`), or nil when the server
    /// sent none. A missing file → ``SharePointError/Kind/fileNotFound``. Sent again (the write retry policy) only
    /// when SharePoint answered 429/503 or no connection was made: Transport never repeats a request that may have
    /// run, which matters here, since a second `recycle()` after a first that ran answers "not found".
    @discardableResult
    public func recycleFile(serverRelativeURL: String) async throws(SharePointError) -> UUID? {
        try await recycle(API.file(serverRelativeUrl: serverRelativeURL).recycle)
    }

    /// Moves a folder and everything below it to the site's recycle bin:
    /// `POST …/GetFolderByServerRelativeUrl('…')/recycle()` (see ``recycleFile(serverRelativeURL:)``).
    @discardableResult
    public func recycleFolder(serverRelativeURL: String) async throws(SharePointError) -> UUID? {
        try await recycle(API.folder(serverRelativeUrl: serverRelativeURL).recycle)
    }

    private func recycle(_ path: RESTPath) async throws(SharePointError) -> UUID? {
        let url = path.url(site: siteURL)
        let response = try await perform(Exchange.write(self, url, body: .none, contentType: nil, repeatable: true))
        guard !response.body.isEmpty, let value = try? ODataDocument(data: Data(response.body)).scalar() else {
            return nil
        }
        return value.stringValue.flatMap { UUID(uuidString: $0) }
    }
}
