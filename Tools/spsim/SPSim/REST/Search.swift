import HTTPServer

/// `search/query`: SharePoint Search's REST query, as far as a job needs it to find the site collections
/// (`querytext='contentclass:STS_Site'`, `startrow`, `rowlimit`, `selectproperties`). Any other query finds nothing.
/// Rows are a table of cells (`Key`, `Value`, `ValueType`), every value a string, as Search sends them.
extension SimulatorCore {
    func searchQuery(_ match: RESTMatch) throws -> HTTPServerResponse {
        let context = match.context
        let parameters = Dictionary(
            context.request.query.map { ($0.name.lowercased(), Self.unquoted($0.value)) },
            uniquingKeysWith: { first, _ in first })
        guard let text = parameters["querytext"], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw RESTError(
                status: 400, code: "-1, Microsoft.SharePoint.Client.InvalidClientQueryException",
                message: "The query text is empty: querytext='…' is required.")
        }
        let start = try Self.searchNumber(parameters["startrow"], name: "startrow") ?? 0
        let limit = min(try Self.searchNumber(parameters["rowlimit"], name: "rowlimit") ?? 10, options.searchRowLimit)
        let sites = text.lowercased().contains("contentclass:sts_site") ? allSiteCollections : []
        let page = sites.dropFirst(start).prefix(limit)
        let selected = parameters["selectproperties"].map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        let rows = page.enumerated().map { offset, site in
            searchRow(site, rank: Double(sites.count - start - offset), selected: selected, context: context)
        }
        let results = JSON.object([
            ("RowCount", .int(rows.count)),
            ("Table", .object(wrapped([("Rows", searchArray(rows, context))], type: "SP.SimpleDataTable", context))),
            ("TotalRows", .int(sites.count)), ("TotalRowsIncludingDuplicates", .int(sites.count)),
        ])
        let primary = JSON.object([
            ("QueryId", .string(stableGUID(options.seed, "query/" + text))), ("RelevantResults", results),
        ])
        let body: [(String, JSON)] = [("ElapsedTime", .int(12)), ("PrimaryQueryResult", primary)]
        if context.flavour == .verbose {
            let query = wrapped(body, type: "Microsoft.Office.Server.Search.REST.SearchResult", context)
            return jsonResponse(.object([("d", .object([("query", .object(query))]))]), context)
        }
        return jsonResponse(.object(body), context)
    }

    /// One site collection as a row of cells: the properties `selectproperties` names (all known ones without it).
    private func searchRow(_ site: SimulatorCore, rank: Double, selected: [String]?, context: RESTContext) -> JSON {
        let cells: [(String, String, String)] = [
            ("Rank", String(rank), "Edm.Double"), ("Title", site.webTitle, "Edm.String"),
            ("Path", site.siteURL, "Edm.String"), ("SiteId", site.siteId, "Edm.Guid"),
            ("WebId", site.webId, "Edm.Guid"), ("WebTemplate", "STS", "Edm.String"),
            ("Description", site.webRoot.isEmpty ? "Simulated SharePoint team site" : "", "Edm.String"),
            ("LastModifiedTime", CivilTime(SiteContent.baseEpoch).iso, "Edm.DateTime"),
        ]
        let chosen = cells.filter { cell in
            cell.0 == "Rank" || selected.map { $0.contains(cell.0.lowercased()) } ?? true
        }
        let values = chosen.map { key, value, type in
            JSON.object(
                wrapped(
                    [("Key", .string(key)), ("Value", .string(value)), ("ValueType", .string(type))],
                    type: "SP.KeyValue", context))
        }
        return .object([("Cells", searchArray(values, context))])
    }

    /// An array as the flavour writes it: verbose wraps it in `results`.
    private func searchArray(_ values: [JSON], _ context: RESTContext) -> JSON {
        context.flavour == .verbose ? .object([("results", .array(values))]) : .array(values)
    }

    /// Members with verbose's `__metadata` first.
    private func wrapped(_ members: [(String, JSON)], type: String, _ context: RESTContext) -> [(String, JSON)] {
        guard context.flavour == .verbose else { return members }
        return [("__metadata", .object([("type", .string(type))]))] + members
    }

    /// A query value without its OData quotes (`'contentclass:STS_Site'`; `''` inside stands for `'`).
    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'") else { return value }
        return String(value.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
    }

    private static func searchNumber(_ value: String?, name: String) throws -> Int? {
        guard let value else { return nil }
        guard let number = Int(value), number >= 0 else {
            throw RESTError.invalidQuery("The value '\(value)' of \(name) is not a valid number.")
        }
        return number
    }
}

/// The endpoints answered in this file (every `RESTRoute` declared so is routed; see `RESTRoutes.swift`).
extension RESTRoute {
    static let searchQuery = RESTRoute("search/query/**") { try $0.searchQuery($1) }
}
