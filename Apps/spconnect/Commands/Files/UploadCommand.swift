import CommandLineKit
import FileOperations
import Foundation
import Mirror
import Presentation
import SharePoint
import Synchronization

/// `spconnect upload FILE --to FOLDER`.
let uploadCommand = Command(
    name: "upload",
    summary: "Upload a local file, or a whole folder tree with -r, into a library folder (large files in chunks).",
    synopsis:
        "FILE --to FOLDER [--as NAME] [--overwrite]  |  -r DIR --to FOLDER [--parallel N] [--overwrite] [--delete] "
        + "[--dry-run] [--wait SECONDS]",
    options: [
        .value(.to, "FOLDER", "the library folder: a title ('Documents'), a path or a browser address"),
        .value(.asOption, "NAME", "the file name in SharePoint (default: the local name)"),
        .flag(.overwrite, "replace a file of the same name (otherwise the upload is refused)"),
        .flag(
            .recursive, short: "r",
            "the contents of DIR and every folder below it, folders made as needed; unchanged files are skipped"),
        .integer(.parallel, "N", in: 1...32, "with -r: files uploaded at the same time (default 4)"),
        .flag(
            .delete,
            "with -r: recycle what spconnect uploaded there before and DIR no longer has (unchanged since)"),
        .flag(.dryRun, "with -r: print what would be uploaded, replaced, deleted or refused; change nothing"),
        waitOption,
    ] + SiteContext.options,
    examples: [
        "spconnect upload report.pdf --to 'Shared Documents/Reports'",
        "spconnect upload -r ./site --to 'Shared Documents/Site' --delete --dry-run",
        "spconnect upload draft.docx --to 'Shared Documents' --as final.docx --overwrite",
        "spconnect upload -r ./exports --to 'Shared Documents/Exports' --parallel 8",
    ], positionals: .path
) { arguments in
    try await withSiteErrors("upload") {
        let file = try positionals(arguments, arguments.has(.recursive) ? "DIR" : "FILE")[0]
        guard let folder = arguments.value(.to) else { throw UsageError(description: "--to FOLDER is required") }
        if arguments.has(.recursive) {
            guard arguments.value(.asOption) == nil else {
                throw UsageError(description: "--as renames one file; it cannot go with -r")
            }
            let options = try treeOptions(arguments, parallel: arguments.integer(.parallel) ?? 4)
            let output = try Output(arguments)
            let site = try SiteContext.open(arguments).site
            return try await TreeCommand.upload(file, to: folder, options: options, site: site, output: output)
        }
        try refuseTreeFlags(arguments, [.delete, .dryRun, .wait], command: "upload")
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw UsageError(description: "cannot read the local file \(file)")
        }
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let totals = TransferTotals(count: 1)
        let bar = TransferBar(
            label: URL(fileURLWithPath: file).lastPathComponent, totals: { totals.sum },
            enabled: output.progressEnabled, drawingOn: STDERR_FILENO
        )
        let name = arguments.value(.asOption) ?? URL(fileURLWithPath: file).lastPathComponent
        let uploaded: SharePoint.File
        do {
            uploaded = try await site.withPath(named: folder, container: true) { path in
                try await site.upload(
                    file: file, toFolder: path, as: name, overwrite: arguments.has(.overwrite)
                ) { progress in totals.update(0, progress) }
            }
        } catch let error as SharePointError where error.kind == .alreadyExists {
            bar.finish()
            printError(
                "spconnect upload: A file named '\(name)' already exists in \(folder); add --overwrite to replace it, "
                    + "or --as NAME to upload it under another name." + error.details)
            return .conflict
        }
        bar.finish()
        output.renderOne(SharePointRecords.record(file: uploaded), columns: SharePointRecords.entryColumns)
        return .ok
    }
}
