public import Foundation

/// The one addressing rule of the site commands (docs/cli.md, "Addressing lists, folders and files"): what a LIST,
/// FOLDER or FILE word on the command line names. Pure: no request is made here (``SharePointSite/withList(named:_:)`` and
/// ``SharePointSite/pathThroughTitle(_:)`` try the alternatives against the site).
///
/// A word is one of:
/// - a list or library title (`Documents`, `Tasks`), or a list's id (a GUID);
/// - a path relative to the site (`Shared Documents/Reports`, `Lists/Tasks`), whose first segment may also be a
///   library's title (`Documents/Reports`);
/// - a server-relative path (`/sites/team/Shared Documents/Reports`);
/// - a whole browser address of the site (`https://host/sites/team/Shared%20Documents/Forms/AllItems.aspx`): its
///   path, or the folder in its `id=` / `RootFolder=` query (modern and classic library views), or the path after a
///   `/:f:/r/` sharing prefix. For lists and folders a view page (`AllItems.aspx`, `Forms/AllItems.aspx`) is dropped.
///
/// A path written with `%20`-style escapes and no space is decoded once (as a browser shows it); a name that really
/// contains `%` and two hex digits is then written with `%25`.
public struct SiteAddressing: Sendable {
    /// The site's server-relative path without a trailing slash (`/sites/team`, or empty for a root site).
    public let basePath: String
    /// The site's scheme, host and port, lower-cased (`https://contoso.sharepoint.com:443`).
    public let origin: String?

    /// The addressing of the site at `siteURL`.
    public init(siteURL: String) {
        let components = URLComponents(string: siteURL)
        var base = components?.path ?? ""
        while base.hasSuffix("/") { base.removeLast() }
        basePath = base
        origin = components.flatMap(SiteAddressing.origin(of:))
    }

    /// Whether the server-relative `url` is the site's own root folder (`/sites/team`, `/sites/team/`, or `/`,
    /// which every command reads as the site `--site` names, never the host's root).
    public func isSiteRoot(_ url: String) -> Bool {
        url == "/" || url == basePath || url == basePath + "/"
    }

    /// What a LIST word names.
    public enum ListReference: Equatable, Sendable {
        /// A list id (GUID).
        case id(UUID)
        /// A bare word: a list title or, when no list has that title, the list at `fallbackAddress`.
        case title(String, fallbackAddress: String)
        /// A server-relative list address (`/sites/team/Lists/Tasks`).
        case address(String)
    }

    /// A server-relative folder or file path a word names, and the library title its first segment may be.
    public struct PathReference: Equatable, Sendable {
        /// The server-relative path, decoded, without a trailing slash.
        public var path: String
        /// For a word written relative to the site: its first segment (possibly a library title) and the rest
        /// (empty, or starting with `/`).
        public var titleAndRest: (title: String, rest: String)?

        public static func == (lhs: PathReference, rhs: PathReference) -> Bool {
            lhs.path == rhs.path && lhs.titleAndRest?.title == rhs.titleAndRest?.title
                && lhs.titleAndRest?.rest == rhs.titleAndRest?.rest
        }
    }

    /// The list a word names.
    public func list(_ word: String) throws(SiteAddressError) -> ListReference {
        if let id = UUID(uuidString: word.trimmingCharacters(in: CharacterSet(charactersIn: "{}"))) { return .id(id) }
        if isAddress(word) || word.contains("/") {
            return .address(try path(word, container: true).path)
        }
        return .title(word, fallbackAddress: basePath + "/" + decodedOnce(word))
    }

    /// The folder (`container`: view pages dropped) or file a word names.
    public func path(_ word: String, container: Bool) throws(SiteAddressError) -> PathReference {
        var path: String
        var relative = false
        if isAddress(word) {
            path = try browserPath(word)
        } else {
            path = decodedOnce(word)
            if !path.hasPrefix("/") {
                relative = true
                path = "/" + path
            }
        }
        path = SiteAddressing.collapsed(path)
        if container { path = SiteAddressing.withoutViewPage(path) }
        guard relative else { return PathReference(path: path, titleAndRest: nil) }
        let segments = path.dropFirst().split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let title = String(segments.first ?? "")
        let rest = segments.count > 1 ? "/" + segments[1] : ""
        return PathReference(path: basePath + path, titleAndRest: title.isEmpty ? nil : (title, rest))
    }

    /// Whether the word is a whole `http(s)://` address.
    public func isAddress(_ word: String) -> Bool {
        let lowered = word.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }

    /// The server-relative path of a browser address, refused when it is on another host than the site.
    private func browserPath(_ word: String) throws(SiteAddressError) -> String {
        guard let components = URLComponents(string: word) else {
            throw SiteAddressError(
                description: "'\(word)' is not a valid address; copy it from the browser's address bar")
        }
        if let origin, let given = SiteAddressing.origin(of: components), given != origin {
            throw SiteAddressError(
                description: "'\(word)' is on \(given), but the profile's site is on \(origin); sign in to that "
                    + "site with another --profile, or give a path on this site")
        }
        // Modern (`id=`) and classic (`RootFolder=`) library views name the folder shown in their query.
        for item in components.queryItems ?? [] where ["id", "rootfolder"].contains(item.name.lowercased()) {
            if let value = item.value, value.hasPrefix("/") { return value }
        }
        var path = components.path
        // Sharing links of the "people with existing access" kind: `/:f:/r/sites/team/…` (`:x:`, `:w:`, `:b:`…).
        if let match = path.range(of: "^/:[a-zA-Z]+:/r/", options: .regularExpression) {
            path = "/" + path[match.upperBound...]
        }
        return path.isEmpty ? "/" : path
    }

    /// The word decoded once when it has `%HH` escapes and no space, as written otherwise.
    private func decodedOnce(_ word: String) -> String {
        if !word.contains(" "), word.range(of: "%[0-9A-Fa-f]{2}", options: .regularExpression) != nil,
            let decoded = word.removingPercentEncoding
        {
            return decoded
        }
        return word
    }

    /// `scheme://host:port`, lower-cased, with the scheme's default port written out.
    public static func origin(of components: URLComponents) -> String? {
        guard let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased() else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// The path without repeated or trailing slashes (`/` stays `/`).
    private static func collapsed(_ path: String) -> String {
        let segments = path.split(separator: "/")
        return "/" + segments.joined(separator: "/")
    }

    /// A list or library address without the view page a browser shows it through: `…/AllItems.aspx`,
    /// `…/Forms/AllItems.aspx` (any `.aspx` page, any case).
    private static func withoutViewPage(_ path: String) -> String {
        var segments = path.split(separator: "/").map(String.init)
        guard let last = segments.last, last.lowercased().hasSuffix(".aspx") else { return path }
        segments.removeLast()
        if segments.last?.lowercased() == "forms" { segments.removeLast() }
        return "/" + segments.joined(separator: "/")
    }
}

/// A word that names nothing on the profile's site: not an address, or an address on another host. The caller's to
/// fix, as a bad option is.
public struct SiteAddressError: Error, CustomStringConvertible, Sendable {
    /// What is wrong with the word, and what to give instead.
    public let description: String
}
