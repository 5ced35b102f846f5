import FileOperations
import Presentation
import SharePoint

/// `spconnect ls FOLDER [-R]`: the folders and files in a folder (and every folder below with `-R`).
let lsCommand = Command(
    name: "ls", summary: "List the folders and files in a library folder (and every folder below it with -R).",
    synopsis: "FOLDER [-R] [--output FORMAT]   (FOLDER: a library title, a path or a browser address; see docs/cli.md)",
    options: [
        .flag(
            .recursive, short: "R",
            "also every folder below, depth first (each entry's server-relative URL says where it is)")
    ] + SiteContext.options,
    examples: [
        "spconnect ls Documents",
        "spconnect ls -R 'Shared Documents/Reports' -o ndjson",
    ]
) { arguments in
    try await withSiteErrors("ls") {
        let folder = try positionals(arguments, "FOLDER")[0]
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let top = try await site.withPath(named: folder, container: true) { path in
            try await FolderLevel.read(path, site: site)
        }
        guard arguments.has(.recursive) else {
            output.render(RecordSet(columns: SharePointRecords.entryColumns, records: top.records))
            return .ok
        }
        // Streamed level by level: a big library is never held whole.
        let stream = output.stream(columns: SharePointRecords.entryColumns)
        try await top.write(to: stream, recursing: site)
        stream.finish()
        return .ok
    }
}

/// The folders and files directly in one folder, each sorted by name.
private struct FolderLevel {
    var folders: [Folder]
    var files: [SharePoint.File]

    static func read(_ path: String, site: SharePointSite) async throws(SharePointError) -> FolderLevel {
        FolderLevel(
            folders: try await site.folders(inFolder: path).sorted { $0.name < $1.name },
            files: try await site.files(inFolder: path).sorted { $0.name < $1.name })
    }

    /// Folders, then files.
    var records: [Record] {
        folders.map(SharePointRecords.record(folder:)) + files.map(SharePointRecords.record(file:))
    }

    /// This level's entries, then each sub-folder's, depth first (as `ls -R` does).
    func write(to stream: RecordStream, recursing site: SharePointSite) async throws(SharePointError) {
        for record in records { stream.write(record) }
        stream.flush()
        for folder in folders {
            try await FolderLevel.read(folder.serverRelativeUrl, site: site).write(to: stream, recursing: site)
        }
    }
}
