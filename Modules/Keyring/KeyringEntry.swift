import Foundation

/// Which keyring entry holds a password: the site's origin (`https://contoso.sharepoint.com`, with a port only
/// when it is not the scheme's default) and the sign-in name, the two attributes of SPConnect's own schema
/// (`org.spconnect.Password`). A plain value.
package struct KeyringEntry: Sendable, Hashable {
    /// The site's scheme, host and port, lowercased.
    package let origin: String
    /// The sign-in name, as given to `login --user`.
    package let user: String

    /// The entry for a password used at `site` (any URL of it) by `user`; nil when `site` has no scheme and host.
    package init?(site: String, user: String) {
        guard let components = URLComponents(string: site), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        // An IPv6 literal keeps its brackets, as in the URL.
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        origin = "\(scheme)://\(shownHost)\(port)"
        self.user = user
    }

    /// The label a keyring manager shows (Seahorse, KeePassXC): which site and user the password is for.
    package var label: String { "SPConnect password for \(user) at \(origin)" }
}
