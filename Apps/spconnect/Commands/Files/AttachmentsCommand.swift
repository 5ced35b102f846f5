import CommandLineKit
import FileOperations
import Foundation
import LocalFiles
import Presentation
import SharePoint

/// `spconnect attachments LIST ID [--download DIR [--overwrite]]`: the files attached to a list item.
let attachmentsCommand = Command(
    name: "attachments",
    summary: "List the files attached to a list item, or save them into a local folder with --download.",
    synopsis: "LIST ID [--download DIR [--overwrite]] [--output FORMAT]",
    options: [
        .path(.download, "DIR", "save every attachment into DIR (made when missing), each complete or not at all"),
        .flag(.overwrite, "with --download: replace files already in DIR (otherwise they are refused, exit 9)"),
    ] + SiteContext.options,
    examples: [
        "spconnect attachments Tasks 17",
        "spconnect attachments Tasks 17 --download ./task-17",
        "spconnect attachments Tasks 17 --download ./task-17 --overwrite -o ndjson",
    ]
) { arguments in
    try await withSiteErrors("attachments") {
        let words = try positionals(arguments, "LIST", "ID")
        let id = try itemID(words[1])
        if arguments.has(.overwrite), arguments.value(.download) == nil {
            throw UsageError(description: "--overwrite goes with --download DIR")
        }
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let (list, attachments) = try await withListSuggestion(words[0], site: site) {
            try await site.withList(named: words[0]) { list in (list, try await site.attachments(in: list, id: id)) }
        }
        guard let directory = arguments.value(.download) else {
            output.render(
                RecordSet(
                    columns: SharePointRecords.attachmentColumns,
                    records: attachments.map(SharePointRecords.record(attachment:))))
            return .ok
        }
        try makeLocalFolder(directory)
        let folder: LocalFolder
        do {
            folder = try LocalFolder(path: directory)
        } catch let error as LocalFileError {
            throw UsageError(description: "--download \(directory): \(error.reason)")
        }
        return try await saveAttachments(
            attachments, of: list, id: id, into: folder, overwrite: arguments.has(.overwrite), output: output,
            site: site)
    }
}

/// Saves each attachment into `folder` (``AttachmentDownloads``), one result per attachment: `downloaded`,
/// `refused (exists)` (a file already there, without `overwrite`), `refused (name)` (a name that cannot be a file in
/// `folder`: `..`, a `/`), `failed (…)`. The exit code is the first failure's.
private func saveAttachments(
    _ attachments: [Attachment], of list: ListPath, id: Int, into folder: LocalFolder, overwrite: Bool,
    output: Output, site: SharePointSite
) async throws -> ExitCode {
    var firstFailure: ExitCode?
    let outcomes = await AttachmentDownloads.save(
        attachments, of: list, id: id, into: folder, overwrite: overwrite, site: site)
    for outcome in outcomes {
        switch outcome.result {
        case .downloaded: break
        case .exists(let path):
            printError("spconnect attachments: \(outcome.name): \(path) already exists; add --overwrite to replace it.")
            firstFailure =
                firstFailure ?? exitCode(for: SharePointError(kind: .alreadyExists, status: 0, message: path))
        case .unsafeName(let error):
            printError("spconnect attachments: \(error.description)")
            firstFailure = firstFailure ?? exitCode(for: error)
        case .failed(let error):
            printError("spconnect attachments: \(outcome.name): \(error.description)")
            firstFailure = firstFailure ?? exitCode(for: error)
        }
    }
    output.render(RecordSet(columns: AttachmentOutcome.columns, records: outcomes.map(\.record)))
    return firstFailure ?? .ok
}
