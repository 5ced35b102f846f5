public import Foundation
public import JSON

/// One site collection as SharePoint Search knows it (`contentclass:STS_Site`).
public struct SiteCollectionSummary: Sendable, Equatable {
    /// The site's title.
    public var title: String
    /// The site's absolute URL (Search's `Path`).
    public var url: String
    /// The site collection's id (empty when Search did not send it).
    public var siteID: String
    /// The web template (`STS`, `GROUP`, `SITEPAGEPUBLISHING`; empty when not sent).
    public var webTemplate: String
    /// The description (empty when none).
    public var description: String
    /// When the site last changed, as Search sends it (ISO 8601; empty when not sent).
    public var lastModified: String
}

/// One page of Search's relevant results: each row's cells by key, and how many rows the query has in all.
public struct SearchResultPage: Sendable, Equatable {
    /// The rows of this page, each cell's `Key` to its `Value` (every value a string, as Search sends them).
    public var rows: [[String: String]]
    /// `TotalRows`: the rows the whole query finds (Search's estimate).
    public var totalRows: Int

    /// Reads Search's answer in any flavour: `PrimaryQueryResult.RelevantResults.Table.Rows[].Cells[]`, below
    /// `d.query` and with `results` arrays in verbose.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when the body has no relevant results.
    public init(document: ODataDocument) throws(SharePointError) {
        let query = document.payload["query"] ?? document.payload
        guard let results = query["PrimaryQueryResult"]?["RelevantResults"] else {
            throw SharePointError(
                unexpectedResponse: "the search answer has no PrimaryQueryResult.RelevantResults")
        }
        let rows = Self.array(results["Table"]?["Rows"]) ?? []
        self.rows = rows.map { row in
            var cells: [String: String] = [:]
            for cell in Self.array(row["Cells"]) ?? [] {
                guard let key = cell["Key"]?.stringValue else { continue }
                cells[key] = cell["Value"]?.stringValue ?? ""
            }
            return cells
        }
        totalRows = results["TotalRows"]?.intValue ?? rows.count
    }

    /// An array as plain JSON, or verbose's `{"results": […]}`.
    private static func array(_ value: JSONValue?) -> [JSONValue]? {
        value?.arrayValue ?? value?["results"]?.arrayValue
    }
}

extension SharePointSite {
    /// The most rows SharePoint Online's Search gives in one page.
    public static let searchPageLimit = 500

    /// One page of a Search query (`GET /_api/search/query`): KQL `queryText`, the managed properties to return,
    /// the first row (0-based) and the page size.
    public func search(
        _ queryText: String, select: [String], startRow: Int, rowLimit: Int
    ) async throws(SharePointError) -> SearchResultPage {
        let parameters = [
            ("querytext", "'" + queryText.replacingOccurrences(of: "'", with: "''") + "'"),
            ("selectproperties", "'" + select.joined(separator: ",") + "'"),
            ("startrow", String(startRow)), ("rowlimit", String(rowLimit)), ("trimduplicates", "false"),
        ]
        let query = parameters.map { $0 + "=" + Self.searchEncoded($1) }.joined(separator: "&")
        let url = API.root.appending("search").appending("query").url(site: siteURL) + "?" + query
        let response = try await perform(.read(self, url))
        do {
            return try SearchResultPage(document: try ODataDocument(data: Data(response.body)))
        } catch {
            throw error.at(response.url)
        }
    }

    /// Every site collection the signed-in user can see, as Search lists them (`contentclass:STS_Site`), read
    /// page by page (`pageSize` rows asked each, at most ``searchPageLimit``) until Search's total is reached or a
    /// page comes back empty. A page that adds no site it had not listed ends the listing too (a server that
    /// answers every start row with the same page, or claims a total it never reaches), and so does
    /// ``searchRowLimit``, past which SharePoint's Search gives no rows either.
    public func siteCollections(pageSize: Int = searchPageLimit) async throws(SharePointError)
        -> [SiteCollectionSummary]
    {
        let size = max(1, min(pageSize, Self.searchPageLimit))
        var sites: [SiteCollectionSummary] = []
        var seen: Set<String> = []
        var start = 0
        while true {
            let page = try await search(
                "contentclass:STS_Site",
                select: [
                    "Title", "Path", "SiteId", "WebTemplate", "Description",
                    "LastModifiedTime",
                ], startRow: start, rowLimit: size)
            start += page.rows.count
            let before = sites.count
            for row in page.rows {
                let url = row["Path"] ?? ""
                // Search may list a site twice across pages while its index moves; keep the first.
                guard !url.isEmpty, seen.insert(url.lowercased()).inserted else { continue }
                sites.append(
                    SiteCollectionSummary(
                        title: row["Title"] ?? "", url: url, siteID: row["SiteId"] ?? "",
                        webTemplate: row["WebTemplate"] ?? "", description: row["Description"] ?? "",
                        lastModified: row["LastModifiedTime"] ?? ""))
            }
            // A page may hold fewer rows than asked (the server's own cap) with more to come: only an empty page
            // or the total reached ends the listing.
            if page.rows.isEmpty || start >= page.totalRows || sites.count == before || start >= Self.searchRowLimit {
                return sites
            }
        }
    }

    /// The furthest row Search pages to (SharePoint Online answers nothing past its `StartRow` limit).
    public static let searchRowLimit = 50_000

    /// A query value percent-encoded for the URL (unreserved characters and `:`, `,` kept).
    private static func searchEncoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:,")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
