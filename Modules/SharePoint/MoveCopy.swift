extension FilePath {
    /// `…/MoveTo(newurl='…',flags=N)` (POST): the file moved to the server-relative `url` (flags 1: replace a file
    /// already there).
    public func moveTo(_ url: String, overwrite: Bool) -> RESTPath {
        path.appending("MoveTo(newurl=\(OData.serverRelativeURLLiteral(url)),flags=\(overwrite ? 1 : 0))")
    }

    /// `…/CopyTo(strnewurl='…',boverwrite=…)` (POST): a copy of the file at the server-relative `url`.
    public func copyTo(_ url: String, overwrite: Bool) -> RESTPath {
        path.appending("CopyTo(strnewurl=\(OData.serverRelativeURLLiteral(url)),boverwrite=\(overwrite))")
    }
}

extension SharePointSite {
    /// Moves a file within the site: `POST …/GetFileByServerRelativePath(decodedurl='…')/MoveTo(newurl='…',flags=N)`.
    /// `to` is the file's new server-relative URL (the folder it goes in must exist). A file already there is refused
    /// (SPException -2130575257, see ``SharePointError/code``) unless `overwrite`; a missing file →
    /// ``SharePointError/Kind/fileNotFound``. Repeated only when SharePoint answered 429/503 or no connection was
    /// made (a repeat of a move that ran would answer "not found").
    public func moveFile(serverRelativeURL: String, to: String, overwrite: Bool) async throws(SharePointError) {
        let path = API.file(serverRelativePath: serverRelativeURL).moveTo(to, overwrite: overwrite)
        _ = try await perform(
            Exchange.write(self, path.url(site: siteURL), body: .none, contentType: nil, repeatable: true))
    }

    /// Copies a file within the site: `POST …/GetFileByServerRelativePath(decodedurl='…')/CopyTo(strnewurl='…',
    /// boverwrite=…)`, with the refusals of ``moveFile(serverRelativeURL:to:overwrite:)``.
    public func copyFile(serverRelativeURL: String, to: String, overwrite: Bool) async throws(SharePointError) {
        let path = API.file(serverRelativePath: serverRelativeURL).copyTo(to, overwrite: overwrite)
        _ = try await perform(
            Exchange.write(self, path.url(site: siteURL), body: .none, contentType: nil, repeatable: true))
    }
}

extension FolderPath {
    /// `…/MoveTo(newurl='…')` (POST): the folder, with everything in it, moved to the server-relative `url`.
    public func moveTo(_ url: String) -> RESTPath {
        path.appending("MoveTo(newurl=\(OData.serverRelativeURLLiteral(url)))")
    }

    /// `…/CopyTo(strnewurl='…')` (POST): a copy of the folder and everything in it at the server-relative `url`.
    public func copyTo(_ url: String) -> RESTPath {
        path.appending("CopyTo(strnewurl=\(OData.serverRelativeURLLiteral(url)))")
    }
}

extension SharePointSite {
    /// Moves a folder and everything in it within the site:
    /// `POST …/GetFolderByServerRelativePath(decodedurl='…')/MoveTo(newurl='…')`. Anything already at `to` is refused
    /// (SPException -2130575257: ``SharePointError/Kind/alreadyExists``); a missing folder →
    /// ``SharePointError/Kind/fileNotFound`` or ``SharePointError/Kind/notFound``. Repeated as
    /// ``moveFile(serverRelativeURL:to:overwrite:)`` is.
    public func moveFolder(serverRelativeURL: String, to: String) async throws(SharePointError) {
        let path = API.folder(serverRelativePath: serverRelativeURL).moveTo(to)
        _ = try await perform(
            Exchange.write(self, path.url(site: siteURL), body: .none, contentType: nil, repeatable: true))
    }

    /// Copies a folder and everything in it within the site:
    /// `POST …/GetFolderByServerRelativePath(decodedurl='…')/CopyTo(strnewurl='…')`, with the refusals of
    /// ``moveFolder(serverRelativeURL:to:)``.
    public func copyFolder(serverRelativeURL: String, to: String) async throws(SharePointError) {
        let path = API.folder(serverRelativePath: serverRelativeURL).copyTo(to)
        _ = try await perform(
            Exchange.write(self, path.url(site: siteURL), body: .none, contentType: nil, repeatable: true))
    }
}
