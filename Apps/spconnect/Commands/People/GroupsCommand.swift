import Presentation

/// `spconnect groups`: the site's SharePoint groups (`GET /_api/web/sitegroups`).
let groupsCommand = Command(
    name: "groups",
    summary: "List the site's SharePoint groups: id, name, description and owner.",
    synopsis: "[--output FORMAT]", options: SiteContext.options,
    examples: [
        "spconnect groups",
        "spconnect groups -o json",
    ]
) { arguments in
    try await withSiteErrors("groups") {
        _ = try positionals(arguments)
        let output = try Output(arguments)
        let groups = try await SiteContext.open(arguments).site.siteGroups()
        output.render(
            RecordSet(
                columns: SharePointRecords.siteGroupColumns, records: groups.map { SharePointRecords.record(group: $0) }
            ))
        return .ok
    }
}
