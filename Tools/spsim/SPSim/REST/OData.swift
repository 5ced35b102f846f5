import Foundation

// OData query options as SharePoint reads them, and the REST error they and the routes throw.

/// A REST error the router turns into a flavoured error body.
struct RESTError: Error {
    var status: Int
    var code: String
    var message: String
    var headers: [(name: String, value: String)] = []

    static func argument(_ message: String) -> RESTError {
        RESTError(status: 400, code: "-2147024809, System.ArgumentException", message: message)
    }
    static func invalidQuery(_ message: String) -> RESTError {
        RESTError(status: 400, code: "-1, Microsoft.SharePoint.Client.InvalidClientQueryException", message: message)
    }
    static func notFound(_ message: String) -> RESTError {
        RESTError(status: 404, code: "-2147024894, System.IO.FileNotFoundException", message: message)
    }
    /// A missing list item (`items(N)`, `getitembyid(N)`), as SharePoint answers it: 404 with the ArgumentException
    /// code (not the 400 `argument` status).
    static let itemNotFound = RESTError(
        status: 404, code: "-2147024809, System.ArgumentException",
        message: "Item does not exist. It may have been deleted by another user.")
    static let throttled = RESTError(
        status: 500, code: "-2147024860, Microsoft.SharePoint.SPQueryThrottledException",
        message: "The attempted operation is prohibited because it exceeds the list view threshold.")
}

/// Parsed OData system query options.
struct QueryOptions {
    var select: [String] = []
    var expand: [String] = []
    var filter: FilterExpression?
    var filterText: String?
    var orderBy: [(field: String, descending: Bool)] = []
    var top: Int?
    var skip: Int?
    /// `p_ID` from `$skiptoken=Paged=TRUE&p_ID=N`.
    var afterId: Int?

    init(_ query: [(name: String, value: String)]) throws(RESTError) {
        for (name, value) in query {
            switch name.lowercased() {
            case "$select":
                select = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                }
            case "$expand":
                expand = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                }
            case "$filter":
                filterText = value
                filter = try FilterParser.parse(value)
            case "$orderby":
                orderBy = value.split(separator: ",").map { part in
                    let words = part.split(separator: " ").map(String.init)
                    return (words.first ?? "", words.count > 1 && words[1].lowercased() == "desc")
                }
            case "$top":
                guard let number = Int(value), number >= 0 else {
                    throw .invalidQuery("The value '\(value)' of $top is not a valid number.")
                }
                top = number
            case "$skip":
                skip = Int(value)
            case "$skiptoken":
                for pair in FormURLDecoding.pairs(value) where pair.0.lowercased() == "p_id" {
                    afterId = Int(pair.1)
                }
            default: break
            }
        }
    }

    /// `*` or an empty `$select` means the default set.
    var selectsAll: Bool { select.isEmpty || select.contains("*") }

    func selects(_ key: String) -> Bool {
        selectsAll || select.contains { $0.lowercased() == key.lowercased() }
    }

    func expands(_ key: String) -> Bool { expand.contains { $0.lowercased() == key.lowercased() } }
}

/// Decoding of `a=1&b=2` (skip tokens arrive decoded once, so `Paged=TRUE&p_ID=5`).
enum FormURLDecoding {
    static func pairs(_ text: String) -> [(String, String)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : "")
        }
    }
}
