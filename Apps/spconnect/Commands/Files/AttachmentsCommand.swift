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

/// Saves each attachment as its own name in `folder` (one at a time: they are small), one result per attachment:
/// `downloaded`, `refused (exists)` (a file already there, without `overwrite`), `refused (name)` (a name that
/// cannot be a file in `folder`: `..`, a `/`), `failed (…)`. The exit code is the first failure's.
private func saveAttachments(
    _ attachments: [Attachment], of list: ListPath, id: Int, into folder: LocalFolder, overwrite: Bool,
    output: Output, site: SharePointSite
) async throws -> ExitCode {
    var records: [Record] = []
    var firstFailure: ExitCode?
    for attachment in attachments {
        let name = attachment.fileName
        var size: Cell = .null
        var saved: Cell = .null
        let result: String
        do {
            guard LocalName.isPlain(name) else {
                throw SharePointError(
                    localFile: "refused to save the attachment '\(name)'",
                    detail: "its name is not a plain file name, so it could land outside \(folder.path)")
            }
            // Checked again when the file is moved into place: this only spares fetching what would be refused.
            let existing = (try? folder.entry(name)) ?? nil
            if !overwrite, existing != nil {
                throw SharePointError(kind: .alreadyExists, status: 0, message: "\(folder.path(of: name)) exists")
            }
            let bytes = try await site.downloadAttachment(
                named: name, in: list, id: id, into: folder, as: name, replacing: overwrite)
            size = Int(exactly: bytes).map(Cell.int) ?? .null
            saved = .string(folder.path(of: name))
            result = "downloaded"
        } catch let error as SharePointError {
            switch error.kind {
            case .alreadyExists:
                result = "refused (exists)"
                printError(
                    "spconnect attachments: \(name): \(folder.path(of: name)) already exists; add --overwrite to "
                        + "replace it.")
            case .localFile where !LocalName.isPlain(name):
                result = "refused (name)"
                printError("spconnect attachments: \(error.description)")
            default:
                result = "failed (\(error.briefReason))"
                printError("spconnect attachments: \(name): \(error.description)")
            }
            firstFailure = firstFailure ?? exitCode(for: error)
        }
        records.append(
            Record([
                Presentation.Field("name", .string(name)), Presentation.Field("size", size),
                Presentation.Field("path", saved), Presentation.Field("result", .string(result)),
            ]))
    }
    output.render(
        RecordSet(
            columns: [
                Column("name", title: "Name"), Column("size", title: "Size"), Column("path", title: "Saved to"),
                Column("result", title: "Result"),
            ], records: records))
    return firstFailure ?? .ok
}

/// Names a server gives that may be written as one file in a folder.
enum LocalName {
    /// Not empty, not `.` or `..`, no `/`, `\` or NUL, and no control characters.
    static func isPlain(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\\")
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
