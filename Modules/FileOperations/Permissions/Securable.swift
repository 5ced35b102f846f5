public import SharePoint

/// What a `permissions` word names, and its permissions: the site, a list, a file or a folder (an item is
/// ``init(kind:name:permissions:)`` from its list and id).
public struct Securable: Sendable {
    /// `site`, `list`, `item`, `file` or `folder`.
    public var kind: String
    /// How to name it to the user (the list's word, the path, the site's address).
    public var name: String
    public var permissions: Permissions

    public init(kind: String, name: String, permissions: Permissions) {
        self.kind = kind
        self.name = name
        self.permissions = permissions
    }

    /// Whether it inherits its permissions from its parent; nil when SharePoint did not say.
    public var inherits: Bool? { permissions.hasUniqueRoleAssignments.map { !$0 } }

    /// The list a bare word (or a GUID) names, with the closest title when there is none; otherwise the file or
    /// folder a path names (a file first), with the closest name when there is nothing: a folder that is a list's
    /// root folder (`Lists/Tasks`, `/sites/team/Shared Documents`) is that list, the site's root folder (`/`, the
    /// site's address or server-relative path) the site (web) itself.
    public static func read(_ word: String, site: SharePointSite) async throws -> Securable {
        let addressing = SiteAddressing(siteURL: site.siteURL)
        // `/` is the site itself, whichever site `--site` names (not the host's root).
        if word == "/" {
            return Securable(kind: "site", name: site.siteURL, permissions: try await site.permissions(of: API.web))
        }
        if case .address = try addressing.list(word) {
            switch try await RemoteEntry.read(word, site: site) {
            case .file(let file):
                let path = API.file(serverRelativePath: file.serverRelativeUrl).listItemAllFields
                return Securable(
                    kind: "file", name: file.serverRelativeUrl, permissions: try await site.permissions(of: path))
            case .folder(let folder):
                let url = folder.serverRelativeUrl
                if addressing.isSiteRoot(url) {
                    return Securable(
                        kind: "site", name: site.siteURL, permissions: try await site.permissions(of: API.web))
                }
                if try await site.isListRootFolder(url) {
                    let list = ListPath.serverRelativeURL(url)
                    return Securable(kind: "list", name: url, permissions: try await site.permissions(of: list.path))
                }
                let path = API.folder(serverRelativePath: url).listItemAllFields
                return Securable(kind: "folder", name: url, permissions: try await site.permissions(of: path))
            }
        }
        return try await withListSuggestion(word, site: site) {
            try await site.withList(named: word) { list in
                Securable(kind: "list", name: word, permissions: try await site.permissions(of: list.path))
            }
        }
    }
}
