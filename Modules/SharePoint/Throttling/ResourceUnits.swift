public import Transport

/// What SharePoint Online charges an app for a request, in resource units, as Microsoft's "Avoid getting throttled
/// or blocked in SharePoint Online" gives them: 1 for a single read, a change query with a token or a download; 2
/// for a multi-item query, a change query without a token, and a write; 5 for reading or changing permissions.
/// Every request inside a `$batch` is counted on its own. ``HTTPClient/Configuration/requestCost`` takes
/// ``cost(of:)`` so that a profile's shared budget (``SharedRateBudget``) is spent at the rate the tenant allows.
public enum ResourceUnits {
    /// The units `request` costs.
    public static func cost(of request: HTTPRequest) -> Int {
        let (path, query) = split(request.url)
        if path.hasSuffix("/_api/$batch") {
            guard case .bytes(let body) = request.body else { return 2 }
            return max(1, batchParts(body).reduce(0) { $0 + cost(method: $1.method, path: $1.path, query: $1.query) })
        }
        var hasChangeToken = query.contains("changetoken")
        if case .bytes(let body) = request.body, body.count < 4096 {
            hasChangeToken =
                hasChangeToken || String(decoding: body, as: UTF8.self).lowercased().contains("changetoken")
        }
        return cost(method: request.method, path: path, query: query, hasChangeToken: hasChangeToken)
    }

    /// The units of one request, by its method and lower-cased path and query.
    static func cost(method: String, path: String, query: String, hasChangeToken: Bool = false) -> Int {
        let method = method.uppercased()
        if isPermissions(path: path, query: query) { return 5 }
        let last = lastSegment(path)
        if ["getchanges", "getlistitemchangessincetoken"].contains(last) {
            // A delta with a token is a single read; without one it walks the list.
            return hasChangeToken || query.contains("changetoken") ? 1 : 2
        }
        if method == "POST" && ["contextinfo", "getitems", "query", "postquery"].contains(last) {
            return last == "contextinfo" ? 1 : 2
        }
        if method != "GET" && method != "HEAD" { return 2 }
        return isCollection(last) ? 2 : 1
    }

    /// Permission reads and writes: role assignments and definitions, effective permissions, inheritance.
    private static func isPermissions(path: String, query: String) -> Bool {
        let words = [
            "roleassignments", "roledefinition", "effectivebasepermissions", "effectivepermission",
            "breakroleinheritance", "resetroleinheritance", "getusereffectivepermissions",
        ]
        return words.contains { path.contains($0) } || query.contains("$expand=") && query.contains("roleassignments")
    }

    /// A collection's name as the path's last segment (`items`, `Files`, `lists`…): a multi-item query. An entity
    /// by key (`items(5)`, `getbytitle('x')`) ends in a parenthesis and is a single read.
    private static func isCollection(_ last: String) -> Bool {
        let collections: Set<String> = [
            "items", "files", "folders", "lists", "fields", "views", "webs", "siteusers", "sitegroups", "users",
            "versions", "contenttypes", "attachmentfiles", "recyclebin", "getitems", "query", "viewfields",
            "webinfos", "getsubwebsfilteredforcurrentuser",
        ]
        return collections.contains(last)
    }

    /// The last path segment (`items(5)` stays whole, so it is no collection's name).
    private static func lastSegment(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    /// The lower-cased path and query of `url`.
    private static func split(_ url: String) -> (path: String, query: String) {
        let lower = url.lowercased()
        guard let mark = lower.firstIndex(of: "?") else { return (lower, "") }
        return (String(lower[..<mark]), String(lower[lower.index(after: mark)...]))
    }

    /// The request lines of a `$batch` body's parts (`GET https://… HTTP/1.1`), lower-cased.
    private static func batchParts(_ body: [UInt8]) -> [(method: String, path: String, query: String)] {
        let text = String(decoding: body, as: UTF8.self)
        var parts: [(method: String, path: String, query: String)] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(separator: " ")
            guard words.count == 3, words[2].hasPrefix("HTTP/"),
                ["GET", "POST", "PUT", "PATCH", "MERGE", "DELETE"].contains(String(words[0]))
            else { continue }
            let (path, query) = split(String(words[1]))
            parts.append((String(words[0]), path, query))
        }
        return parts
    }
}
