import CommandLineKit
import FileOperations
import Presentation
import SharePoint

/// `spconnect content-types [LIST]`: the content types of a list or library (`GET …/contenttypes`), or of the site
/// without a LIST (`GET /_api/web/contenttypes`).
let contentTypesCommand = Command(
    name: "content-types",
    summary: "List the content types of a list or library (or of the site): id, name, group, description, hidden.",
    synopsis: "[LIST] [--output FORMAT]   (LIST: see docs/cli.md; none: the site's content types)",
    options: SiteContext.options,
    examples: [
        "spconnect content-types Tasks",
        "spconnect content-types Documents -o json",
        "spconnect content-types                 # the site's own",
    ]
) { arguments in
    try await withSiteErrors("content-types") {
        let words = arguments.positionals
        guard words.count <= 1 else {
            throw UsageError(description: "expected at most one LIST, got \(words.count) arguments")
        }
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let types: [ContentType]
        if let name = words.first {
            types = try await withListSuggestion(name, site: site) {
                try await site.withList(named: name) { list in try await site.contentTypes(of: list) }
            }
        } else {
            types = try await site.webContentTypes()
        }
        output.render(
            RecordSet(
                columns: SharePointRecords.contentTypeColumns,
                records: types.map { SharePointRecords.record(contentType: $0) }))
        return .ok
    }
}
