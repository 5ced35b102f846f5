import CommandLineKit
import Foundation
import Presentation
import SharePoint

/// `spconnect update LIST ID key=value...`.
let updateCommand = Command(
    name: "update",
    summary:
        "Change fields of a list item (MERGE; --etag refuses if someone else changed it), or of the item each row "
        + "of --from FILE names by its Id column.",
    synopsis:
        "LIST (ID Name=value... [Name:=JSON...] [--etag ETAG] | --from FILE.csv|FILE.ndjson|- [--format csv|ndjson] [--dry-run])",
    options: [.value(.etag, "ETAG", "the etag the item had when read, e.g. '\"3\"' or 3 (default '*': overwrite)")]
        + BulkWrite.options + SiteContext.options,
    examples: [
        "spconnect update Tasks 17 Status=Completed",
        "spconnect update Tasks 17 Priority:=1 --etag 3",
        "spconnect update Tasks --from changes.csv      # an Id column, then the fields to change",
    ]
) { arguments in
    try await withSiteErrors("update") {
        if try isBulk(arguments) { return try await BulkWrite.run(arguments, updating: true) }
        guard arguments.positionals.count >= 3 else {
            throw UsageError(description: "expected LIST ID and at least one Name=value")
        }
        let id = try itemID(arguments.positionals[1])
        let fields = try fieldAssignments(Array(arguments.positionals.dropFirst(2)))
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let etag = try await site.withList(named: arguments.positionals[0]) { list in
            try await site.updateItem(in: list, id: id, fields: fields, etag: arguments.value(.etag) ?? "*")
        }
        output.renderOne(
            Record([Presentation.Field("id", .int(id)), Presentation.Field("etag", etag.map(Cell.string) ?? .null)]),
            columns: [Column("id", title: "Id"), Column("etag", title: "New etag")])
        return .ok
    }
}
