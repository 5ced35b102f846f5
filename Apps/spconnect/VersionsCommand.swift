import Presentation
import SharePoint

/// `spconnect versions PATH` (a file's versions) and `spconnect versions LIST ID` (an item's).
let versionsCommand = Command(
    name: "versions",
    summary: "List the versions of a file (PATH) or of a list item (LIST ID), the current one included.",
    synopsis: "PATH | LIST ID [--output FORMAT]   (PATH, LIST: see docs/cli.md)",
    options: SiteContext.options,
    examples: [
        "spconnect versions 'Shared Documents/report.docx'",
        "spconnect versions Tasks 17",
        "spconnect versions Tasks 17 -o json     # each version's field values under 'values'",
    ]
) { arguments in
    try await withSiteErrors("versions") {
        let words = arguments.positionals
        let output = try Output(arguments)
        switch words.count {
        case 1:
            let site = try SiteContext.open(arguments).site
            let (file, earlier) = try await withFile(words[0], site: site) { path in
                (
                    try await site.fileProperties(serverRelativeURL: path),
                    try await site.fileVersions(serverRelativeURL: path)
                )
            }
            // SharePoint lists the earlier versions only, oldest first: the file itself is the current one.
            let records =
                earlier.map(SharePointRecords.record(fileVersion:)) + [SharePointRecords.record(currentVersionOf: file)]
            output.render(RecordSet(columns: SharePointRecords.fileVersionColumns, records: records))
        case 2:
            let id = try itemID(words[1])
            let site = try SiteContext.open(arguments).site
            let versions = try await withListSuggestion(words[0], site: site) {
                try await withList(words[0], site: site) { list in try await site.itemVersions(in: list, id: id) }
            }
            // Newest first, as SharePoint sends them: each is compared with the one after it (the one before in time).
            let records = versions.indices.map { index in
                SharePointRecords.record(
                    itemVersion: versions[index], previous: index + 1 < versions.count ? versions[index + 1] : nil)
            }
            let columns = SharePointRecords.itemVersionColumns(withValues: output.format != .table)
            output.render(RecordSet(columns: columns, records: records))
        default:
            throw UsageError(
                description: "expected PATH (a file) or LIST ID (an item), got \(words.count) argument(s)")
        }
        return .ok
    }
}
