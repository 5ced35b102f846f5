import Presentation
import SharePoint

/// `spconnect users`: the site's users (`GET /_api/web/siteusers`, every page).
let usersCommand = Command(
    name: "users",
    summary: "List the site's users: id, name, login name, e-mail, site admin and principal type.",
    synopsis: "[--output FORMAT]", options: SiteContext.options,
    examples: [
        "spconnect users",
        "spconnect users -o csv > users.csv",
    ]
) { arguments in
    try await withSiteErrors("users") {
        _ = try positionals(arguments)
        let output = try Output(arguments)
        let users = try await SiteContext.open(arguments).site.siteUsers()
        output.render(
            RecordSet(
                columns: SharePointRecords.siteUserColumns,
                records: users.map { SharePointRecords.record(siteUser: $0) }))
        return .ok
    }
}
