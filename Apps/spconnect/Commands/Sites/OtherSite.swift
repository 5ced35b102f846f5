import CommandLineKit
import Foundation
import SharePoint

/// `--site URL` on a site command: another site collection (or sub-site) of the profile's host. The profile's
/// cookies and tokens belong to its host, so the URL must share its origin (scheme, host, port); a URL elsewhere is
/// a usage error naming what to do, and nothing is sent there.
enum OtherSite {
    /// The site URL a command talks to: `given` (without a trailing slash) when it is on the profile's origin,
    /// the profile's site when no `--site` was given.
    static func url(_ given: String?, profileSite: String) throws -> String {
        guard let given else { return profileSite }
        var trimmed = given.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let components = URLComponents(string: trimmed), components.query == nil, components.fragment == nil,
            let origin = SiteAddressing.origin(of: components)
        else {
            throw UsageError(
                description: "--site needs an absolute site URL such as https://contoso.sharepoint.com/sites/hr, "
                    + "got '\(given)'")
        }
        guard let profile = URLComponents(string: profileSite).flatMap(SiteAddressing.origin(of:)), profile == origin
        else {
            throw UsageError(
                description: "--site \(trimmed) is not on the profile's host (\(profileSite)); its session "
                    + "cannot be used there: sign in to that host with another --profile")
        }
        return trimmed
    }
}
