import Presentation

/// `spconnect sites`: the site collections the signed-in user can see, as SharePoint Search lists them
/// (`GET /_api/search/query?querytext='contentclass:STS_Site'`, page after page).
let sitesCommand = Command(
    name: "sites",
    summary: "List the site collections you can see (SharePoint Search): title, URL, template, last change.",
    synopsis: "[--urls | --output FORMAT]",
    options: [.flag(.urls, "print only the sites' URLs, one per line (for xargs and GNU parallel)")]
        + SiteContext.options,
    examples: [
        "spconnect sites",
        "spconnect sites --urls | parallel spconnect items Tasks --site {} --out '{/}.csv'",
        "spconnect sites -o csv --out sites.csv",
        "spconnect sites -o json | jq -r '.[].url'",
        "spconnect items Tasks --site https://contoso.sharepoint.com/sites/hr",
    ]
) { arguments in
    try await withSiteErrors("sites") {
        _ = try positionals(arguments)
        let output = try Output(arguments)
        let sites = try await SiteContext.open(arguments).site.siteCollections()
        if arguments.has(.urls) {
            output.writeLines(sites.map(\.url))
            return .ok
        }
        output.render(
            RecordSet(
                columns: SharePointRecords.siteCollectionColumns,
                records: sites.map { SharePointRecords.record(siteCollection: $0) }))
        return .ok
    }
}
