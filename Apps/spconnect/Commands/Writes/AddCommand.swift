import CommandLineKit
import Foundation
import Presentation

/// `spconnect add LIST key=value...`, or `add LIST --from FILE` for one item per row.
let addCommand = Command(
    name: "add",
    summary: "Create a list item from Name=value (text) and Name:=JSON pairs, or one item per row with --from FILE.",
    synopsis: "LIST (Name=value... [Name:=JSON...] | --from FILE.csv|FILE.ndjson|- [--format csv|ndjson] [--dry-run])",
    options: BulkWrite.options + SiteContext.options,
    examples: [
        "spconnect add Tasks Title='Write the report' Priority:=2",
        "spconnect add Tasks Title=Review Done:=false AssignedToId:=12",
        "spconnect add Tasks --from tasks.csv > results.ndjson",
        "spconnect add Tasks --from tasks.csv --dry-run       # every row checked, nothing written",
        "jq -c '.[]' tasks.json | spconnect add Tasks --from - --format ndjson",
    ]
) { arguments in
    try await withSiteErrors("add") {
        if try isBulk(arguments) { return try await BulkWrite.run(arguments, updating: false) }
        guard arguments.positionals.count >= 2 else {
            throw UsageError(description: "expected LIST and at least one Name=value")
        }
        let fields = try fieldAssignments(Array(arguments.positionals.dropFirst()))
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let item = try await site.withList(named: arguments.positionals[0]) { list in
            try await site.addItem(to: list, fields: fields)
        }
        let record = SharePointRecords.record(item: item)
        output.renderOne(record, columns: RecordSet.inferColumns([record]))
        output.note("Created item \(item.id)" + (item.etag.map { " (etag \($0))" } ?? "") + ".")
        return .ok
    }
}
