import Foundation
import Presentation

/// `spconnect fields LIST`: the columns of a list.
let fieldsCommand = Command(
    name: "fields", summary: "List the fields (columns) of a list: internal name, title, type, flags.",
    synopsis: "LIST [--all-including-hidden] [--output FORMAT]",
    options: [.flag(.allIncludingHidden, "also show hidden fields")] + SiteContext.options,
    examples: [
        "spconnect fields Tasks",
        "spconnect fields Tasks --all-including-hidden -o csv",
    ]
) { arguments in
    try await withSiteErrors("fields") {
        let name = try positionals(arguments, "LIST")[0]
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        var fields = try await site.withList(named: name) { list in try await site.fields(of: list) }
        if !arguments.has(.allIncludingHidden) { fields.removeAll { $0.hidden == true } }
        output.render(
            RecordSet(columns: SharePointRecords.fieldColumns, records: fields.map(SharePointRecords.record(field:))))
        return .ok
    }
}
