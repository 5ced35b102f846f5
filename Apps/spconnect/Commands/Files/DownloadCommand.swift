import CommandLineKit
import FileOperations
import Foundation
import LocalFiles
import Mirror
import SharePoint
import Synchronization

/// `spconnect download`: files to a local folder, several at a time; `-r` mirrors a folder tree.
let downloadCommand = Command(
    name: "download",
    summary: "Download files (by library item or path), or a whole folder tree with -r, into a local folder.",
    synopsis:
        "(LIST ID... | FILE)... [--to DIR] [--parallel N]  |  -r FOLDER --to DIR [--overwrite] [--delete] [--dry-run] "
        + "[--wait SECONDS] [--incremental FILE]",
    options: [
        .path(.to, "DIR", "the folder to write into, made when missing (default: the current folder)"),
        .integer(.parallel, "N", in: 1...32, "files downloaded at the same time (default 4)"),
        .flag(
            .recursive, short: "r",
            "FOLDER and every folder below it, the tree kept; files whose size and time match are skipped"),
        .flag(.overwrite, "with -r: also replace local files that spconnect did not write or that were modified"),
        .flag(
            .delete,
            "with -r: remove local files spconnect wrote that SharePoint no longer has (never one it did not write), "
                + "and the folders that leaves empty"),
        .flag(.dryRun, "with -r: print what would be downloaded, replaced, deleted or refused; change nothing"),
        waitOption,
        .path(
            .incremental, "FILE",
            "with -r: only what changed since the change token in FILE (a missing FILE: a full run); FILE gets the "
                + "new token after a run that succeeded"),
    ] + SiteContext.options,
    examples: [
        "spconnect download Documents 12 --to ~/Downloads",
        "spconnect download '/sites/team/Shared Documents/report.pdf' '/sites/team/Shared Documents/data.xlsx' --parallel 2",
        "spconnect download -r 'Shared Documents/Reports' --to ./reports --parallel 8 -o ndjson",
        "spconnect download -r Documents --to ./mirror --delete --dry-run",
        "spconnect download -r Documents --to ./mirror --delete --incremental mirror.token",
    ]
) { arguments in
    try await withSiteErrors("download") {
        let parallel = arguments.integer(.parallel) ?? 4
        let directory = arguments.value(.to) ?? FileManager.default.currentDirectoryPath
        if arguments.has(.recursive) {
            let folder = try positionals(arguments, "FOLDER")[0]
            guard arguments.value(.to) != nil else {
                throw UsageError(description: "download -r needs --to DIR (the local folder the tree goes in)")
            }
            let options = try treeOptions(arguments, parallel: parallel)
            let output = try Output(arguments)
            let site = try SiteContext.open(arguments).site
            return try await TreeCommand.download(
                folder, to: directory, options: options, site: site, output: output,
                incremental: arguments.value(.incremental).map(IncrementalDownload.init))
        }
        try refuseTreeFlags(arguments, [.delete, .dryRun, .wait, .incremental], command: "download")
        let targets = try DownloadTarget.parse(arguments.positionals)
        try makeLocalFolder(directory)
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let (urls, wordFor) = try await FileDownloads.resolve(targets, site: site)
        let distinct = try FileDownloads.distinctDestinations(urls, in: directory)
        return try await downloadFiles(
            distinct, words: wordFor, to: directory, parallel: parallel, site: site, output: output)
    }
}
