import HTTPServer

/// What a request to the site costs in resource units, by Microsoft's published figures: 5 for anything touching
/// permissions, 2 for a write or a query over many items (a collection, a change query without a token), 1 for a
/// single read, a change query with a token and a download. A `$batch` costs the sum of its operations.
enum ResourceCost {
    /// The units of `request`, nil when the budgets do not count it (sign-in pages, the site's error page).
    static func of(_ request: HTTPServerRequest, isWebDAV: Bool) -> Int? {
        let path = request.path.lowercased()
        let signInPaths = ["/_layouts/", "/_forms/", "/_trust", "/_login/", "/_windows/", "/_vti_bin/"]
        if signInPaths.contains(where: { path.hasPrefix($0) || path.hasPrefix("/sites/") && path.contains($0) }) {
            return nil
        }
        if path.hasSuffix("/_api/$batch") {
            let operations = BatchRequest.operations(request.body, contentType: request.header("Content-Type") ?? "")
            return max(
                1,
                operations.reduce(0) { total, operation in
                    let (operationPath, query) = splitURL(operation.url)
                    return total
                        + units(method: operation.method, path: operationPath, query: query, body: operation.body)
                })
        }
        if path.contains("/_api/") || path.hasSuffix("/_api") {
            return units(method: request.method, path: path, query: request.rawQuery.lowercased(), body: request.body)
        }
        if isWebDAV {
            // A folder's listing is a query over many items; the rest is a read or a write of one file.
            return request.method.uppercased() == "PROPFIND"
                ? 2 : units(method: request.method, path: path, query: "", body: [])
        }
        // A file by its URL: a download.
        return request.method == "GET" || request.method == "HEAD" ? 1 : nil
    }

    private static func units(method: String, path: String, query: String, body: [UInt8]) -> Int {
        let method = method.uppercased()
        let permissionWords = [
            "roleassignment", "roledefinition", "effectivebasepermissions", "roleinheritance",
            "effectivepermission",
        ]
        if permissionWords.contains(where: { path.contains($0) || query.contains($0) }) { return 5 }
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        if last == "getchanges" || last.hasPrefix("getlistitemchangessincetoken") {
            let text = String(decoding: body.prefix(4096), as: UTF8.self).lowercased()
            return text.contains("changetoken") || query.contains("changetoken") ? 1 : 2
        }
        if last == "contextinfo" { return 1 }
        if method != "GET" && method != "HEAD" { return 2 }
        if last.hasSuffix("$value") || last.hasPrefix("openbinarystream") { return 1 }
        // A collection ends in its name; an entity is addressed by a key in parentheses or a name.
        let collections: Set<String> = [
            "items", "files", "folders", "lists", "fields", "views", "webs", "siteusers",
            "sitegroups", "users", "versions", "contenttypes", "attachmentfiles", "recyclebin", "getitems", "query",
        ]
        return collections.contains(last) ? 2 : 1
    }

    private static func splitURL(_ url: String) -> (path: String, query: String) {
        let lower = url.lowercased()
        guard let mark = lower.firstIndex(of: "?") else { return (lower, "") }
        return (String(lower[..<mark]), String(lower[lower.index(after: mark)...]))
    }
}
