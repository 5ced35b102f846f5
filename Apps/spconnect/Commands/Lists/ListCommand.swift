import Foundation
import Presentation

/// `spconnect list NAME`: one list's details.
let listCommand = Command(
    name: "list",
    summary: "Show one list or library (by title, id, path or browser address): item count, template, entity types.",
    synopsis: "LIST [--output FORMAT]", options: SiteContext.options,
    examples: [
        "spconnect list Tasks",
        "spconnect list 'https://contoso.sharepoint.com/sites/team/Shared Documents/Forms/AllItems.aspx' -o json",
    ]
) { arguments in
    try await withSiteErrors("list") {
        let name = try positionals(arguments, "LIST")[0]
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let list = try await site.withList(named: name) { path in try await site.list(path) }
        output.renderOne(
            SharePointRecords.record(listDetails: list), columns: SharePointRecords.listDetailColumns)
        return .ok
    }
}
