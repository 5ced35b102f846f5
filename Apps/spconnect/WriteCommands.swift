import Foundation
import JSON
import Presentation
import SharePoint

/// `key=value` (a string) and `key:=JSON` (a raw JSON value: number, true, null, array…) pairs.
func fieldAssignments(_ words: [String]) throws(UsageError) -> [(String, JSONValue)] {
    guard !words.isEmpty else { throw UsageError(description: "no fields given: use Name=value or Name:=JSON") }
    var fields: [(String, JSONValue)] = []
    for word in words {
        if let range = word.range(of: ":="), !word[..<range.lowerBound].contains("=") {
            let name = String(word[..<range.lowerBound])
            let text = String(word[range.upperBound...])
            guard !name.isEmpty else { throw UsageError(description: "'\(word)': the field name is missing") }
            do {
                fields.append((name, try JSONValue.parse(text)))
            } catch {
                throw UsageError(description: "'\(word)': the value after := is not JSON (\(text))")
            }
        } else if let equals = word.firstIndex(of: "=") {
            let name = String(word[..<equals])
            guard !name.isEmpty else { throw UsageError(description: "'\(word)': the field name is missing") }
            fields.append((name, .string(String(word[word.index(after: equals)...]))))
        } else {
            throw UsageError(description: "'\(word)' is not Name=value or Name:=JSON")
        }
    }
    return fields
}

/// `spconnect add LIST key=value...`.
let addCommand = Command(
    name: "add", summary: "Create a list item from Name=value (text) and Name:=JSON (numbers, booleans, ids) pairs.",
    synopsis: "LIST Name=value... [Name:=JSON...]", options: SiteContext.options,
    examples: [
        "spconnect add Tasks Title='Write the report' Priority:=2",
        "spconnect add Tasks Title=Review Done:=false AssignedToId:=12",
    ]
) { arguments in
    try await withSiteErrors("add") {
        guard arguments.positionals.count >= 2 else {
            throw UsageError(description: "expected LIST and at least one Name=value")
        }
        let fields = try fieldAssignments(Array(arguments.positionals.dropFirst()))
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let item = try await site.addItem(to: listPath(arguments.positionals[0]), fields: fields)
        let record = SharePointRecords.record(item: item)
        output.renderOne(record, columns: RecordSet.inferColumns([record]))
        output.note("Created item \(item.id)" + (item.etag.map { " (etag \($0))" } ?? "") + ".")
        return .ok
    }
}

/// `spconnect update LIST ID key=value...`.
let updateCommand = Command(
    name: "update",
    summary: "Change fields of a list item (MERGE); with --etag the change is refused if someone else changed it.",
    synopsis: "LIST ID Name=value... [Name:=JSON...] [--etag ETAG]",
    options: [.value("etag", "ETAG", "the etag the item had when read, e.g. '\"3\"' (default '*': overwrite)")]
        + SiteContext.options,
    examples: [
        "spconnect update Tasks 17 Status=Completed",
        "spconnect update Tasks 17 Priority:=1 --etag '\"3\"'",
    ]
) { arguments in
    try await withSiteErrors("update") {
        guard arguments.positionals.count >= 3 else {
            throw UsageError(description: "expected LIST ID and at least one Name=value")
        }
        let id = try itemID(arguments.positionals[1])
        let fields = try fieldAssignments(Array(arguments.positionals.dropFirst(2)))
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let etag = try await site.updateItem(
            in: listPath(arguments.positionals[0]), id: id, fields: fields, etag: arguments.value("etag") ?? "*")
        output.renderOne(
            Record([Presentation.Field("id", .int(id)), Presentation.Field("etag", etag.map(Cell.string) ?? .null)]),
            columns: [Column("id", title: "Id"), Column("etag", title: "New etag")])
        return .ok
    }
}

/// `spconnect delete LIST ID`.
let deleteCommand = Command(
    name: "delete", summary: "Delete a list item (to the recycle bin of the site).",
    synopsis: "LIST ID [--etag ETAG]",
    options: [.value("etag", "ETAG", "only delete if the item still has this etag (default '*')")]
        + SiteContext.options,
    examples: [
        "spconnect delete Tasks 17",
        "spconnect delete Tasks 17 --etag '\"4\"'",
    ]
) { arguments in
    try await withSiteErrors("delete") {
        let words = try positionals(arguments, "LIST", "ID")
        let id = try itemID(words[1])
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        try await site.deleteItem(in: listPath(words[0]), id: id, etag: arguments.value("etag") ?? "*")
        output.note("Deleted item \(id) of '\(words[0])'.")
        return .ok
    }
}
