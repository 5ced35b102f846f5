import CommandLineKit
import FileOperations
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
            let (file, earlier) = try await withItemHint(words[0]) {
                try await withFile(words[0], site: site, folderAdvice: itemAdvice(words[0])) { path in
                    (
                        try await site.fileProperties(serverRelativeURL: path),
                        try await site.fileVersions(serverRelativeURL: path)
                    )
                }
            }
            // SharePoint lists the earlier versions only, oldest first: the file itself is the current one.
            let records =
                earlier.map(SharePointRecords.record(fileVersion:)) + [SharePointRecords.record(currentVersionOf: file)]
            output.render(RecordSet(columns: SharePointRecords.fileVersionColumns, records: records))
        case 2:
            let id = try itemID(words[1])
            let site = try SiteContext.open(arguments).site
            let versions = try await withListSuggestion(words[0], site: site) {
                try await site.withList(named: words[0]) { list in try await site.itemVersions(in: list, id: id) }
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

/// Runs `body` for the one word of `versions PATH`; a word with no `/` that names no file may have been meant as a
/// list (`versions Tasks`): the "not found" then says how to ask for an item's versions (as the "is a folder" error
/// does when the word is a list title).
private func withItemHint<T>(_ word: String, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch var error as SharePointError where error.isMissingPath && !word.contains("/") {
        error.message = (error.message.map { $0 + " " } ?? "") + itemAdvice(word).capitalisedFirst + "."
        throw error
    }
}

/// How to ask for an item's versions instead, for a word that was meant as a list.
private func itemAdvice(_ word: String) -> String {
    "for a list item's versions give the list and the item id: spconnect versions \(word) ID"
}

extension String {
    /// The text with its first letter upper-cased.
    fileprivate var capitalisedFirst: String { prefix(1).uppercased() + dropFirst() }
}
