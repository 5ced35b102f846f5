import Foundation

/// Resolves references the way a browser does for links found in pages and headers.
enum URLResolution {
    /// `reference` resolved against `base`; `reference` itself when it cannot be resolved.
    static func resolve(_ reference: String, against base: String) -> String {
        let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let baseURL = URL(string: base), let resolved = URL(string: trimmed, relativeTo: baseURL) else {
            return trimmed
        }
        return resolved.absoluteString
    }

    /// `base` with `path` appended (`https://site/sites/team` + `/_api/web`).
    static func join(_ base: String, _ path: String) -> String {
        var site = base
        while site.hasSuffix("/") { site.removeLast() }
        return site + (path.hasPrefix("/") ? path : "/" + path)
    }
}
