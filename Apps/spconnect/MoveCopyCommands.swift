import Presentation
import SharePoint

/// `spconnect mv SOURCE DEST`: a file moved within the site (`MoveTo`).
let mvCommand = Command(
    name: "mv",
    summary: "Move a file within the site: to another name, or into a folder (keeping its name).",
    synopsis: "SOURCE DEST [--overwrite] [--dry-run]   (SOURCE, DEST: file or folder paths; see docs/cli.md)",
    options: MoveCopy.options, examples: MoveCopy.examples("mv")
) { arguments in
    try await MoveCopy.run(arguments, copying: false)
}

/// `spconnect cp SOURCE DEST`: a copy of a file within the site (`CopyTo`).
let cpCommand = Command(
    name: "cp",
    summary: "Copy a file within the site: under another name, or into a folder (keeping its name).",
    synopsis: "SOURCE DEST [--overwrite] [--dry-run]   (SOURCE, DEST: file or folder paths; see docs/cli.md)",
    options: MoveCopy.options, examples: MoveCopy.examples("cp")
) { arguments in
    try await MoveCopy.run(arguments, copying: true)
}

/// What `mv` and `cp` share: SOURCE read (a file, with the closest name when missing), DEST read as a folder (the
/// file keeps its name there) or as the new path (its folder must exist), then one `MoveTo` / `CopyTo`.
enum MoveCopy {
    static let options: [OptionSpec] =
        [
            .flag("overwrite", "replace a file already at DEST (otherwise it is refused, exit 9)"),
            .flag("dry-run", short: "n", "only say what would be done; nothing is changed"),
        ] + SiteContext.options

    static func examples(_ name: String) -> [String] {
        [
            "spconnect \(name) 'Shared Documents/report.docx' Documents/Archive",
            "spconnect \(name) Documents/draft.txt Documents/final.txt --overwrite",
            "spconnect \(name) --dry-run Documents/a.txt Documents/Reports/a.txt",
        ]
    }

    static let columns = [
        Column("source", title: "Source"), Column("destination", title: "Destination"),
        Column("result", title: "Result"),
    ]

    static func run(_ arguments: ParsedArguments, copying: Bool) async throws -> ExitCode {
        let command = copying ? "cp" : "mv"
        return try await withSiteErrors(command) {
            let words = try positionals(arguments, "SOURCE", "DEST")
            let overwrite = arguments.has("overwrite")
            let dryRun = arguments.has("dry-run")
            let output = try Output(arguments)
            let site = try SiteContext.open(arguments).site
            let file: SharePoint.File
            switch try await RemoteEntry.read(words[0], site: site) {
            case .file(let found): file = found
            case .folder(let folder):
                throw UsageError(
                    description: "\(folder.serverRelativeUrl) is a folder; \(command) moves and copies files only")
            }
            let target = try await destination(words[1], name: file.name, site: site)
            if target.lowercased() == file.serverRelativeUrl.lowercased() {
                throw UsageError(description: "SOURCE and DEST are the same file (\(target))")
            }
            let replacing = try await fileExists(target, site: site)
            if replacing, !overwrite {
                printError(
                    "spconnect \(command): A file already exists at \(target); add --overwrite to replace it. "
                        + "Nothing was changed.")
                output.render(RecordSet(columns: columns, records: [record(file, target, "refused (exists)")]))
                return .conflict
            }
            let verb = copying ? "copy" : "move"
            let suffix = replacing ? ", replacing" : ""
            if dryRun {
                output.render(RecordSet(columns: columns, records: [record(file, target, "would \(verb)\(suffix)")]))
                output.note("Dry run: nothing was changed.")
                return .ok
            }
            do {
                if copying {
                    try await site.copyFile(serverRelativeURL: file.serverRelativeUrl, to: target, overwrite: overwrite)
                } else {
                    try await site.moveFile(serverRelativeURL: file.serverRelativeUrl, to: target, overwrite: overwrite)
                }
            } catch let error as SharePointError where error.kind == .alreadyExists {
                // Made there since it was checked.
                printError(
                    "spconnect \(command): A file already exists at \(target); add --overwrite to replace it."
                        + error.details)
                return .conflict
            }
            let done = copying ? "copied" : "moved"
            output.render(RecordSet(columns: columns, records: [record(file, target, done + suffix)]))
            return .ok
        }
    }

    /// The server-relative URL the file goes to: `DEST/NAME` when DEST is a folder, DEST itself when the folder it
    /// names as its parent exists. Neither: the folder's "not found" (exit 8).
    private static func destination(_ word: String, name: String, site: SharePointSite) async throws -> String {
        try await withPath(word, container: false, site: site) { path in
            do {
                let folder = try await site.folder(serverRelativeURL: path)
                return folder.serverRelativeUrl + "/" + name
            } catch let missing as SharePointError where missing.isMissingPath {
                guard !word.hasSuffix("/") else { throw missing }
                do {
                    _ = try await site.folder(serverRelativeURL: folderPart(of: path))
                } catch var parentMissing as SharePointError where parentMissing.isMissingPath {
                    parentMissing.message = "No folder \(folderPart(of: path)) to put \(name) in."
                    throw parentMissing
                }
                return path
            }
        }
    }

    /// Whether a file is at the server-relative `url`.
    private static func fileExists(_ url: String, site: SharePointSite) async throws(SharePointError) -> Bool {
        do {
            _ = try await site.file(serverRelativeURL: url)
            return true
        } catch  where error.isMissingPath {
            return false
        }
    }

    /// The folder part of a server-relative path (`/a/b.txt` → `/a`).
    private static func folderPart(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func record(_ file: SharePoint.File, _ target: String, _ result: String) -> Record {
        Record([
            Field("source", .string(file.serverRelativeUrl)), Field("destination", .string(target)),
            Field("result", .string(result)),
        ])
    }
}
