import Foundation
import Presentation

/// `spconnect lists`: the lists and libraries of the site.
let listsCommand = Command(
    name: "lists", summary: "List the site's lists and libraries (hidden ones with --all-including-hidden).",
    synopsis: "[--all-including-hidden] [--output FORMAT]",
    options: [.flag(.allIncludingHidden, "also show hidden lists (catalogs, system lists)")] + SiteContext.options,
    examples: [
        "spconnect lists",
        "spconnect lists --all-including-hidden -o csv > lists.csv",
    ]
) { arguments in
    try await withSiteErrors("lists") {
        _ = try positionals(arguments)
        let output = try Output(arguments)
        let lists = try await SiteContext.open(arguments).site.lists(
            includeHidden: arguments.has(.allIncludingHidden))
        output.render(
            RecordSet(columns: SharePointRecords.listColumns, records: lists.map(SharePointRecords.record(list:))))
        return .ok
    }
}
