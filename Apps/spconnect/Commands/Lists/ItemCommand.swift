import Foundation
import ListOperations
import Presentation
import SharePoint

/// `spconnect item LIST ID`: one item.
let itemCommand = Command(
    name: "item", summary: "Show one list item: every field, or display texts with --as-text.",
    synopsis: "LIST ID [--select F,..] [--as-text] [--output FORMAT]",
    options: [
        .value(.select, "F,..", "fields to return, by internal name"),
        .flag(.asText, "show the item's display texts (FieldValuesAsText)"),
    ] + SiteContext.options,
    examples: [
        "spconnect item Tasks 17",
        "spconnect item Tasks 17 -o json          # with its odata.etag for update --etag",
    ]
) { arguments in
    try await withSiteErrors("item") {
        let words = try positionals(arguments, "LIST", "ID")
        let id = try itemID(words[1])
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let asText = arguments.has(.asText)
        let requested = arguments.value(.select).map(FieldSelection.split) ?? []
        let record = try await site.withList(named: words[0]) { list in
            if asText {
                return SharePointRecords.record(textValues: try await site.fieldValuesAsText(in: list, id: id))
            }
            let selection = try await FieldSelection.checked(requested, in: list, named: words[0], site: site)
            let query = ODataQuery(select: selection.namesWithID, expand: selection.expand)
            let item = try await site.item(in: list, id: id, query: query)
            var record = SharePointRecords.record(item: item)
            // The etag for `update --etag`: a note beside a table, SharePoint's own `odata.etag` member otherwise
            // (no field's internal name has a dot, so it cannot clash).
            if let etag = item.etag {
                if output.format == .table {
                    output.note("etag: \(etag)")
                } else {
                    record.fields.append(Presentation.Field("odata.etag", .string(etag)))
                }
            }
            return record
        }
        output.renderOne(record, columns: RecordSet.inferColumns([record]))
        return .ok
    }
}
